package dev.versio.webhook.sync;

import dev.versio.api.assign.Assignment;
import dev.versio.api.assign.AssignmentResolver;
import dev.versio.api.config.ConversionConfigSpec;
import dev.versio.webhook.metrics.WebhookMetrics;
import dev.versio.webhook.registry.Registry;
import dev.versio.webhook.registry.RegistryEntry;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.time.Clock;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decides what one replica should hold for one config: nothing when the config is gone or the
 * shared resolver assigns its target to another server; otherwise the config compiled against the
 * live target definition — or the previous result, untouched, when neither the config's nor the
 * target's generation changed since. A config that does not compile yields an entry with the error
 * that keeps any working plan of its target (it serves stale) — unless its {@code driftPolicy} is
 * {@code FailClosed}: then the entry has no plan, and every conversion of the target is answered
 * with a Failure naming the error until the config compiles again.
 */
final class ConfigCompilation {
  private static final Logger LOG = LoggerFactory.getLogger(ConfigCompilation.class);

  private final SyncInformers cluster;
  private final String serverName;
  private final Registry registry;
  private final WebhookMetrics metrics;
  private final Clock clock;
  private final TargetCompiler compiler = new TargetCompiler();

  ConfigCompilation(
      SyncInformers cluster,
      String serverName,
      Registry registry,
      WebhookMetrics metrics,
      Clock clock) {
    this.cluster = cluster;
    this.serverName = serverName;
    this.registry = registry;
    this.metrics = metrics;
    this.clock = clock;
  }

  /** The server the shared resolver assigns {@code key}'s target to now, if the config exists. */
  Optional<String> assignedServer(ConfigKey key) {
    var config = cluster.config(key);
    var spec = targetingSpec(config);
    return spec != null && assignment(spec) instanceof Assignment.Assigned assigned
        ? Optional.of(assigned.server())
        : Optional.empty();
  }

  /** The spec of a config that exists, is not being deleted and names a target; else null. */
  private static ConversionConfigSpec targetingSpec(HasMetadata config) {
    if (config == null || config.getMetadata().getDeletionTimestamp() != null) {
      return null;
    }
    var spec = SyncInformers.specOf(config);
    return spec == null || spec.targetName() == null ? null : spec;
  }

  private Assignment assignment(ConversionConfigSpec spec) {
    return AssignmentResolver.resolve(
        spec.webhookServerRef == null ? null : spec.webhookServerRef.name,
        spec.targetName(),
        cluster.serverViews());
  }

  /**
   * What this replica should hold for {@code key}; {@code previous} (what it was compiled to last)
   * is returned as it is when nothing it was compiled from has changed.
   */
  Optional<RegistryEntry> entryFor(ConfigKey key, Optional<RegistryEntry> previous) {
    var config = cluster.config(key);
    var spec = targetingSpec(config);
    if (spec == null) {
      return Optional.empty();
    }
    var target = spec.targetName();
    boolean failClosed = "FailClosed".equals(spec.driftPolicy);
    if (!assignment(spec).isTo(serverName)) {
      return Optional.empty();
    }
    long started = System.nanoTime();
    var live = cluster.definition(target, key.xrd());
    // the plan depends on the config's spec and the target's schema: both generations name it
    var planHash =
        "gen="
            + (live == null ? "none" : live.getMetadata().getGeneration())
            + "/"
            + config.getMetadata().getGeneration();
    if (previous.isPresent()
        && previous.get().target().equals(target)
        && previous.get().servable()
        && previous.get().lastError() == null
        && planHash.equals(previous.get().planHash())) {
      return previous; // nothing it was compiled from has changed: no recompile
    }
    if (live == null) {
      var reason = key.xrd() ? "XRDNotFound" : "CRDNotFound";
      metrics.compile(target, "error", reason, System.nanoTime() - started);
      return Optional.of(
          failed(
              target,
              key,
              failClosed,
              (key.xrd() ? "XRD " : "CRD ")
                  + target
                  + " not found"
                  + (key.xrd() && !cluster.watchingXrds()
                      ? " (the Crossplane XRD API is not installed)"
                      : "")));
    }
    var outcome = compiler.compile(spec, Serialization.asJson(live), key.xrd());
    return switch (outcome) {
      case TargetCompiler.Outcome.Compiled c -> {
        metrics.compile(target, "success", null, System.nanoTime() - started);
        yield Optional.of(
            new RegistryEntry(
                target,
                Optional.of(c.router()),
                key.toString(),
                planHash,
                clock.instant(),
                null,
                null));
      }
      case TargetCompiler.Outcome.Failed f -> {
        metrics.compile(target, "error", f.reason(), System.nanoTime() - started);
        LOG.warn(
            "{} for target {} does not compile ({}): {}; {}",
            key,
            target,
            f.reason(),
            f.message(),
            failClosed
                ? "driftPolicy FailClosed: its conversions fail until it compiles"
                : "keeping any previous plan");
        yield Optional.of(failed(target, key, failClosed, f.message()));
      }
    };
  }

  /**
   * An entry carrying {@code message}, with the target's working plan if it has one and the config
   * does not fail closed.
   */
  private RegistryEntry failed(String target, ConfigKey key, boolean failClosed, String message) {
    if (failClosed) {
      return new RegistryEntry(
          target,
          Optional.empty(),
          key.toString(),
          null,
          null,
          message + " (driftPolicy FailClosed: no conversion of " + target + " until it is fixed)",
          clock.instant());
    }
    return registry
        .get(target)
        .map(
            p ->
                new RegistryEntry(
                    target,
                    p.router(),
                    key.toString(),
                    p.planHash(),
                    p.compiledAt(),
                    message,
                    clock.instant()))
        .orElseGet(
            () ->
                new RegistryEntry(
                    target,
                    Optional.empty(),
                    key.toString(),
                    null,
                    null,
                    message,
                    clock.instant()));
  }
}
