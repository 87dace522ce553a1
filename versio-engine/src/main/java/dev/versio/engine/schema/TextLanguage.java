package dev.versio.engine.schema;

import dk.brics.automaton.Automaton;
import dk.brics.automaton.BasicAutomata;
import dk.brics.automaton.RegExp;
import java.util.ArrayList;
import java.util.Optional;

/**
 * The strings a string schema node admits, as a finite automaton: its {@code enum}, its {@code
 * minLength}/{@code maxLength}, and its {@code pattern} translated from ECMA-262 (OpenAPI's
 * dialect: unanchored, so {@code abc} admits any string containing it). The translation
 * over-approximates and never under-approximates: {@code .} admits line breaks too, and a construct
 * it does not model (look-around, back-references, word boundaries, anchors inside the pattern)
 * makes it admit any string. So "no admitted string is in L" proves it; an example the automaton
 * gives must still be checked against the real pattern.
 */
public final class TextLanguage {
  /** ECMA-262's white space and line terminators, as literal characters and ranges. */
  private static final String SPACE =
      "\t\n\u000B\f\r \u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000\uFEFF";

  private static final String WORD = "a-zA-Z0-9_";

  /** The longest minLength/maxLength the automaton counts out. */
  private static final int MAX_COUNTED = 256;

  private TextLanguage() {}

  /** Every string {@code node} admits (over-approximated as described above). */
  public static Automaton admitted(SchemaNode node) {
    if (!node.enumValues().isEmpty()) {
      var words = new ArrayList<Automaton>();
      node.enumValues().stream()
          .filter(v -> v.isTextual())
          .forEach(v -> words.add(BasicAutomata.makeString(v.textValue())));
      return words.isEmpty() ? BasicAutomata.makeEmpty() : Automaton.union(words);
    }
    var bounds = node.textBounds();
    if (bounds == null) {
      return BasicAutomata.makeAnyString();
    }
    var language = BasicAutomata.makeAnyString();
    if (bounds.minLength().isPresent() || bounds.maxLength().isPresent()) {
      // lengths count code points: one char, or a surrogate pair taken as one
      var codePoint =
          BasicAutomata.makeAnyChar()
              .union(
                  BasicAutomata.makeCharRange('\uD800', '\uDBFF')
                      .concatenate(BasicAutomata.makeCharRange('\uDC00', '\uDFFF')));
      // lengths past MAX_COUNTED are not modelled (more strings admitted), which keeps the
      // product with a pattern's automaton within MAX_COUNTED x BoundedAutomata.MAX_DFA_STATES
      int min = (int) Math.min(bounds.minLength().orElse(0L), MAX_COUNTED);
      language =
          bounds.maxLength().isPresent() && bounds.maxLength().get() <= MAX_COUNTED
              ? codePoint.repeat(min, (int) (long) bounds.maxLength().get())
              : codePoint.repeat(min);
    }
    if (bounds.pattern().isPresent()) {
      language = language.intersection(pattern(bounds.pattern().get()));
    }
    return language;
  }

  /**
   * An ECMA-262 pattern as OpenAPI applies it (a match anywhere), over-approximated; a pattern
   * whose automaton would exceed {@link BoundedAutomata}'s budget admits any string.
   */
  public static Automaton pattern(String ecma) {
    return translate(ecma).flatMap(BoundedAutomata::of).orElseGet(BasicAutomata::makeAnyString);
  }

