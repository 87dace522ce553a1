package dev.versio.engine.compile;

import dev.versio.engine.rule.Strategy;
import java.util.List;

/**
 * What the compiler concluded about one top-level rule.
 *
 * @param index the rule's index in its spoke
 * @param strategy the strategy
 * @param hubPaths the hub paths it claims
 * @param spokePaths the spoke paths it claims
 * @param lossless its per-direction verdict (acknowledgement does not change it)
 * @param acknowledged whether the rule set {@code acknowledgeLossy}
 * @param counterexamples for each lossy direction the engine found one for, a value that does not
 *     survive the round trip (hub->spoke first)
 */
public record RuleResult(
    int index,
    Strategy strategy,
    List<String> hubPaths,
    List<String> spokePaths,
    Verdict lossless,
    boolean acknowledged,
    List<Counterexample> counterexamples) {
  public RuleResult {
    hubPaths = List.copyOf(hubPaths);
    spokePaths = List.copyOf(spokePaths);
    counterexamples = List.copyOf(counterexamples);
  }
}
