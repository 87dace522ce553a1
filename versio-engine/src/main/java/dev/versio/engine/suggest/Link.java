package dev.versio.engine.suggest;

import dev.versio.engine.schema.Leaf;
import java.util.Objects;

/**
 * A hub-only leaf and a spoke-only leaf that could be the same field, with the rule that would join
 * them and how sure the suggester is.
 *
 * @param hub the hub leaf
 * @param spoke the spoke leaf
 * @param score how alike the two look, 0 to 1; between the links of one leaf, the highest wins
 * @param rule the rule that joins them
 * @param confident whether the rule is written into the draft, or only shown commented out for the
 *     author to confirm
 */
record Link(Leaf hub, Leaf spoke, double score, ProposedRule rule, boolean confident) {
  Link {
    Objects.requireNonNull(hub, "hub");
    Objects.requireNonNull(spoke, "spoke");
    Objects.requireNonNull(rule, "rule");
    if (score < 0 || score > 1) {
      throw new IllegalArgumentException("a link score is between 0 and 1: " + score);
    }
    if (!confident && !(rule instanceof ProposedRule.Rename)) {
      throw new IllegalArgumentException("only a rename is shown for the author to confirm");
    }
  }
}
