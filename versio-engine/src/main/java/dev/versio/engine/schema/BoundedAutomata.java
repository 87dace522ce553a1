package dev.versio.engine.schema;

import dk.brics.automaton.Automaton;
import dk.brics.automaton.BasicAutomata;
import dk.brics.automaton.State;
import dk.brics.automaton.Transition;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Automata of a schema's pattern with a budget: a pattern such as {@code ^.*a.{20}$} has a
 * deterministic automaton of 2^21 states, which brics would build without asking (out of memory at
 * N = 20, in admission, the operator and every webhook replica). Here the nondeterministic
 * automaton is sized before it is built and the deterministic one is built state by state, and a
 * pattern over either budget is reported as unbounded: the caller then admits every string, which
 * the over-approximating translation allows.
 */
final class BoundedAutomata {
  /** Most states of the nondeterministic automaton a pattern may need. */
  static final long MAX_NFA_STATES = 20_000;

  /** Most states of the deterministic automaton of a pattern. */
  static final int MAX_DFA_STATES = 1_000;

  private BoundedAutomata() {}

  /**
   * The deterministic automaton of {@code regex} (brics syntax, as {@link TextLanguage} writes it),
   * or empty when it would take more than the budget.
   */
  static Optional<Automaton> of(String regex) {
    if (nfaStates(regex) > MAX_NFA_STATES) {
      return Optional.empty();
    }
    return determinized(new Parser(regex).parse(), MAX_DFA_STATES);
  }

  /**
   * A nondeterministic automaton of {@code regex} in the syntax {@link TextLanguage} writes:
   * brics's own {@code RegExp.toAutomaton} minimizes every union and concatenation, which
   * determinizes, so it cannot be used for a budget.
   */
  private static final class Parser {
    private final String regex;
    private int i;

    Parser(String regex) {
      this.regex = regex;
    }

    Automaton parse() {
      var a = union();
      if (i != regex.length()) {
        throw new IllegalArgumentException("unexpected " + regex.charAt(i) + " at " + i);
      }
      return a;
    }

    private Automaton union() {
      var a = sequence();
      while (i < regex.length() && regex.charAt(i) == '|') {
        i++;
        a = a.union(sequence());
      }
      return a;
    }

    private Automaton sequence() {
      var a = BasicAutomata.makeEmptyString();
      while (i < regex.length() && regex.charAt(i) != '|' && regex.charAt(i) != ')') {
        a = a.concatenate(repeated());
      }
      return a;
    }

    private Automaton repeated() {
      var a = atom();
      while (i < regex.length()) {
        char c = regex.charAt(i);
        if (c == '*') {
          a = a.repeat();
        } else if (c == '+') {
          a = a.repeat(1);
        } else if (c == '?') {
          a = a.optional();
        } else if (c == '{') {
          int close = regex.indexOf('}', i);
          var counts = regex.substring(i + 1, close).split(",", -1);
          int min = Integer.parseInt(counts[0]);
          a =
              counts.length == 1
                  ? a.repeat(min, min)
                  : counts[1].isEmpty()
                      ? a.repeat(min)
                      : a.repeat(min, Integer.parseInt(counts[1]));
          i = close;
        } else {
          return a;
        }
        i++;
      }
      return a;
    }

    private Automaton atom() {
      char c = regex.charAt(i++);
      return switch (c) {
        case '(' -> {
          var a = union();
          i++; // the ')'
          yield a;
        }
        case '.' -> BasicAutomata.makeAnyChar();
        case '[' -> charClass();
        case '\\' -> BasicAutomata.makeChar(regex.charAt(i++));
        default -> BasicAutomata.makeChar(c);
      };
    }

    /** A class {@code [a-z\-x]} or {@code [^...]}, with {@code i} just after its {@code [}. */
    private Automaton charClass() {
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
      if (negated) {
        ranges = complement(ranges);
      }
      var a = BasicAutomata.makeEmpty();
      for (var r : ranges) {
        a = a.union(BasicAutomata.makeCharRange(r[0], r[1]));
      }
      return a;
    }

    private char next() {
      char c = regex.charAt(i++);
      return c == '\\' ? regex.charAt(i++) : c;
    }

