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
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The takeover resync of one replica. When it gains shards, the configs and servers of those shards
 * (from the informer caches) are re-checked: first those whose spec changed since their status was
 * last written ({@code metadata.generation} above {@code status.observedGeneration}: a change the
 * previous owner did not act on), then the others through a lane paced at {@code ratePerSecond}
 * (for all kinds together). Each key is handed to its controller's trigger, and its reconcile finds
 * out whether anything needs writing (nothing, after a clean hand-over: 0 writes).
 *
 * <p>Live events go first: the lane hands nothing over while a live event waits for its reconcile,
 * and keeps at most {@code maxInFlight} of its own reconciles queued or running in the controllers
 * (fewer than their threads), so a live event never queues behind a takeover backlog — it waits at
 * most for reconciles already running. Queued keys of shards lost again are dropped.
 *
 * <p>The periodic self-check of every owned object ({@code --resync-interval}) takes the same lane,
 * so that it never arrives as one burst of reconciles in front of live events.
 */
public final class TakeoverLane implements OwnershipListener, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(TakeoverLane.class);
  private static final Duration POLL = Duration.ofMillis(100);

  /**
   * A key handed over whose reconcile has not finished after this long (JOSDK dropped the event,
   * e.g. for an object deleted meanwhile) no longer takes a slot.
   */
  static final Duration IN_FLIGHT_LIMIT = Duration.ofSeconds(10);

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
  private final InstantSource clock;
  private final ReconcileQueue<Key> queue;
  private final Semaphore slots;
  private final Map<Key, java.time.Instant> inFlight = new ConcurrentHashMap<>();

  /**
   * Keys offered again while their reconcile was in flight: that reconcile may have read the state
   * from before the reason they were offered, so each is queued once more when it finishes.
   */
  private final Set<Key> again = ConcurrentHashMap.newKeySet();

  private final Map<String, Source> sources = new LinkedHashMap<>();
  private final AtomicLong resynced = new AtomicLong();
  private final Duration selfCheckInterval;
  private java.time.Instant nextSelfCheck;
  private final Thread thread;
  private volatile boolean running = true;

  /**
   * @param maxInFlight how many of the lane's reconciles may be queued or running at once; keep it
   *     below the controllers' reconcile threads where there are several
   * @param selfCheckInterval how often every owned object is queued for a re-check
   */
  public TakeoverLane(
      ShardGate gate,
      LiveEventWaits live,
      InstantSource clock,
      double ratePerSecond,
      int maxInFlight,
      Duration selfCheckInterval,
      BiConsumer<ReconcileLanes.Lane, Duration> waited) {
    if (maxInFlight < 1) {
      throw new IllegalArgumentException("maxInFlight must be at least 1, got " + maxInFlight);
    }
    this.gate = Objects.requireNonNull(gate, "gate");
    this.live = Objects.requireNonNull(live, "live");
    this.clock = Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(waited, "waited");
    // changed objects take the queue's unpaced lane, the others its paced one; both are takeover
    // work, so their waits are reported as the resync lane's (the live lane's are live events')
    this.queue =
        new ReconcileQueue<>(
            new ReconcileLanes<>(clock, new TokenBucket(clock, ratePerSecond)),
            (lane, wait) -> waited.accept(ReconcileLanes.Lane.RESYNC, wait));
    this.slots = new Semaphore(maxInFlight);
    this.selfCheckInterval = Objects.requireNonNull(selfCheckInterval, "selfCheckInterval");
    if (selfCheckInterval.isNegative() || selfCheckInterval.isZero()) {
      throw new IllegalArgumentException(
          "selfCheckInterval must be positive: " + selfCheckInterval);
    }
    this.thread = Thread.ofPlatform().name("versio-takeover-resync").daemon().unstarted(this::run);
    live.onFinished(this::finished);
  }

  /** Registers a kind; call before {@link #start()}. */
  public void add(String kind, Source source) {
    sources.put(kind, source);
  }

  public void start() {
    thread.start();
  }

  /** Objects waiting in the lane now (changed ones and paced ones). */
  public int backlog() {
    return queue.backlog();
  }

  /** Objects handed to their controller by the lane since start. */
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

  /**
   * Queues {@code name} of {@code kind} ahead of the paced lane, e.g. a config a server change fans
   * out to: it is handed over behind live events, with the lane's bound on reconciles in flight, so
   * that a fan-out to many configs never lands in front of live events at once.
   */
  public void offer(String kind, String name) {
    if (gate.owns(ObjectKey.clusterScoped(name))) {
      queue.offerLive(new Key(kind, name));
    }
  }

  /** Queues every object this replica owns now for a re-check (the periodic self-check). */
  void selfCheck() {
    var queued = queue(name -> gate.owns(ObjectKey.clusterScoped(name)));
    LOG.debug(
        "periodic self-check: {} owned object(s) with an unreconciled change first, {} paced",
        queued.changed(),
        queued.paced());
  }

  private void resync(Map<Integer, Long> epochs, String why) {
    var queued = queue(name -> epochs.containsKey(gate.shardOf(ObjectKey.clusterScoped(name))));
    LOG.info(
        "{} {} shard(s): {} object(s) with an unreconciled change go first, {} queued for the paced"
            + " takeover resync",
        why,
        epochs.size(),
        queued.changed(),
        queued.paced());
  }

  private record Queued(int changed, int paced) {}

  /**
   * Queues the cached objects {@code included} selects: those with an unreconciled change ahead,
   * the others in the paced lane.
   */
  private Queued queue(java.util.function.Predicate<String> included) {
    var paced = new ArrayList<Key>();
    int changed = 0;
    for (var entry : sources.entrySet()) {
      var source = entry.getValue();
      for (var name : source.names().get()) {
        if (!included.test(name)) {
          continue;
        }
        if (source.changed().test(name)) {
          changed++;
          queue.offerLive(new Key(entry.getKey(), name));
        } else {
          paced.add(new Key(entry.getKey(), name));
        }
      }
    }
    queue.offerResync(paced);
    return new Queued(changed, paced.size());
  }

  @Override
  public void lost(Set<Integer> shards) {
    queue.removeIf(key -> shards.contains(gate.shardOf(ObjectKey.clusterScoped(key.name()))));
    again.removeIf(key -> shards.contains(gate.shardOf(ObjectKey.clusterScoped(key.name()))));
  }

  /** A reconcile of {@code kind}/{@code name} finished: frees its slot if the lane started it. */
  void finished(String kind, String name) {
    var key = new Key(kind, name);
    if (inFlight.remove(key) != null) {
      slots.release();
    }
    if (again.remove(key)) {
      queue.offerLive(key);
    }
  }

  private void run() {
    nextSelfCheck = clock.instant().plus(selfCheckInterval);
    while (running) {
      try {
        if (!clock.instant().isBefore(nextSelfCheck)) {
          selfCheck();
          nextSelfCheck = clock.instant().plus(selfCheckInterval);
        }
        if (live.anyWaiting()) {
          Thread.sleep(POLL.toMillis() / 10); // live events first: look again shortly
          continue;
        }
        if (!slots.tryAcquire(POLL.toMillis(), TimeUnit.MILLISECONDS)) {
          expireStale();
          continue;
        }
        var key = queue.take(POLL);
        if (key.isEmpty() || !gate.owns(ObjectKey.clusterScoped(key.get().name()))) {
          slots.release(); // nothing to do
          continue;
        }
        if (inFlight.putIfAbsent(key.get(), clock.instant()) != null) {
          again.add(key.get()); // being reconciled: look again once that reconcile is done
          slots.release();
          continue;
        }
        LOG.debug("takeover resync of {} {}", key.get().kind(), key.get().name());
        resynced.incrementAndGet();
        sources.get(key.get().kind()).trigger().accept(key.get().name());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } catch (RuntimeException e) {
        LOG.warn("takeover resync: {}", e.toString());
      }
    }
  }

  private void expireStale() {
    var now = clock.instant();
    for (var entry : inFlight.entrySet()) {
      if (Duration.between(entry.getValue(), now).compareTo(IN_FLIGHT_LIMIT) > 0
          && inFlight.remove(entry.getKey(), entry.getValue())) {
        slots.release();
        if (again.remove(entry.getKey())) {
          queue.offerLive(entry.getKey());
        }
      }
    }
  }

  @Override
  public void close() {
    running = false;
    thread.interrupt();
  }
}
