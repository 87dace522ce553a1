package dev.versio.webhook.metrics;

import dev.versio.webhook.registry.RegistryEntry;
import dev.versio.webhook.review.ReviewOutcome;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
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
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The webhook server's metrics ({@code versio_webhook_*}) plus JVM and process metrics, exposed as
 * Prometheus text on the ops port.
 */
public final class WebhookMetrics {
  private final PrometheusMeterRegistry registry =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final AtomicInteger servable = new AtomicInteger();
  private final AtomicInteger failing = new AtomicInteger();
  private final AtomicInteger ready = new AtomicInteger();
  private final AtomicLong initialSyncMillis = new AtomicLong();
  private final AtomicInteger initialSyncTargets = new AtomicInteger();
  private final AtomicLong certificateNotAfter = new AtomicLong();

  /**
   * Whether review metrics also carry the {@code from} and {@code to} versions: off by default,
   * since they multiply the series of every target by its version pairs.
   */
  private final boolean versionLabels;

  private final VersionsSeen versionsSeen;

  /** Review metrics labelled by target and result only. */
  public WebhookMetrics() {
    this(false);
  }

  /**
   * @param versionLabels whether review metrics also carry {@code from} and {@code to}
   */
  public WebhookMetrics(boolean versionLabels) {
    this(versionLabels, java.time.Clock.systemUTC());
  }

  /**
   * @param versionLabels whether review metrics also carry {@code from} and {@code to}
   * @param clock what {@link #versionsSeen()} stamps reviews with
   */
  public WebhookMetrics(boolean versionLabels, java.time.Clock clock) {
    this.versionLabels = versionLabels;
    this.versionsSeen = new VersionsSeen(clock);
    new JvmMemoryMetrics().bindTo(registry);
    new JvmGcMetrics().bindTo(registry);
    new JvmThreadMetrics().bindTo(registry);
    new ClassLoaderMetrics().bindTo(registry);
    new ProcessorMetrics().bindTo(registry);
    new UptimeMetrics().bindTo(registry);
    Gauge.builder("versio.webhook.registry.entries", servable, AtomicInteger::get)
        .tag("state", "servable")
        .description("Targets this replica can convert")
        .register(registry);
    Gauge.builder("versio.webhook.registry.entries", failing, AtomicInteger::get)
        .tag("state", "error")
        .description("Targets whose last compile failed and that have no plan to serve")
        .register(registry);
    Gauge.builder("versio.webhook.ready", ready, AtomicInteger::get)
        .description("1 once the initial sync completed")
        .register(registry);
    Gauge.builder(
            "versio.webhook.initial.sync.duration.seconds",
            initialSyncMillis,
            v -> v.get() / 1000.0)
        .description("How long the initial sync took")
        .register(registry);
    Gauge.builder(
            "versio.webhook.tls.certificate.expiration.timestamp.seconds",
            certificateNotAfter,
            AtomicLong::get)
        .description(
            "When the serving certificate in use expires (Unix seconds; 0 before the first)")
        .register(registry);
    Gauge.builder("versio.webhook.initial.sync.targets", initialSyncTargets, AtomicInteger::get)
        .description("Targets compiled by the initial sync")
        .register(registry);
  }

  /**
   * Records one handled review: one latency histogram per target (plus per version pair when
   * version labels are on), requests by target and result, objects by target and result.
   */
  public void review(String target, ReviewOutcome outcome, long nanos) {
    versionsSeen.record(target, outcome.from(), outcome.to());
    var result = outcome.result().label();
    var timer =
        Timer.builder("versio.webhook.conversion.review.duration")
            .description("Time to handle one ConversionReview")
            .tag("target", target)
            .publishPercentileHistogram()
            .minimumExpectedValue(Duration.ofNanos(50_000))
            .maximumExpectedValue(Duration.ofSeconds(5));
    if (versionLabels) {
      timer.tags("from", versionOf(outcome.from()), "to", versionOf(outcome.to()));
    }
    timer.register(registry).record(Duration.ofNanos(nanos));
    Counter.builder("versio.webhook.conversion.review.requests")
        .description("ConversionReview requests by result")
        .tags("target", target, "result", result)
        .register(registry)
        .increment();
    if (outcome.objects() > 0) {
      var objects =
          Counter.builder("versio.webhook.conversion.objects")
              .description("Objects in ConversionReviews by result")
              .tags("target", target, "result", outcome.failure() == null ? "success" : "error");
      if (versionLabels) {
        objects.tags("from", versionOf(outcome.from()), "to", versionOf(outcome.to()));
      }
      objects.register(registry).increment(outcome.objects());
    }
  }

  /**
   * Counts a review by how it was answered: {@code local} (this replica held the target and the
   * review came straight from a client), {@code from_peer} (held here, passed on by another replica
   * behind the front) or {@code forwarded} (passed on to a replica that holds it).
   */
  public void routed(String route) {
    Counter.builder("versio.webhook.reviews.routed")
        .description(
            "Reviews by route: answered here (local, from_peer), forwarded, or handed_over (held"
                + " here, passed to the server the target moved to)")
        .tag("route", route)
        .register(registry)
        .increment();
  }

