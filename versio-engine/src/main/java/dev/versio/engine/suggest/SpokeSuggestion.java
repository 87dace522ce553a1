package dev.versio.engine.suggest;

import java.util.List;
import java.util.Objects;

/**
 * What differs between the hub and one spoke, as candidates for the author to review.
 *
 * @param version the spoke version
 * @param renames hub/spoke leaf pairs of the same shape that look moved or renamed
 * @param retyped paths present in both with a different shape
 * @param hubOnly hub leaves with no counterpart in the spoke
 * @param spokeOnly spoke leaves with no counterpart in the hub
 */
public record SpokeSuggestion(
    String version,
    List<Rename> renames,
    List<Retyped> retyped,
    List<String> hubOnly,
    List<String> spokeOnly) {
  public SpokeSuggestion {
    Objects.requireNonNull(version, "version");
    renames = List.copyOf(renames);
    retyped = List.copyOf(retyped);
    hubOnly = List.copyOf(hubOnly);
    spokeOnly = List.copyOf(spokeOnly);
  }

  /** A candidate fieldRename and why it was proposed. */
  public record Rename(String hubPath, String spokePath, String reason) {
    public Rename {
      Objects.requireNonNull(hubPath, "hubPath");
      Objects.requireNonNull(spokePath, "spokePath");
      Objects.requireNonNull(reason, "reason");
    }
  }

  /** A path whose type or constraints differ between hub and spoke. */
  public record Retyped(String path, String hubShape, String spokeShape) {
    public Retyped {
      Objects.requireNonNull(path, "path");
    }
  }

  /** True when the spoke needs no rule at all. */
  public boolean identical() {
    return renames.isEmpty() && retyped.isEmpty() && hubOnly.isEmpty() && spokeOnly.isEmpty();
  }
}
