package dev.versio.webhook.forward;

import dev.versio.api.served.ServedTargetsAggregator;
import dev.versio.api.served.ServedTargetsAggregator.Peer;
import dev.versio.api.served.ServedTargetsCodec;
import dev.versio.api.served.ServedView;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which live replica holds which target, from the served-target Leases of every replica in this
 * replica's namespace: where a review for a target this replica does not hold is sent, and whether
 * the server a target has moved to serves it yet. A snapshot is rebuilt (off the event loops) after
 * every Lease change and every {@link #REFRESH} for liveness, so a forward only reads a map.
 */
public final class PeerRoutes implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(PeerRoutes.class);

  /** How often liveness is judged again without any Lease change. */
  static final Duration REFRESH = Duration.ofSeconds(1);

  private final ServedTargetsAggregator aggregator;
  private final String self;
  private final ScheduledExecutorService executor;
  private final AtomicBoolean rebuildQueued = new AtomicBoolean();
  private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
  private volatile Map<String, List<Peer>> holders = Map.of();
  private SharedIndexInformer<Lease> informer;

  /**
   * @param self this replica as {@code namespace/pod}: never a route to itself
   */
  public PeerRoutes(Clock clock, String self) {
    this.aggregator = new ServedTargetsAggregator(clock);
    this.self = Objects.requireNonNull(self, "self");
    this.executor =
        Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().name("peer-routes").daemon().factory());
  }

  /** Starts watching the served-target Leases of {@code namespace}. */
  public void start(KubernetesClient client, String namespace) {
    informer =
        client
            .leases()
            .inNamespace(namespace)
            .withLabel(ServedTargetsCodec.SERVER_LABEL)
            .inform(
                new ResourceEventHandler<>() {
                  @Override
                  public void onAdd(Lease lease) {
                    observe(lease);
                  }

                  @Override
                  public void onUpdate(Lease before, Lease lease) {
                    observe(lease);
                  }

                  @Override
                  public void onDelete(Lease lease, boolean unknownFinalState) {
                    forget(lease);
                  }
                },
                0);
    executor.scheduleWithFixedDelay(
        this::rebuild, REFRESH.toMillis(), REFRESH.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** A Lease was seen (package-private for tests that feed Leases directly). */
  void observe(Lease lease) {
    aggregator.observe(lease);
    queueRebuild();
  }

  void forget(Lease lease) {
    aggregator.forget(lease);
    queueRebuild();
  }

  private void queueRebuild() {
    if (rebuildQueued.compareAndSet(false, true)) {
      executor.execute(
          () -> {
            rebuildQueued.set(false);
            rebuild();
          });
    }
  }

  /** Rebuilds the snapshot now and tells the listeners (package-private for tests). */
  void rebuild() {
    try {
      holders = aggregator.holders();
      // every rebuild, not only when the holders changed: what a release waits for (a view of the
      // destination) may change with liveness alone
      listeners.forEach(Runnable::run);
    } catch (RuntimeException e) {
      LOG.warn("cannot rebuild the routes to peer replicas: {}", e.toString());
    }
  }

  /** Called (on the routes' thread) after every rebuild: a Lease changed, or a second passed. */
  public void onChange(Runnable listener) {
    listeners.add(listener);
  }

  /** The live replicas other than this one that hold {@code target}, sorted by replica. */
  public List<Peer> holders(String target) {
    var all = holders.get(target);
    if (all == null) {
      return List.of();
    }
    return all.stream().filter(p -> !p.replica().equals(self)).toList();
  }

  /** What the live replicas of {@code server} serve now (any replica, addressed or not). */
  public ServedView view(String server) {
    return aggregator.view(server);
  }

  @Override
  public void close() {
    if (informer != null) {
      informer.close();
    }
    executor.shutdownNow();
  }
}