  /**
   * {@code ecma} as a brics regular expression over whole strings, or empty when it uses a
   * construct the translation does not model.
   */
  static Optional<String> translate(String ecma) {
    var body = ecma;
    boolean start = body.startsWith("^");
    if (start) {
      body = body.substring(1);
    }
    boolean end = body.endsWith("$") && !escaped(body, body.length() - 1);
    if (end) {
      body = body.substring(0, body.length() - 1);
    }
    if ((start || end) && topLevelAlternation(body)) {
      return Optional.empty(); // ^a|b$ anchors each branch differently
    }
    var out = new StringBuilder();
    if (!translateBody(body, out)) {
      return Optional.empty();
    }
    try {
      new RegExp(out.toString(), RegExp.NONE);
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
    return Optional.of((start ? "" : ".*") + "(" + out + ")" + (end ? "" : ".*"));
  }

  private static boolean escaped(String s, int at) {
    int backslashes = 0;
    for (int i = at - 1; i >= 0 && s.charAt(i) == '\\'; i--) {
      backslashes++;
    }
    return backslashes % 2 == 1;
  }

  private static boolean topLevelAlternation(String body) {
    int depth = 0;
    boolean inClass = false;
    for (int i = 0; i < body.length(); i++) {
      char c = body.charAt(i);
      if (c == '\\') {
        i++;
      } else if (inClass) {
        inClass = c != ']';
      } else if (c == '[') {
        inClass = true;
      } else if (c == '(') {
        depth++;
      } else if (c == ')') {
        depth--;
      } else if (c == '|' && depth == 0) {
        return true;
      }
    }
    return false;
  }

  private static boolean translateBody(String p, StringBuilder out) {
    for (int i = 0; i < p.length(); i++) {
      char c = p.charAt(i);
      switch (c) {
        case '\\' -> {
          if (i + 1 >= p.length()) {
            return false;
          }
          i = escape(p, i, out, false);
          if (i < 0) {
            return false;
          }
        }
        case '[' -> {
          i = charClass(p, i, out);
          if (i < 0) {
            return false;
          }
        }
        case '(' -> {
          if (p.startsWith("(?:", i)) {
            out.append('(');
            i += 2;
          } else if (p.startsWith("(?<", i)
              && i + 3 < p.length()
              && Character.isLetter(p.charAt(i + 3))) {
            int close = p.indexOf('>', i);
            if (close < 0) {
              return false;
            }
            out.append('(');
            i = close;
          } else if (p.startsWith("(?", i)) {
            return false; // look-around
          } else {
            out.append('(');
          }
        }
        case '{' -> {
          int close = p.indexOf('}', i);
          if (close > 0 && p.substring(i + 1, close).matches("\\d+(,\\d*)?")) {
            out.append(p, i, close + 1);
            i = close;
          } else {
            out.append("\\{");
          }
        }
        case '*', '+', '?', '}' -> {
          if (c == '?' && i > 0 && "*+?}".indexOf(p.charAt(i - 1)) >= 0 && !escaped(p, i - 1)) {
            continue; // a lazy quantifier matches the same strings
          }
          out.append(c == '}' ? "\\}" : String.valueOf(c));
        }
        case '^', '$' -> {
          return false; // an anchor inside the pattern
        }
        case '.', ')', '|' -> out.append(c);
        default -> literal(c, out);
      }
    }
    return true;
  }

  /** Translates the escape at {@code p[i]}; returns the index of its last char, or -1. */
  private static int escape(String p, int i, StringBuilder out, boolean inClass) {
    char e = p.charAt(i + 1);
    switch (e) {
      case 'd' -> out.append(inClass ? "0-9" : "[0-9]");
      case 'w' -> out.append(inClass ? WORD : "[" + WORD + "]");
      case 's' -> out.append(inClass ? SPACE : "[" + SPACE + "]");
      case 'D', 'W', 'S' -> {
        if (inClass) {
          return -1;
        }
        out.append("[^").append(e == 'D' ? "0-9" : e == 'W' ? WORD : SPACE).append(']');
      }
      case 'n' -> literal('\n', out);
      case 't' -> literal('\t', out);
      case 'r' -> literal('\r', out);
      case 'f' -> literal('\f', out);
      case 'v' -> literal('\u000B', out);
      case '0' -> literal('\0', out);
      case 'u', 'x' -> {
        int digits = e == 'u' ? 4 : 2;
        if (i + 2 + digits > p.length()) {
          return -1;
        }
        try {
          literal((char) Integer.parseInt(p.substring(i + 2, i + 2 + digits), 16), out);
        } catch (NumberFormatException x) {
          return -1;
        }
        return i + 1 + digits;
      }
      default -> {
        if (Character.isLetterOrDigit(e)) {
          return -1; // \b, \B, back-references, \p{..}, \c..: not modelled
        }
        literal(e, out);
      }
    }
    return i + 1;
  }

  /**
   * Translates the class starting at {@code p[i] == '['}; returns the index of its {@code ]}, or
   * -1.
   */
  private static int charClass(String p, int i, StringBuilder out) {
    var cls = new StringBuilder("[");
    int j = i + 1;
    if (j < p.length() && p.charAt(j) == '^') {
      cls.append('^');
      j++;
    }
    boolean first = true;
    for (; j < p.length(); j++) {
      char c = p.charAt(j);
      if (c == ']' && !first) {
        if (cls.length() == 1 || cls.toString().equals("[^")) {
          return -1;
        }
        out.append(cls).append(']');
        return j;
      }
      first = false;
      if (c == '\\') {
        if (j + 1 >= p.length()) {
          return -1;
        }
        j = escape(p, j, cls, true);
        if (j < 0) {
          return -1;
        }
      } else if (c == '-') {
        boolean range = cls.length() > 1 && j + 1 < p.length() && p.charAt(j + 1) != ']';
        if (range) {
          cls.append('-');
        } else {
          literal('-', cls);
        }
      } else if (c == '[') {
        literal('[', cls);
      } else {
        literal(c, cls);
      }
    }
    return -1;
  }

  /** {@code c} as a brics literal: letters and digits as they are, everything else escaped. */
  private static void literal(char c, StringBuilder out) {
    if (Character.isLetterOrDigit(c) || c == ' ' || c == '_') {
      out.append(c);
    } else {
      out.append('\\').append(c);
    }
  }
}
