package dev.versio.operator.config;

import com.fasterxml.jackson.databind.JsonNode;
import dev.versio.api.config.ConversionConfigSpec;
import dev.versio.api.config.ConversionConfigStatus;
import dev.versio.api.served.VersionUse;
import dev.versio.operator.lifecycle.RetirementCondition;
import dev.versio.operator.lifecycle.VersionLifecycle;
import dev.versio.operator.status.Conditions;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.Optional;
import java.util.function.Function;

/**
 * Folds into a config's status which versions of its target can be retired now (the {@code
 * RetirementReady} condition), from the target as this reconcile found it (an XRD's versions with
 * the {@code storedVersions} of the CRDs Crossplane generated from it) and what the serving webhook
 * replicas report of reviews per version.
 */
public final class RetirementStep {
  private final Function<String, Optional<VersionUse>> use;

  /**
   * @param use per target, what its serving replicas report of reviews per version
   */
  public RetirementStep(Function<String, Optional<VersionUse>> use) {
    this.use = use;
  }

  /**
   * Sets or removes the condition in {@code next}.
   *
   * @param target the target's versions as a CRD states them ({@code spec.versions[].{name, served,
   *     storage, deprecated}}, {@code status.storedVersions}), or null when this reconcile found
   *     none
   * @return when to look again because the condition may change by time alone
   */
  Optional<Duration> fold(
      ConversionConfigSpec spec,
      ConversionConfigStatus next,
      JsonNode target,
      long generation,
      Instant now) {
    if (spec == null || target == null || spec.hubVersion == null) {
      Conditions.remove(next.conditions, Conditions.RETIREMENT_READY);
      return Optional.empty();
    }
    var converted = new HashSet<String>();
    converted.add(spec.hubVersion);
    spec.spokes.forEach(spoke -> converted.add(spoke.version));
    var lifecycle =
        VersionLifecycle.of(target, converted, use.apply(spec.targetName()).orElse(null), now);
    var result = RetirementCondition.of(lifecycle, now);
    if (result.isEmpty()) {
      Conditions.remove(next.conditions, Conditions.RETIREMENT_READY);
      return Optional.empty();
    }
    var check = result.get().check();
    Conditions.set(
        next.conditions,
        Conditions.RETIREMENT_READY,
        check.ok(),
        check.reason(),
        check.message(),
        generation,
        now);
    return result.get().recheckIn();
  }
}
