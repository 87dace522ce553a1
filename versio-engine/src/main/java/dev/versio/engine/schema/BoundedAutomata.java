package dev.versio.engine.schema;

import dk.brics.automaton.Automaton;
import dk.brics.automaton.State;
import dk.brics.automaton.Transition;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Automata of a schema's pattern with a budget: a pattern such as {@code ^.*a.{20}$} has a
 * deterministic automaton of 2^21 states, which brics would build without asking (out of memory at
 * N = 20, in admission, the operator and every webhook replica), and brics's own construction
 * copies the automaton built so far at every step. Here the pattern is parsed into a tree, built
 * into a nondeterministic automaton one state at a time (Thompson's construction, at most {@link
 * #MAX_NFA_STATES}), and determinized one state at a time (at most {@link #MAX_DFA_STATES}); a
 * pattern over either budget is reported as unbounded, and the caller then admits every string,
 * which the over-approximating translation allows.
 */
final class BoundedAutomata {
  /** Most states of the nondeterministic automaton of a pattern. */
  static final int MAX_NFA_STATES = 5_000;

  /** Most states of the deterministic automaton of a pattern. */
  static final int MAX_DFA_STATES = 1_000;

  private BoundedAutomata() {}

  /**
   * The deterministic automaton of {@code regex} (brics syntax, as {@link TextLanguage} writes it),
   * or empty when it would take more than the budget.
   */
  static Optional<Automaton> of(String regex) {
    var nfa = new Nfa();
    int start;
    int end;
    try {
      var fragment = nfa.build(new Parser(regex).parse());
      start = fragment[0];
      end = fragment[1];
    } catch (OverBudget e) {
      return Optional.empty();
    }
    return determinized(nfa, start, end, MAX_DFA_STATES);
  }

  /** A pattern as a tree. */
  private sealed interface Node {}

  /** One character out of {@code ranges} (pairs of inclusive bounds). */
  private record Chars(List<char[]> ranges) implements Node {}

  private record Sequence(List<Node> items) implements Node {}

  private record Alternatives(List<Node> options) implements Node {}

  /** {@code node} {@code min} to {@code max} times; {@code max} −1 is unbounded. */
  private record Repeat(Node node, int min, int max) implements Node {}

  /** Thrown while building once the automaton needs more states than the budget. */
  private static final class OverBudget extends RuntimeException {
    OverBudget() {
      super("over budget", null, false, false);
    }
  }

  /** A nondeterministic automaton with empty moves, grown state by state within the budget. */
  private static final class Nfa {
    final List<List<int[]>> moves = new ArrayList<>(); // per state: {low, high, to}
    final List<List<Integer>> empty = new ArrayList<>(); // per state: states reached for free

    int state() {
      if (moves.size() >= MAX_NFA_STATES) {
        throw new OverBudget();
      }
      moves.add(new ArrayList<>(1));
      empty.add(new ArrayList<>(1));
      return moves.size() - 1;
    }

    /** The start and end state of a fresh copy of {@code node}. */
    int[] build(Node node) {
      return switch (node) {
        case Chars c -> {
          int s = state();
          int e = state();
          for (var r : c.ranges()) {
            moves.get(s).add(new int[] {r[0], r[1], e});
          }
          yield new int[] {s, e};
        }
        case Sequence q -> {
          int s = state();
          int last = s;
          for (var item : q.items()) {
            var f = build(item);
            empty.get(last).add(f[0]);
            last = f[1];
          }
          yield new int[] {s, last};
        }
        case Alternatives a -> {
          int s = state();
          int e = state();
          for (var option : a.options()) {
            var f = build(option);
            empty.get(s).add(f[0]);
            empty.get(f[1]).add(e);
          }
          yield new int[] {s, e};
        }
        case Repeat r -> {
          int s = state();
          int last = s;
          for (int i = 0; i < r.min(); i++) {
            var f = build(r.node());
            empty.get(last).add(f[0]);
            last = f[1];
          }
          int e = state();
          if (r.max() < 0) { // then any number more
            var f = build(r.node());
            empty.get(last).add(f[0]);
            empty.get(f[1]).add(f[0]);
            empty.get(f[1]).add(e);
          } else {
            for (int i = r.min(); i < r.max(); i++) { // each one more optional
              var f = build(r.node());
              empty.get(last).add(f[0]);
              empty.get(last).add(e);
              last = f[1];
            }
          }
          empty.get(last).add(e);
          yield new int[] {s, e};
        }
      };
    }

    BitSet closure(BitSet states) {
      var out = (BitSet) states.clone();
      var work = new ArrayDeque<Integer>();
      states.stream().forEach(work::push);
      while (!work.isEmpty()) {
        for (int next : empty.get(work.pop())) {
          if (!out.get(next)) {
            out.set(next);
            work.push(next);
          }
        }
      }
      return out;
    }
  }

  /** The subset construction, stopped (empty) once it needs more than {@code maxStates} states. */
  private static Optional<Automaton> determinized(Nfa nfa, int start, int end, int maxStates) {
    var made = new HashMap<BitSet, State>();
    var work = new ArrayDeque<BitSet>();
    var initial = new BitSet();
    initial.set(start);
    initial = nfa.closure(initial);
    var dfa = new Automaton();
    var first = new State();
    dfa.setInitialState(first);
    made.put(initial, first);
    work.add(initial);
    while (!work.isEmpty()) {
      var subset = work.poll();
      var from = made.get(subset);
      from.setAccept(subset.get(end));
      var points = new TreeSet<Integer>();
      subset.stream()
          .forEach(
              st -> {
                for (var m : nfa.moves.get(st)) {
                  points.add(m[0]);
                  points.add(m[1] + 1);
                }
              });
      var starts = points.stream().mapToInt(Integer::intValue).toArray();
      for (int p = 0; p + 1 < starts.length; p++) {
        int low = starts[p];
        var target = new BitSet();
        subset.stream()
            .forEach(
                st -> {
                  for (var m : nfa.moves.get(st)) {
                    if (m[0] <= low && low <= m[1]) {
                      target.set(m[2]);
                    }
                  }
                });
        if (target.isEmpty()) {
          continue;
        }
        var closed = nfa.closure(target);
        var to = made.get(closed);
        if (to == null) {
          if (made.size() >= maxStates) {
            return Optional.empty();
          }
          to = new State();
          made.put(closed, to);
          work.add(closed);
        }
        from.addTransition(new Transition((char) low, (char) (starts[p + 1] - 1), to));
      }
    }
    dfa.setDeterministic(true);
    dfa.minimize(); // deterministic already: Hopcroft only, at most MAX_DFA_STATES states
    return Optional.of(dfa);
  }

  /** A tree of {@code regex} in the syntax {@link TextLanguage} writes. */
  private static final class Parser {
    private final String regex;
    private int i;

    Parser(String regex) {
      this.regex = regex;
    }

    Node parse() {
      var node = alternatives();
      if (i != regex.length()) {
        throw new IllegalArgumentException("unexpected " + regex.charAt(i) + " at " + i);
      }
      return node;
    }

    private Node alternatives() {
      var options = new ArrayList<Node>();
      options.add(sequence());
      while (i < regex.length() && regex.charAt(i) == '|') {
        i++;
        options.add(sequence());
      }
      return options.size() == 1 ? options.getFirst() : new Alternatives(options);
    }

    private Node sequence() {
      var items = new ArrayList<Node>();
      while (i < regex.length() && regex.charAt(i) != '|' && regex.charAt(i) != ')') {
        items.add(repeated());
      }
      return new Sequence(items);
    }

    private Node repeated() {
      var node = atom();
      while (i < regex.length()) {
        char c = regex.charAt(i);
        if (c == '*') {
          node = new Repeat(node, 0, -1);
        } else if (c == '+') {
          node = new Repeat(node, 1, -1);
        } else if (c == '?') {
          node = new Repeat(node, 0, 1);
        } else if (c == '{') {
          int close = regex.indexOf('}', i);
          var counts = regex.substring(i + 1, close).split(",", -1);
          int min = count(counts[0]);
          int max = counts.length == 1 ? min : counts[1].isEmpty() ? -1 : count(counts[1]);
          node = new Repeat(node, min, max);
          i = close;
        } else {
          return node;
        }
        i++;
      }
      return node;
    }

    /** A count; one past the budget stands for any larger one (the budget refuses it). */
    private static int count(String digits) {
      return digits.length() > 6
          ? MAX_NFA_STATES + 1
          : Math.min(Integer.parseInt(digits), MAX_NFA_STATES + 1);
    }

    private Node atom() {
      char c = regex.charAt(i++);
      return switch (c) {
        case '(' -> {
          var node = alternatives();
          i++; // the ')'
          yield node;
        }
        case '.' -> new Chars(List.of(new char[] {Character.MIN_VALUE, Character.MAX_VALUE}));
        case '[' -> charClass();
        case '\\' -> single(regex.charAt(i++));
        default -> single(c);
      };
    }

    private static Node single(char c) {
      return new Chars(List.of(new char[] {c, c}));
    }

    /** A class {@code [a-z\-x]} or {@code [^...]}, with {@code i} just after its {@code [}. */
    private Node charClass() {
      boolean negated = i < regex.length() && regex.charAt(i) == '^';
      if (negated) {
        i++;
      }
      var ranges = new ArrayList<char[]>();
      while (regex.charAt(i) != ']') {
        char low = next();
        char high = low;
        if (regex.charAt(i) == '-' && regex.charAt(i + 1) != ']') {
          i++;
          high = next();
        }
        ranges.add(new char[] {low, high});
      }
      i++; // the ']'
      return new Chars(negated ? complement(ranges) : ranges);
    }

    private char next() {
      char c = regex.charAt(i++);
      return c == '\\' ? regex.charAt(i++) : c;
    }

    private static List<char[]> complement(List<char[]> ranges) {
      var sorted = new ArrayList<>(ranges);
      sorted.sort((a, b) -> Character.compare(a[0], b[0]));
      var out = new ArrayList<char[]>();
      int from = 0;
      for (var r : sorted) {
        if (r[0] > from) {
          out.add(new char[] {(char) from, (char) (r[0] - 1)});
        }
        from = Math.max(from, r[1] + 1);
      }
      if (from <= Character.MAX_VALUE) {
        out.add(new char[] {(char) from, Character.MAX_VALUE});
      }
      return out;
    }
  }
}
