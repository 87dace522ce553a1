package dev.versio.engine.compile;

import dev.versio.engine.schema.SchemaNode;
import dev.versio.engine.schema.TextLanguage;
import dk.brics.automaton.Automaton;
import dk.brics.automaton.BasicAutomata;
import dk.brics.automaton.RegExp;

/**
 * The texts a strategy can lose, as regular languages, so that a string schema whose enum, pattern
 * or length admits none of them proves the direction lossless. Each language over-approximates what
 * the conversion loses (a text outside it always comes back as written); what matters is that an
 * admitted text in it is the only way to lose data.
 */
final class TextLosses {
  private TextLosses() {}

  /**
   * Texts that may parse as an integer but print back otherwise ({@code "007"}, {@code "+5"},
   * {@code " 5"}, {@code "1e3"}): every text with a digit (nothing without one parses) except the
   * canonical spelling, which comes back as written.
   */
  static final Automaton INTEGER_SPELLINGS = regex(".*[0-9].*").minus(regex("0|\\-?[1-9][0-9]*"));

  /** Texts that parse as a boolean but print back otherwise ({@code "True"}, {@code "1"}). */
  static final Automaton BOOLEAN_SPELLINGS =
      regex("[\\u0000- ]*(1|t|T|TRUE|true|True|0|f|F|FALSE|false|False)[\\u0000- ]*")
          .minus(regex("true|false"));

  /** List items a join on {@code separator} cannot split back: holding it, or empty. */
  static Automaton joinedItems(String separator) {
    var any = BasicAutomata.makeAnyString();
    return any.concatenate(BasicAutomata.makeString(separator))
        .concatenate(any)
        .union(BasicAutomata.makeEmptyString());
  }

  /** Whether {@code node} admits no text of {@code lost}: then nothing is lost. */
  static boolean ruledOut(SchemaNode node, Automaton lost) {
    return TextLanguage.admitted(node).intersection(lost).isEmpty();
  }

  private static Automaton regex(String brics) {
    return new RegExp(brics, RegExp.NONE).toAutomaton();
  }
}
