package dev.versio.coordination.core;

import java.time.Instant;
import java.time.InstantSource;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The ownership state machine of one replica: which shards it holds at which epoch, and until when
 * it may write for them.
 *
 * <p>Every successful renewal of the member Lease that started at {@code t} permits writes until
 * {@code t + renewDeadline}. Past that instant {@link #mayWrite} answers "no" for every shard even
 * if nobody has called {@link #enforceDeadline()} yet, so a stuck renew loop can never extend the
 * permission. Not thread-safe: the lease loop owns it; readers go through a published snapshot.
 */
public final class ReplicaOwnership {
  private final CoordinationSettings settings;
  private final InstantSource clock;
  private final String id;
  private String incarnation;
  private Instant permittedUntil = Instant.MIN;
  private final TreeMap<Integer, Long> owned = new TreeMap<>();
  private boolean resumed;

  public ReplicaOwnership(
      CoordinationSettings settings, InstantSource clock, String id, String incarnation) {
    this.settings = Objects.requireNonNull(settings, "settings");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.id = Objects.requireNonNull(id, "id");
    this.incarnation = Objects.requireNonNull(incarnation, "incarnation");
  }

  public String id() {
    return id;
  }

  public String incarnation() {
    return incarnation;
  }

  /**
   * A renewal (or the registration) that started at {@code startedAt} was confirmed.
   *
   * <p>If it was confirmed only after the deadline had passed, while shards were still held (the
   * lease loop had not enforced the deadline yet), writes were refused for a while although the
   * shards never changed hands: events seen then were dropped. {@link #takeResumed()} reports that
   * once, so the objects of the held shards can be resynced.
   */
  public void renewed(Instant startedAt) {
    boolean lapsed = !owned.isEmpty() && !permitted();
    var until = startedAt.plus(settings.renewDeadline());
    if (until.isAfter(permittedUntil)) {
      permittedUntil = until;
    }
    if (lapsed && permitted()) {
      resumed = true;
    }
  }

  /**
   * Whether writes were refused for a while since the last call although every shard stayed held
   * (see {@link #renewed}); clears the report.
   */
  public boolean takeResumed() {
    boolean was = resumed && !owned.isEmpty();
    resumed = false;
    return was;
  }

  /** Until when writes are permitted (the must-stop deadline). */
  public Instant permittedUntil() {
    return permittedUntil;
  }

  public boolean permitted() {
    return clock.instant().isBefore(permittedUntil);
  }

  /**
   * Drops every shard once the deadline has passed ("cannot confirm in time" is loss).
   *
   * @return the shards lost now
   */
  public Set<Integer> enforceDeadline() {
    if (permitted() || owned.isEmpty()) {
      return Set.of();
    }
    return dropAll();
  }

  /**
   * This incarnation was fenced or its Lease deleted: drop everything and continue as {@code next}.
   *
   * @return the shards lost
   */
  public Set<Integer> reincarnate(String next) {
    this.incarnation = Objects.requireNonNull(next, "next");
    this.permittedUntil = Instant.MIN;
    return dropAll();
  }

  /** The shard was acquired with a compare-and-swap that set {@code epoch}. */
  public void acquired(int shard, long epoch) {
    if (!permitted()) {
      throw new IllegalStateException("cannot hold shard " + shard + " past the renew deadline");
    }
    owned.put(shard, epoch);
  }

  /** The replica stops writing for {@code shard} (before the release is written). */
  public boolean drop(int shard) {
    return owned.remove(shard) != null;
  }

  /** Epoch of {@code shard} if this replica may write for it now. */
  public OptionalLong mayWrite(int shard) {
    return view().epochAt(shard, clock.instant());
  }

  /** An immutable copy for readers on other threads. */
  public OwnershipView view() {
    return new OwnershipView(owned, permittedUntil);
  }

  /** Shards held, with their epochs (whether or not the deadline has passed). */
  public Map<Integer, Long> owned() {
    return Collections.unmodifiableMap(owned);
  }

  private Set<Integer> dropAll() {
    resumed = false;
    var lost = new TreeSet<>(owned.keySet());
    owned.clear();
    return lost;
  }
}
