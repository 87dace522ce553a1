package dev.versio.engine.rule;

import com.fasterxml.jackson.databind.JsonNode;
import dev.versio.engine.FieldPath;
import java.util.Objects;
import java.util.Optional;

/**
 * The options every rule has.
 *
 * @param acknowledgeLossy the author accepts that this rule loses data in a lossy direction
 * @param reason free text explaining the rule (kept, never checked)
 * @param when apply the rule only to objects whose {@code when.path} equals {@code when.equals}
 */
public record RuleOptions(boolean acknowledgeLossy, String reason, Optional<When> when) {
  public RuleOptions {
    Objects.requireNonNull(when, "when");
  }

  public static RuleOptions none() {
    return new RuleOptions(false, null, Optional.empty());
  }

  public static RuleOptions acknowledged(String reason) {
    return new RuleOptions(true, reason, Optional.empty());
  }

  /** The {@code when} modifier: a plain equality test on one path of each direction's input. */
  public record When(FieldPath path, JsonNode equals) {
    public When {
      Objects.requireNonNull(path, "when.path");
      Objects.requireNonNull(equals, "when.equals");
    }
  }
}
