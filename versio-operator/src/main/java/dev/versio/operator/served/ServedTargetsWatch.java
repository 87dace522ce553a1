package dev.versio.operator.served;

import dev.versio.api.served.ServedTargetsAggregator;
import dev.versio.api.served.ServedView;
import dev.versio.operator.cluster.ClusterCache;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Keeps one {@link ServedView} per server current from the served-target Lease informer, and
 * triggers a server's reconcile only when its view changes: a heartbeat that changes nothing, or a
 * Lease of another server, triggers nothing. A sweep notices replicas that stopped renewing.
 */
public final class ServedTargetsWatch {
  private static final Duration SWEEP = Duration.ofSeconds(1);

  private final ServedTargetsAggregator aggregator;
  private final Consumer<Collection<String>> trigger;
  private final Map<String, ServedView> views = new ConcurrentHashMap<>();
  private final Map<String, List<String>> live = new ConcurrentHashMap<>();

  /**
   * @param trigger asked to reconcile the named servers
   */
  public ServedTargetsWatch(
      ServedTargetsAggregator aggregator, Consumer<Collection<String>> trigger) {
    this.aggregator = aggregator;
    this.trigger = trigger;
  }

  /** Follows the cache's served-target Leases and sweeps for expired replicas. */
  public void register(ClusterCache cache, ScheduledExecutorService scheduler) {
    cache.onServedTargetsLease(
        (old, now, deleted) -> {
          var server = deleted ? aggregator.forget(now) : aggregator.observe(now);
          if (server != null) {
            recheck(server);
          }
        });
    scheduler.scheduleWithFixedDelay(
        this::sweep, SWEEP.toMillis(), SWEEP.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** What the live replicas of {@code server} serve now. */
  public ServedView view(String server) {
    return views.computeIfAbsent(server, aggregator::view);
  }

  private void recheck(String server) {
    live.put(server, aggregator.liveReplicas(server));
    var next = aggregator.view(server);
    var previous = views.put(server, next);
    if (!next.equals(previous)) {
      trigger.accept(List.of(server));
    }
  }

  /** A replica that stopped renewing leaves the view when its lease runs out. */
  private void sweep() {
    for (var server : aggregator.servers()) {
      if (!aggregator.liveReplicas(server).equals(live.get(server))) {
        recheck(server);
      }
    }
    // servers whose last Lease went: their views are empty now
    for (var server : List.copyOf(views.keySet())) {
      if (!aggregator.servers().contains(server) && !views.get(server).equals(ServedView.NONE)) {
        recheck(server);
      }
    }
  }
}
