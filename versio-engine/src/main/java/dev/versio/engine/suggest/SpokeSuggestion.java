package dev.versio.engine.suggest;

import java.util.List;
import java.util.Objects;

/**
 * What differs between the hub and one spoke, as candidates for the author to review.
 *
 * @param version the spoke version
 * @param rules the rules the draft writes: renames and moves of same-named fields, unit changes,
 *     type changes a strategy bridges
 * @param possibleRenames renames shown commented out: the names are only partly alike, or one names
 *     a unit the other does not, or a field of the same name moved between two parents both
 *     versions have; their fields stay in {@code hubOnly} and {@code spokeOnly}
 * @param retyped paths present in both with a different shape that no rule bridges
 * @param hubOnly hub leaves with no counterpart in the spoke
 * @param spokeOnly spoke leaves with no counterpart in the hub
 */
public record SpokeSuggestion(
    String version,
    List<ProposedRule> rules,
    List<ProposedRule.Rename> possibleRenames,
    List<Retyped> retyped,
    List<String> hubOnly,
    List<String> spokeOnly) {
  public SpokeSuggestion {
    Objects.requireNonNull(version, "version");
    rules = List.copyOf(rules);
    possibleRenames = List.copyOf(possibleRenames);
    retyped = List.copyOf(retyped);
    hubOnly = List.copyOf(hubOnly);
    spokeOnly = List.copyOf(spokeOnly);
  }

  /** A path whose type or constraints differ between hub and spoke. */
  public record Retyped(String path, String hubShape, String spokeShape) {
    public Retyped {
      Objects.requireNonNull(path, "path");
    }
  }

  /** True when the spoke needs no rule at all. */
  public boolean identical() {
    return rules.isEmpty()
        && possibleRenames.isEmpty()
        && retyped.isEmpty()
        && hubOnly.isEmpty()
        && spokeOnly.isEmpty();
  }
}
