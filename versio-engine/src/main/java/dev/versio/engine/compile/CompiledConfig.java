package dev.versio.engine.compile;

import dev.versio.engine.diagnostic.Diagnostic;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A config that compiled without errors: one {@link Plan} per spoke.
 *
 * @param target what the config converts (for messages)
 * @param hubVersion the hub
 * @param plans the plan of every spoke, by version
 * @param warnings findings that did not prevent compilation
 */
public record CompiledConfig(
    String target, String hubVersion, Map<String, Plan> plans, List<Diagnostic> warnings) {
  public CompiledConfig {
    Objects.requireNonNull(hubVersion, "hubVersion");
    plans = Map.copyOf(plans);
    warnings = List.copyOf(warnings);
  }

  /** Whether every spoke converts without loss in both directions. */
  public boolean lossless() {
    return plans.values().stream().allMatch(p -> p.verdict().lossless());
  }
}