    private static ArrayList<char[]> complement(List<char[]> ranges) {
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

  /**
   * An upper bound of the states brics's Thompson-like construction uses for {@code regex}: atoms
   * two each, a group the sum of its alternatives, a repetition {@code {n,m}} its operand times m
   * (or n + 1 for {@code {n,}}), a star, plus or question mark two more.
   */
  static long nfaStates(String regex) {
    var stack = new ArrayDeque<long[]>(); // an open group: {alternatives, sequence, last}
    long alternatives = 0;
    long sequence = 0;
    long last = 0;
    for (int i = 0; i < regex.length(); i++) {
      char c = regex.charAt(i);
      switch (c) {
        case '\\' -> {
          i++;
          sequence = add(sequence, last);
          last = 2;
        }
        case '[' -> {
          int j = i + 1;
          while (j < regex.length() && regex.charAt(j) != ']') {
            j += regex.charAt(j) == '\\' ? 2 : 1;
          }
          i = j;
          sequence = add(sequence, last);
          last = 2;
        }
        case '(' -> {
          stack.push(new long[] {alternatives, sequence, last});
          alternatives = 0;
          sequence = 0;
          last = 0;
        }
        case '|' -> {
          alternatives = add(alternatives, add(sequence, last));
          sequence = 0;
          last = 0;
        }
        case ')' -> {
          long group = add(add(alternatives, add(sequence, last)), 2);
          var outer = stack.isEmpty() ? new long[3] : stack.pop();
          alternatives = outer[0];
          sequence = add(outer[1], outer[2]);
          last = group;
        }
        case '*', '+', '?' -> last = add(last, 2);
        case '{' -> {
          int close = regex.indexOf('}', i);
          var counts = regex.substring(i + 1, close).split(",", -1);
          long times =
              counts.length == 1
                  ? count(counts[0])
                  : counts[1].isEmpty() ? add(count(counts[0]), 1) : count(counts[1]);
          last = add(multiply(last, Math.max(1, times)), 2);
          i = close;
        }
        default -> {
          sequence = add(sequence, last);
          last = 2;
        }
      }
    }
    return add(alternatives, add(sequence, last));
  }

  /**
   * The subset construction of {@code nfa}, stopped (empty) once it needs more than {@code
   * maxStates} states.
   */
  static Optional<Automaton> determinized(Automaton nfa, int maxStates) {
    nfa.expandSingleton();
    var points = new TreeSet<Character>();
    points.add(Character.MIN_VALUE);
    for (var state : nfa.getStates()) {
      for (var t : state.getTransitions()) {
        points.add(t.getMin());
        if (t.getMax() < Character.MAX_VALUE) {
          points.add((char) (t.getMax() + 1));
        }
      }
    }
    var starts = points.stream().mapToInt(Character::charValue).toArray();
    var made = new HashMap<Set<State>, State>();
    var work = new ArrayDeque<Set<State>>();
    var initial = Set.of(nfa.getInitialState());
    var dfa = new Automaton();
    var first = new State();
    dfa.setInitialState(first);
    made.put(initial, first);
    work.add(initial);
    while (!work.isEmpty()) {
      var subset = work.poll();
      var from = made.get(subset);
      from.setAccept(subset.stream().anyMatch(State::isAccept));
      for (int p = 0; p < starts.length; p++) {
        char low = (char) starts[p];
        char high = p + 1 < starts.length ? (char) (starts[p + 1] - 1) : Character.MAX_VALUE;
        var target = new HashSet<State>();
        for (var state : subset) {
          for (var t : state.getTransitions()) {
            if (t.getMin() <= low && low <= t.getMax()) {
              target.add(t.getDest());
            }
          }
        }
        if (target.isEmpty()) {
          continue;
        }
        var to = made.get(target);
        if (to == null) {
          if (made.size() >= maxStates) {
            return Optional.empty();
          }
          to = new State();
          made.put(target, to);
          work.add(target);
        }
        from.addTransition(new Transition(low, high, to));
      }
    }
    dfa.setDeterministic(true);
    dfa.minimize(); // deterministic already: Hopcroft only, at most MAX_DFA_STATES states
    return Optional.of(dfa);
  }

  private static long count(String digits) {
    return digits.length() > 9 ? Long.MAX_VALUE / 4 : Long.parseLong(digits);
  }

  private static long add(long a, long b) {
    return Math.min(Long.MAX_VALUE / 4, a + b);
  }

  private static long multiply(long a, long b) {
    return a != 0 && b > (Long.MAX_VALUE / 4) / a ? Long.MAX_VALUE / 4 : a * b;
  }
}
