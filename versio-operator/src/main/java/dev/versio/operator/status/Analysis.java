package dev.versio.operator.status;

import dev.versio.api.config.ConversionConfigStatus.SpokeStatus;
import java.util.List;
import java.util.Objects;

/**
 * The analysis of a config against its target's live schema, as the status shows it.
 *
 * @param spokes one entry per spoke, always the last analysis (also when it failed)
 * @param overallLossless every spoke lossless in both directions
 * @param schemaHash hash of the inputs of the plan (config spec and target versions)
 * @param errors every error, one line each
 * @param warnings every warning, one line each
 */
public record Analysis(
    List<SpokeStatus> spokes,
    boolean overallLossless,
    String schemaHash,
    List<String> errors,
    List<String> warnings) {
  public Analysis {
    spokes = List.copyOf(spokes);
    Objects.requireNonNull(schemaHash, "schemaHash");
    errors = List.copyOf(errors);
    warnings = List.copyOf(warnings);
  }

  public boolean hasErrors() {
    return !errors.isEmpty();
  }
}
