package dev.versio.engine.compile;

import dev.versio.engine.diagnostic.Diagnostic;
import java.util.List;
import java.util.Optional;

/**
 * What analysis found for one spoke: verdict, coverage gaps, rules and diagnostics, and the plan
 * when the spoke has no errors.
 */
public record SpokeReport(
    String version,
    Verdict lossless,
    List<String> uncoveredHub,
    List<String> uncoveredSpoke,
    List<RuleResult> ruleResults,
    List<Diagnostic> diagnostics,
    Optional<Plan> plan) {
  public SpokeReport {
    uncoveredHub = List.copyOf(uncoveredHub);
    uncoveredSpoke = List.copyOf(uncoveredSpoke);
    ruleResults = List.copyOf(ruleResults);
    diagnostics = List.copyOf(diagnostics);
  }

  public boolean hasErrors() {
    return diagnostics.stream().anyMatch(Diagnostic::isError);
  }
}
