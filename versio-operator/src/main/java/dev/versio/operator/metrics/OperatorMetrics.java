package dev.versio.operator.metrics;

import dev.versio.operator.status.Phase;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * The operator's own metrics ({@code versio_operator_*}); JOSDK's reconcile metrics and JVM metrics
 * go to the same registry, exposed as Prometheus text on the ops port.
 *
 * <p>Among them, {@code versio_operator_writes_total{kind, result}} counts every write request the
 * operator sends to the apiserver (all of them go through {@code ClusterWriter}): {@code
 * kind="status"} a status replace of a config or server, {@code kind="apply"} a server-side apply
 * (or revert) of a target's {@code spec.conversion}, or the JSON patch that finishes a revert when
 * another field manager keeps the webhook, {@code kind="event"} a Kubernetes Event; {@code result}
 * is {@code success} or {@code error}. Writes per reconcile and per config follow from it and
 * JOSDK's {@code operator_sdk_reconciliations_*} counters.
 */
public final class OperatorMetrics {
  /** The {@code kind} label values of {@code versio_operator_writes_total}. */
  public static final List<String> WRITE_KINDS =
      List.of("status", "apply", "event", "child", "finalizer");

  private final PrometheusMeterRegistry registry =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final AtomicInteger xrdApi = new AtomicInteger();
  private final AtomicInteger ready = new AtomicInteger();
  private final Map<String, Counter> writes = new HashMap<>();

  public OperatorMetrics() {
    new JvmMemoryMetrics().bindTo(registry);
    new JvmGcMetrics().bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    new ClassLoaderMetrics().bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
    new UptimeMetrics().bindTo(registry);
    Gauge.builder("versio.operator.xrd.api.available", xrdApi, AtomicInteger::get)
        .description(
            "1 when Crossplane's XRD API is installed and watched; XRD configs wait otherwise")
        .register(registry);
    Gauge.builder("versio.operator.ready", ready, AtomicInteger::get)
        .description("1 once caches are synced and admission serves")
        .register(registry);
    for (var kind : WRITE_KINDS) {
      for (var result : List.of("success", "error")) {
        writes.put(
            kind + "/" + result,
            Counter.builder("versio.operator.writes")
                .description(
                    "Write requests to the apiserver: status replaces, server-side applies, Events")
                .tag("kind", kind)
                .tag("result", result)
                .register(registry));
      }
    }
  }

  /**
   * Registers {@code versio_operator_configs{config_kind, phase}}: how many configs of each kind
   * are in each phase now, read from the cache at every scrape (a config not reconciled yet counts
   * as {@code Pending}). Every replica reports it, so alerts take the max over replicas.
   *
   * @param phases per config kind, the phase text of every config (null = none yet)
   */
  public void configPhases(Map<String, Supplier<List<String>>> phases) {
    for (var kind : phases.entrySet()) {
      for (var phase : Phase.values()) {
        Gauge.builder(
                "versio.operator.configs",
                kind.getValue(),
                all ->
                    all.get().stream()
                        .filter(
                            text ->
                                phase.text().equals(text)
                                    || (text == null && phase == Phase.PENDING))
                        .count())
            .description("Configs in each phase, from this replica's cache")
            .tag("config_kind", kind.getKey())
            .tag("phase", phase.text())
            // held strongly: the suppliers are lambdas nothing else references, and a weakly held
            // one reads NaN after the next collection
            .strongReference(true)
            .register(registry);
      }
    }
  }

  /** One write request sent ({@code kind}: status, apply, event, or child: a server's children). */
  public void write(String kind, boolean success) {
    var counter = writes.get(kind + "/" + (success ? "success" : "error"));
    if (counter == null) {
      throw new IllegalArgumentException("unknown write kind " + kind);
    }
    counter.increment();
  }

  public MeterRegistry registry() {
    return registry;
  }

  /** The Prometheus text exposition. */
  public String scrape() {
    return registry.scrape();
  }

  /**
   * A config failed to parse or analyse ({@code reason}: InvalidConfig, AnalyzeFailed,
   * ValidationErrors).
   */
  public void analyzeFailure(String kind, String target, String reason) {
    Counter.builder("versio.operator.analyze.failures")
        .description("Configs whose rules did not parse or whose analysis found errors")
        .tag("config_kind", kind)
        .tag("target", target)
        .tag("reason", reason)
        .register(registry)
        .increment();
  }

  /** One server-side apply (or revert) of {@code spec.conversion}. */
  public void applyDuration(String kind, String target, boolean success, Duration took) {
    Timer.builder("versio.operator.apply.duration")
        .description("Server-side apply of a target's spec.conversion")
        .tag("config_kind", kind)
        .tag("target", target)
        .tag("result", success ? "success" : "error")
        .serviceLevelObjectives(
            Duration.ofMillis(5),
            Duration.ofMillis(10),
            Duration.ofMillis(25),
            Duration.ofMillis(50),
            Duration.ofMillis(100),
            Duration.ofMillis(250),
            Duration.ofMillis(500),
            Duration.ofSeconds(1),
            Duration.ofMillis(2500),
            Duration.ofSeconds(5))
        .register(registry)
        .record(took);
  }

  /** A config changed phase; an empty {@code from} is "None". */
  public void phaseTransition(String kind, String target, String from, String to, String reason) {
    Counter.builder("versio.operator.phase.transitions")
        .description("Phase changes of configs")
        .tag("config_kind", kind)
        .tag("target", target)
        .tag("from_phase", from == null ? "None" : from)
        .tag("to_phase", to)
        .tag("reason", reason)
        .register(registry)
        .increment();
  }

  /**
   * {@code versio_operator_storage_migration_objects_total{target, outcome}}: objects a storage
   * migration handled, by outcome ({@code rewritten}, {@code written_meanwhile}, {@code
   * deleted_meanwhile}, {@code failed}).
   */
  public void storageMigrationObjects(String target, String outcome, long count) {
    if (count == 0) {
      return;
    }
    Counter.builder("versio.operator.storage.migration.objects")
        .description("Objects a storage migration handled, by outcome")
        .tag("target", target)
        .tag("outcome", outcome)
        .register(registry)
        .increment(count);
  }

  /** A watch mapping could not list what it maps to; the event is dropped until the next resync. */
  public void watchMapListError(String mapFunc) {
    Counter.builder("versio.operator.watch.map.list.errors")
        .description("Watch mappings whose list failed (events lost until the periodic resync)")
        .tag("map_func", mapFunc)
        .register(registry)
        .increment();
  }

  public void xrdApiAvailable(boolean available) {
    xrdApi.set(available ? 1 : 0);
  }

  public void ready(boolean isReady) {
    ready.set(isReady ? 1 : 0);
  }
}
