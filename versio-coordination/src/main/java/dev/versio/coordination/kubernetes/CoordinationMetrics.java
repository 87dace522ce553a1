package dev.versio.coordination.kubernetes;

import dev.versio.coordination.gate.ReconcileLanes;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/** The coordination metrics of one replica (prefix {@code versio_coordination_}). */
public final class CoordinationMetrics {
  private final MeterRegistry registry;
  private final AtomicInteger shardsOwned = new AtomicInteger();
  private final AtomicInteger members = new AtomicInteger();
  private final AtomicInteger shardsUnowned = new AtomicInteger();
  private final AtomicInteger shardsUnownedBeyondBound = new AtomicInteger();
  private final AtomicInteger configMismatch = new AtomicInteger();
  private final Counter unownedSeconds;
  private final Timer renew;

  public CoordinationMetrics(MeterRegistry registry) {
    this.registry = registry;
    registry.gauge("versio.coordination.shards.owned", shardsOwned);
    registry.gauge("versio.coordination.members", members);
    registry.gauge("versio.coordination.shards.unowned", shardsUnowned);
    registry.gauge("versio.coordination.shards.unowned.beyond.bound", shardsUnownedBeyondBound);
    registry.gauge("versio.coordination.config.mismatch", configMismatch);
    unownedSeconds =
        Counter.builder("versio.coordination.shard.unowned.seconds")
            .description("seconds during which at least one shard had no live holder")
            .register(registry);
    renew =
        Timer.builder("versio.coordination.renew.duration")
            .description("latency of member Lease renewals")
            .publishPercentiles(0.5, 0.99)
            .publishPercentileHistogram()
            .register(registry);
  }

  /**
   * Records how long a key waited in a {@code ReconcileQueue} lane ({@code
   * versio_coordination_queue_wait_seconds{lane="live"|"resync"}}); pass it to the queue.
   */
  public void queueWait(ReconcileLanes.Lane lane, Duration waited) {
    Timer.builder("versio.coordination.queue.wait")
        .description("time a key waited in the reconcile queue, by lane")
        .tag("lane", lane.name().toLowerCase(java.util.Locale.ROOT))
        .publishPercentiles(0.5, 0.99)
        .publishPercentileHistogram()
        .register(registry)
        .record(waited);
  }

  /**
   * Registers the resync backlog of a consumer's queue. The gauge holds {@code backlog} strongly: a
   * method reference passed here is referenced by nothing else, and a weakly held one would read
   * NaN after the next collection.
   */
  public void resyncBacklog(Supplier<Number> backlog) {
    Gauge.builder("versio.coordination.resync.backlog", backlog, s -> s.get().doubleValue())
        .description("keys waiting in the takeover resync lane")
        .strongReference(true)
        .register(registry);
  }

  void leaseWrite(String kind, String outcome) {
    registry
        .counter("versio.coordination.lease.writes", "kind", kind, "outcome", outcome)
        .increment();
  }

  void renewed(Duration latency) {
    renew.record(latency);
  }

  void state(int owned, int seen, int unowned, int beyondBound, boolean mismatch) {
    shardsOwned.set(owned);
    members.set(seen);
    shardsUnowned.set(unowned);
    shardsUnownedBeyondBound.set(beyondBound);
    configMismatch.set(mismatch ? 1 : 0);
  }

  void unownedFor(Duration elapsed) {
    unownedSeconds.increment(elapsed.toNanos() / 1e9);
  }
}
