package dev.versio.operator.ha;

import dev.versio.coordination.gate.ReconcileLanes;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiConsumer;

/**
 * Live events of owned objects between their arrival and the start of their reconcile: how long
 * each waited ({@code versio_coordination_queue_wait_seconds{lane="live"}}), and whether any is
 * waiting now — the takeover resync only runs when none is. An entry older than {@link #STALE} (an
 * event JOSDK dropped, e.g. for an object deleted meanwhile) no longer holds the resync back.
 */
public final class LiveEventWaits {
  static final Duration STALE = Duration.ofSeconds(30);

  /** Waits longer than this are logged, with the object, so that they can be explained. */
  static final Duration SLOW = Duration.ofMillis(500);

  private static final org.slf4j.Logger LOG =
      org.slf4j.LoggerFactory.getLogger(LiveEventWaits.class);

  private final InstantSource clock;
  private final BiConsumer<ReconcileLanes.Lane, Duration> waited;
  private final Map<String, Instant> arrived = new ConcurrentHashMap<>();
  private final List<BiConsumer<String, String>> finishedListeners = new CopyOnWriteArrayList<>();

  public LiveEventWaits(InstantSource clock, BiConsumer<ReconcileLanes.Lane, Duration> waited) {
    this.clock = clock;
    this.waited = waited;
  }

  /** A live event for {@code kind}/{@code name} passed the filters (the earliest one counts). */
  public void arrived(String kind, String name) {
    arrived.putIfAbsent(kind + "/" + name, clock.instant());
  }

  /** A reconcile of {@code kind}/{@code name} starts: reports how long its live event waited. */
  public void started(String kind, String name) {
    var since = arrived.remove(kind + "/" + name);
    if (since != null) {
      var wait = Duration.between(since, clock.instant());
      waited.accept(ReconcileLanes.Lane.LIVE, wait);
      if (wait.compareTo(SLOW) > 0) {
        LOG.info(
            "a live event of {} {} waited {} ms for its reconcile", kind, name, wait.toMillis());
      }
    }
  }

  /** Tells {@code listener} about every reconcile that {@link #finished}. */
  public void onFinished(BiConsumer<String, String> listener) {
    finishedListeners.add(listener);
  }

  /** A reconcile of {@code kind}/{@code name} returned (or threw). */
  public void finished(String kind, String name) {
    for (var listener : finishedListeners) {
      listener.accept(kind, name);
    }
  }

  /** Whether a live event is waiting for its reconcile now. */
  public boolean anyWaiting() {
    var now = clock.instant();
    arrived.values().removeIf(since -> Duration.between(since, now).compareTo(STALE) > 0);
    return !arrived.isEmpty();
  }
}
