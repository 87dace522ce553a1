package dev.versio.operator.ha;

import dev.versio.coordination.gate.OwnershipListener;
import dev.versio.coordination.gate.ReconcileLanes;
import dev.versio.coordination.gate.ReconcileQueue;
import dev.versio.coordination.gate.ShardGate;
import dev.versio.coordination.gate.TokenBucket;
import dev.versio.coordination.shard.ObjectKey;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The takeover resync of one replica: when it gains shards, the configs and servers of those shards
 * (from the informer caches) whose spec changed since their status was last written ({@code
 * metadata.generation} above {@code status.observedGeneration}: a change the previous owner did not
 * act on) are reconciled at once, as live work; the others go to a low-priority lane, drained on
 * its own thread at {@code ratePerSecond} (for all kinds together) and only while no live event
 * waits. Each key drained is handed to its controller's trigger, and its reconcile finds out
 * whether anything needs writing (nothing, after a clean hand-over: 0 writes). Queued keys of
 * shards lost again are dropped.
 */
public final class TakeoverLane implements OwnershipListener, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(TakeoverLane.class);
  private static final Duration POLL = Duration.ofMillis(100);

  /** One object to resync: its kind (as registered) and name. */
  record Key(String kind, String name) {}

  /**
   * What the lane needs of one kind: the names in the cache, which of them have a change not yet
   * reconciled, and how to reconcile one.
   */
  public record Source(
      Supplier<List<String>> names,
      java.util.function.Predicate<String> changed,
      Consumer<String> trigger) {}

  private final ShardGate gate;
  private final LiveEventWaits live;
  private final ReconcileQueue<Key> queue;
  private final Map<String, Source> sources = new LinkedHashMap<>();
  private final AtomicLong resynced = new AtomicLong();
  private final Thread thread;
  private volatile boolean running = true;

  public TakeoverLane(
      ShardGate gate,
      LiveEventWaits live,
      InstantSource clock,
      double ratePerSecond,
      BiConsumer<ReconcileLanes.Lane, Duration> waited) {
    this.gate = Objects.requireNonNull(gate, "gate");
    this.live = Objects.requireNonNull(live, "live");
    this.queue =
        new ReconcileQueue<>(
            new ReconcileLanes<>(clock, new TokenBucket(clock, ratePerSecond)), waited);
    this.thread = Thread.ofPlatform().name("versio-takeover-resync").daemon().unstarted(this::run);
  }

  /** Registers a kind; call before {@link #start()}. */
  public void add(String kind, Source source) {
    sources.put(kind, source);
  }

  public void start() {
    thread.start();
  }

  /** Objects waiting in the resync lane now. */
  public int backlog() {
    return queue.resyncBacklog();
  }

  /** Objects handed to their controller by the resync lane since start. */
  public long resynced() {
    return resynced.get();
  }

  @Override
  public void gained(Map<Integer, Long> epochs) {
    resync(epochs, "gained");
  }

  /** Writes were refused for a while (a late renewal): events of that gap were filtered out. */
  @Override
  public void resumed(Map<Integer, Long> epochs) {
    resync(epochs, "write permission back for");
  }

  private void resync(Map<Integer, Long> epochs, String why) {
    var keys = new ArrayList<Key>();
    int changed = 0;
    for (var entry : sources.entrySet()) {
      var kind = entry.getKey();
      var source = entry.getValue();
      for (var name : source.names().get()) {
        if (!epochs.containsKey(gate.shardOf(ObjectKey.clusterScoped(name)))) {
          continue;
        }
        if (source.changed().test(name)) {
          changed++;
          live.arrived(kind, name);
          source.trigger().accept(name);
        } else {
          keys.add(new Key(kind, name));
        }
      }
    }
    queue.offerResync(keys);
    LOG.info(
        "{} {} shard(s): {} object(s) with an unreconciled change reconciled at once, {} queued"
            + " for the paced takeover resync",
        why,
        epochs.size(),
        changed,
        keys.size());
  }

  @Override
  public void lost(Set<Integer> shards) {
    queue.removeIf(key -> shards.contains(gate.shardOf(ObjectKey.clusterScoped(key.name()))));
  }

  private void run() {
    while (running) {
      try {
        if (live.anyWaiting()) {
          Thread.sleep(POLL.toMillis() / 10); // live events first: look again shortly
          continue;
        }
        var next = queue.take(POLL);
        if (next.isEmpty()) {
          continue;
        }
        var key = next.get();
        if (gate.owns(ObjectKey.clusterScoped(key.name()))) {
          LOG.debug("takeover resync of {} {}", key.kind(), key.name());
          resynced.incrementAndGet();
          sources.get(key.kind()).trigger().accept(key.name());
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } catch (RuntimeException e) {
        LOG.warn("takeover resync: {}", e.toString());
      }
    }
  }

  @Override
  public void close() {
    running = false;
    thread.interrupt();
  }
}
