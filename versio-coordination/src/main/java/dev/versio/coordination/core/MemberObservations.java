package dev.versio.coordination.core;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Judges member liveness from renewals observed on the local clock, the way client-go does: a
 * member is live while less than its lease duration has passed since this replica last saw its
 * Lease change. The remote {@code renewTime} is never compared with the local clock, so replica
 * clocks may be offset arbitrarily; only their rates matter.
 *
 * <p>A member whose Lease disappears is remembered as "gone" for one lease duration from when the
 * disappearance was seen: it may still have been writing just before.
 */
public final class MemberObservations {
  private record Seen(MemberRecord record, Instant changedAt) {}

  private final InstantSource clock;
  private final Map<String, Seen> seen = new HashMap<>();
  private final Map<String, Seen> gone = new HashMap<>();
  private final Map<String, Instant> missingSince = new HashMap<>();

  public MemberObservations(InstantSource clock) {
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** Records the current member Leases (all of them: absent ones are treated as deleted). */
  public void observe(Collection<MemberRecord> members) {
    var now = clock.instant();
    var present = new HashSet<String>();
    for (var member : members) {
      present.add(member.id());
      var before = seen.get(member.id());
      if (before == null || !before.record().version().equals(member.version())) {
        seen.put(member.id(), new Seen(member, now));
        gone.remove(member.id());
        missingSince.remove(member.id());
      }
    }
    for (var it = seen.entrySet().iterator(); it.hasNext(); ) {
      var entry = it.next();
      if (!present.contains(entry.getKey())) {
        gone.put(entry.getKey(), new Seen(entry.getValue().record(), now));
        it.remove();
      }
    }
    gone.values().removeIf(g -> !now.isBefore(g.changedAt().plus(g.record().leaseDuration())));
  }

  /** The member's current record, if its Lease exists. */
  public Optional<MemberRecord> record(String id) {
    return Optional.ofNullable(seen.get(id)).map(Seen::record);
  }

  /** Live: the Lease exists, is not fenced, and changed less than its duration ago. */
  public boolean live(String id) {
    var s = seen.get(id);
    return s != null && !s.record().fenced() && !expired(s);
  }

  /** Expired: the Lease exists, is not fenced, but has not changed for its whole duration. */
  public boolean expired(String id) {
    var s = seen.get(id);
    return s != null && !s.record().fenced() && expired(s);
  }

  /** The member's Lease is fenced and has not changed for at least {@code bound}. */
  public boolean fencedFor(String id, Duration bound) {
    var s = seen.get(id);
    return s != null && s.record().fenced() && !clock.instant().isBefore(s.changedAt().plus(bound));
  }

  /** The Lease disappeared less than its duration ago: its holder may still be finishing writes. */
  public boolean recentlyGone(String id) {
    return gone.containsKey(id);
  }

  /**
   * Whether a holder named by a shard Lease has had no member Lease for at least {@code bound},
   * counted from when this replica first noticed (it may have been deleted just before we looked).
   */
  public boolean missingFor(String id, Duration bound) {
    if (seen.containsKey(id) || gone.containsKey(id)) {
      return false;
    }
    var now = clock.instant();
    var since = missingSince.computeIfAbsent(id, k -> now);
    return !now.isBefore(since.plus(bound));
  }

  /** Ids of members whose Lease is fenced. */
  public java.util.List<String> fencedIds() {
    return seen.values().stream()
        .filter(s -> s.record().fenced())
        .map(s -> s.record().id())
        .sorted()
        .toList();
  }

  /** Every live member. */
  public Collection<MemberRecord> liveMembers() {
    return seen.values().stream()
        .filter(s -> !s.record().fenced() && !expired(s))
        .map(Seen::record)
        .toList();
  }

  /** How long until the next live member (other than {@code self}) would expire unless renewed. */
  public Optional<Duration> untilNextExpiry(String self) {
    var now = clock.instant();
    var candidates = new HashMap<String, Seen>(gone);
    seen.forEach(
        (id, s) -> {
          if (!s.record().fenced() && !expired(s)) {
            candidates.put(id, s);
          }
        });
    candidates.remove(self);
    return candidates.values().stream()
        .map(s -> Duration.between(now, s.changedAt().plus(s.record().leaseDuration())))
        .map(d -> d.isNegative() ? Duration.ZERO : d)
        .min(Duration::compareTo);
  }

  private boolean expired(Seen s) {
    return !clock.instant().isBefore(s.changedAt().plus(s.record().leaseDuration()));
  }
}
