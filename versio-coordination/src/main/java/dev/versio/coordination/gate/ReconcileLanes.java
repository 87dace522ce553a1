package dev.versio.coordination.gate;

import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Two lanes of keys to reconcile: live events first, always; takeover resync only when no live
 * event waits and the resync rate allows. A key queued twice in one lane is reconciled once; a key
 * that arrives live while waiting for resync leaves the resync lane. Not thread-safe: {@link
 * ReconcileQueue} wraps it.
 *
 * @param <K> the key type
 */
public final class ReconcileLanes<K> {
  private final LinkedHashSet<K> live = new LinkedHashSet<>();
  private final LinkedHashSet<K> resync = new LinkedHashSet<>();
  private final TokenBucket resyncRate;

  public ReconcileLanes(TokenBucket resyncRate) {
    this.resyncRate = Objects.requireNonNull(resyncRate, "resyncRate");
  }

  public void offerLive(K key) {
    resync.remove(key);
    live.add(key);
  }

  public void offerResync(K key) {
    if (!live.contains(key)) {
      resync.add(key);
    }
  }

  /** Removes queued keys that match (e.g. of shards just lost). */
  public void removeIf(Predicate<K> unwanted) {
    live.removeIf(unwanted);
    resync.removeIf(unwanted);
  }

  /** The next key, or empty when nothing may run now (see {@link #untilReady()}). */
  public Optional<K> poll() {
    if (!live.isEmpty()) {
      return Optional.of(take(live));
    }
    if (!resync.isEmpty() && resyncRate.tryTake()) {
      return Optional.of(take(resync));
    }
    return Optional.empty();
  }

  /** How long until {@link #poll()} can return something; empty if both lanes are empty. */
  public Optional<Duration> untilReady() {
    if (!live.isEmpty()) {
      return Optional.of(Duration.ZERO);
    }
    return resync.isEmpty() ? Optional.empty() : Optional.of(resyncRate.untilNext());
  }

  public int liveBacklog() {
    return live.size();
  }

  public int resyncBacklog() {
    return resync.size();
  }

  private static <K> K take(LinkedHashSet<K> lane) {
    var it = lane.iterator();
    var key = it.next();
    it.remove();
    return key;
  }
}
