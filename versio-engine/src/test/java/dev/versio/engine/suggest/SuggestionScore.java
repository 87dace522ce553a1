package dev.versio.engine.suggest;

import java.util.Locale;

/**
 * Counts of proposed rules against expected ones.
 *
 * @param right proposals the expected rules hold
 * @param wrong proposals they do not hold
 * @param missed expected rules (of a strategy the suggester can propose) nothing proposed
 */
record SuggestionScore(int right, int wrong, int missed) {
  static final SuggestionScore NONE = new SuggestionScore(0, 0, 0);

  SuggestionScore {
    if (right < 0 || wrong < 0 || missed < 0) {
      throw new IllegalArgumentException("counts are not negative");
    }
  }

  SuggestionScore plus(SuggestionScore o) {
    return new SuggestionScore(right + o.right, wrong + o.wrong, missed + o.missed);
  }

  /** Right proposals among all proposals; 1 when nothing was proposed. */
  double precision() {
    return right + wrong == 0 ? 1.0 : (double) right / (right + wrong);
  }

  /** Expected rules that were proposed. */
  double recall() {
    return right + missed == 0 ? 1.0 : (double) right / (right + missed);
  }

  @Override
  public String toString() {
    return String.format(
        Locale.ROOT,
        "precision %.3f (%d of %d), recall %.3f (%d of %d)",
        precision(),
        right,
        right + wrong,
        recall(),
        right,
        right + missed);
  }
}
