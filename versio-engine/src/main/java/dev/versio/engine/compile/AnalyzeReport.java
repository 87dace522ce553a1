package dev.versio.engine.compile;

import dev.versio.engine.diagnostic.Diagnostic;
import java.util.ArrayList;
import java.util.List;

/**
 * The full analysis of a config against a target: config-wide findings plus one report per spoke.
 * Unlike {@link Compiler#compile}, it is returned even when there are errors.
 */
public record AnalyzeReport(
    String target,
    String hubVersion,
    List<Diagnostic> configDiagnostics,
    List<SpokeReport> spokes) {
  public AnalyzeReport {
    configDiagnostics = List.copyOf(configDiagnostics);
    spokes = List.copyOf(spokes);
  }

  /** Every diagnostic: config-wide first, then per spoke in spoke order. */
  public List<Diagnostic> diagnostics() {
    var all = new ArrayList<>(configDiagnostics);
    spokes.forEach(s -> all.addAll(s.diagnostics()));
    return List.copyOf(all);
  }

  public boolean hasErrors() {
    return diagnostics().stream().anyMatch(Diagnostic::isError);
  }

  /** True only when every spoke is lossless in both directions. */
  public boolean overallLossless() {
    return !spokes.isEmpty() && spokes.stream().allMatch(s -> s.lossless().lossless());
  }
}