  /**
   * Records one forward: {@code result} is {@code answered} (a holder answered, whatever it
   * answered), {@code no_holder} (no live replica holds the target) or {@code failed} (none
   * answered within the budget); {@code nanos} is the time until the holder's answer arrived
   * (recorded for answered forwards only).
   */
  public void forwarded(String result, long nanos) {
    Counter.builder("versio.webhook.forwarded.reviews")
        .description("Reviews passed on to the replica that holds their target, by result")
        .tag("result", result)
        .register(registry)
        .increment();
    if (result.equals("answered")) {
      Timer.builder("versio.webhook.forward.duration")
          .description("Time from passing a review on to the holder's whole answer")
          .publishPercentileHistogram()
          .minimumExpectedValue(Duration.ofNanos(50_000))
          .maximumExpectedValue(Duration.ofSeconds(5))
          .register(registry)
          .record(Duration.ofNanos(nanos));
    }
  }

  /**
   * Counts a forward that asked a second holder because the first had not answered within {@code
   * --forward-hedge-after}: a peer that is frozen, starved or far behind.
   */
  public void hedged() {
    Counter.builder("versio.webhook.forward.hedges")
        .description(
            "Forwards that also asked a second holder because the first had not answered within"
                + " --forward-hedge-after")
        .register(registry)
        .increment();
  }

  private static String versionOf(String version) {
    return version == null ? "unknown" : version;
  }

  /** When reviews last touched each version of each target here (published in the Leases). */
  public VersionsSeen versionsSeen() {
    return versionsSeen;
  }

  /** Removes every series of {@code target}: it is no longer served here. */
  public void forgetTarget(String target) {
    versionsSeen.forget(target);
    for (var meter : List.copyOf(registry.getMeters())) {
      if (target.equals(meter.getId().getTag("target"))) {
        registry.remove(meter);
      }
    }
  }

  /** Records one review refused with 429 because the replica had its limit in flight. */
  public void overloaded() {
    Counter.builder("versio.webhook.overload.rejections")
        .description("Reviews refused with 429 because --max-in-flight reviews were in flight")
        .register(registry)
        .increment();
  }

  /** Reports the reviews in flight now (read, converted or written) as a gauge. */
  public void reviewsInFlight(java.util.function.IntSupplier inFlight) {
    // held strongly: a gauge keeps only a weak reference to its object by default, and the
    // supplier is a lambda nothing else holds, so it read NaN after the next collection
    io.micrometer.core.instrument.Gauge.builder(
            "versio.webhook.reviews.in.flight", inFlight, s -> s.getAsInt())
        .description("Reviews between their arrival and the end of their answer")
        .strongReference(true)
        .register(registry);
  }

  /** Records one unexpected error (a bug) with where it happened. */
  public void unexpected(String where) {
    Counter.builder("versio.webhook.unexpected.errors")
        .tag("where", where)
        .description("Unexpected errors: each one is also logged with the target and request UID")
        .register(registry)
        .increment();
  }

  /** Records one compile of a target's config. */
  public void compile(String target, String result, String reason, long nanos) {
    Timer.builder("versio.webhook.compile.duration")
        .tags("result", result)
        .register(registry)
        .record(Duration.ofNanos(nanos));
    if (reason != null) {
      Counter.builder("versio.webhook.compile.errors")
          .tags("target", target, "reason", reason)
          .description("Failed compiles by target and reason")
          .register(registry)
          .increment();
    }
  }

  /** The serving certificate now in use expires at {@code notAfter}. */
  public void certificateExpires(java.time.Instant notAfter) {
    certificateNotAfter.set(notAfter.getEpochSecond());
  }

  /** Records a TLS certificate reload attempt. */
  public void tlsReload(boolean ok) {
    Counter.builder("versio.webhook.tls.reloads")
        .tag("result", ok ? "success" : "error")
        .description("Serving certificate reloads")
        .register(registry)
        .increment();
  }

  /** Rebuilds the registry gauges from a snapshot. */
  public void registry(Map<String, RegistryEntry> snapshot) {
    versionsSeen.serving(snapshot.keySet());
    int ok = 0;
    int bad = 0;
    for (var e : snapshot.values()) {
      if (e.servable()) {
        ok++;
      } else {
        bad++;
      }
    }
    servable.set(ok);
    failing.set(bad);
  }

  /** Written once, right before the replica reports ready. */
  public void initialSync(int targets, Duration took) {
    versionsSeen.settle();
    initialSyncTargets.set(targets);
    initialSyncMillis.set(took.toMillis());
    ready.set(1);
  }

  /** The replica stops reporting ready (a graceful stop has begun). */
  public void notReady() {
    ready.set(0);
  }

  /** Prometheus text exposition. */
  public String scrape() {
    return registry.scrape();
  }
}
