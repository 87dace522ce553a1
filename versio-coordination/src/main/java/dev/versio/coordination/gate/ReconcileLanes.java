package dev.versio.coordination.gate;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.LinkedHashMap;
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
  /** Which lane a key came from. */
  public enum Lane {
    LIVE,
    RESYNC
  }

  /** A key taken from a lane, and how long it waited there. */
  public record Polled<K>(K key, Lane lane, Duration waited) {}

  private final InstantSource clock;
  private final LinkedHashMap<K, Instant> live = new LinkedHashMap<>();
  private final LinkedHashMap<K, Instant> resync = new LinkedHashMap<>();
  private final TokenBucket resyncRate;

  public ReconcileLanes(InstantSource clock, TokenBucket resyncRate) {
    this.clock = Objects.requireNonNull(clock, "clock");
    this.resyncRate = Objects.requireNonNull(resyncRate, "resyncRate");
  }

  public void offerLive(K key) {
    resync.remove(key);
    live.putIfAbsent(key, clock.instant());
  }

  public void offerResync(K key) {
    if (!live.containsKey(key)) {
      resync.putIfAbsent(key, clock.instant());
    }
  }

  /** Removes queued keys that match (e.g. of shards just lost). */
  public void removeIf(Predicate<K> unwanted) {
    live.keySet().removeIf(unwanted);
    resync.keySet().removeIf(unwanted);
  }

  /** The next key, or empty when nothing may run now (see {@link #untilReady()}). */
  public Optional<Polled<K>> poll() {
    if (!live.isEmpty()) {
      return Optional.of(take(live, Lane.LIVE));
    }
    if (!resync.isEmpty() && resyncRate.tryTake()) {
      return Optional.of(take(resync, Lane.RESYNC));
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

  public int resyncBacklog() {
    return resync.size();
  }

  /** Keys queued in either lane. */
  public int backlog() {
    return live.size() + resync.size();
  }

  private Polled<K> take(LinkedHashMap<K, Instant> lane, Lane which) {
    var it = lane.entrySet().iterator();
    var first = it.next();
    it.remove();
    return new Polled<>(first.getKey(), which, Duration.between(first.getValue(), clock.instant()));
  }
}
