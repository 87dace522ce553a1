package dev.versio.engine.compile;

import dev.versio.engine.diagnostic.Diagnostic;
import java.util.List;
import java.util.Optional;

/**
 * What analysis found for one spoke: verdict, coverage gaps, rules and diagnostics, and the plan
 * when the spoke has no errors.
 *
 * @param opaque the fields both versions leave opaque ({@code
 *     x-kubernetes-preserve-unknown-fields}): copied as they are, less what rules convert inside
 *     them, and beyond what the schema can verify; only samples show whether their content converts
 *     right
 */
public record SpokeReport(
    String version,
    Verdict lossless,
    List<String> uncoveredHub,
    List<String> uncoveredSpoke,
    List<RuleResult> ruleResults,
    List<Diagnostic> diagnostics,
    Optional<Plan> plan,
    List<String> opaque) {
  public SpokeReport {
    opaque = List.copyOf(opaque);
    uncoveredHub = List.copyOf(uncoveredHub);
    uncoveredSpoke = List.copyOf(uncoveredSpoke);
    ruleResults = List.copyOf(ruleResults);
    diagnostics = List.copyOf(diagnostics);
  }

  /** Whether the schemas can verify this spoke's verdict (no opaque field). */
  public boolean verifiable() {
    return opaque.isEmpty();
  }

  public boolean hasErrors() {
    return diagnostics.stream().anyMatch(Diagnostic::isError);
  }
}
