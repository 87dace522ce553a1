package dev.versio.coordination.core;

import dev.versio.coordination.shard.RendezvousAssignment;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Decides, from what this replica has observed, which Lease writes move the group towards "every
 * shard held by its rendezvous owner among the live members that agree on the sharding".
 *
 * <p>A shard is taken only when its Lease is free, names a holder incarnation that no longer exists
 * (re-registered, fenced or deleted long enough ago), or names this replica. A live holder is never
 * overtaken: it releases the shard itself once it sees the new member. A holder whose member Lease
 * has not changed for a whole lease duration is first fenced with a compare-and-swap on that member
 * Lease; a renewal racing with the fence fails one of the two, so a slow but alive holder and a new
 * owner can never both believe they hold the shard.
 */
public final class OwnershipPlanner {
  /** A fenced member's Lease is deleted this many lease durations after the fence. */
  public static final int FORGET_AFTER_LEASES = 4;

  private final CoordinationSettings settings;

  public OwnershipPlanner(CoordinationSettings settings) {
    this.settings = Objects.requireNonNull(settings, "settings");
  }

  /**
   * What to write next.
   *
   * @param self this replica's own member record (as last written)
   * @param ownership this replica's ownership state
   * @param members liveness as observed locally (including this replica's Lease)
   * @param shards every shard Lease of the group, by shard number (also numbers beyond this
   *     replica's shard count, written by members with another one); missing shards have none
   */
  public Plan plan(
      MemberRecord self,
      ReplicaOwnership ownership,
      MemberObservations members,
      Map<Integer, ShardLease> shards) {
    var live = new LinkedHashMap<String, MemberRecord>();
    for (var m : members.liveMembers()) {
      live.put(m.id(), m);
    }
    boolean selfActive = ownership.permitted();
    if (selfActive) {
      live.put(self.id(), self);
    } else {
      live.remove(self.id());
    }
    var reference =
        live.values().stream()
            .min(Comparator.comparing(MemberRecord::created).thenComparing(MemberRecord::id));
    Optional<String> refusal =
        reference
            .filter(r -> selfActive && !self.agreesWith(r.shardCount(), r.hashVersion()))
            .map(r -> refusal(self, r));
    var agreeing = new TreeSet<String>();
    reference.ifPresent(
        r ->
            live.values().stream()
                .filter(m -> m.agreesWith(r.shardCount(), r.hashVersion()))
                .forEach(m -> agreeing.add(m.id())));
    if (refusal.isPresent()) {
      agreeing.remove(self.id());
    }

    var assignment = RendezvousAssignment.assign(agreeing, settings.shardCount());
    var desired = new TreeSet<Integer>();
    assignment.forEach(
        (shard, owner) -> {
          if (selfActive && owner.equals(self.id())) {
            desired.add(shard);
          }
        });

    // while a live member with another shard count or hash still holds shard Leases, the same
    // objects may sit under other shard numbers there: take nothing until it has let go
    boolean otherShardingHolds =
        shards.values().stream()
            .anyMatch(
                l ->
                    !l.free()
                        && live.containsKey(l.holder())
                        && live.get(l.holder()).incarnation().equals(l.incarnation())
                        && !live.get(l.holder()).agreesWith(self.shardCount(), self.hashVersion()));

    var actions = new ArrayList<LeaseAction>();
    for (var lease : shards.values()) {
      // past the deadline a replica writes nothing, not even releases: it re-acquires its own
      // shards once a renewal succeeds, or others fence it after a lease duration
      if (selfActive
          && !desired.contains(lease.shard())
          && lease.heldBy(self.id(), self.incarnation())) {
        actions.add(new LeaseAction.Release(lease));
      }
    }
    var fenced = new TreeSet<String>();
    var unowned = new TreeSet<Integer>();
    for (int shard = 0; shard < settings.shardCount(); shard++) {
      var lease = shards.getOrDefault(shard, ShardLease.absent(shard));
      boolean holderLive =
          !lease.free()
              && live.containsKey(lease.holder())
              && live.get(lease.holder()).incarnation().equals(lease.incarnation());
      if (!holderLive) {
        unowned.add(shard);
      }
      if (!desired.contains(shard) || ownership.owned().containsKey(shard)) {
        continue;
      }
      switch (takeover(self, lease, members)) {
        case TAKE -> {
          if (!otherShardingHolds) {
            actions.add(new LeaseAction.Acquire(lease));
          }
        }
        case FENCE_FIRST -> {
          var holder = members.record(lease.holder()).orElseThrow();
          if (fenced.add(holder.id())) {
            actions.add(new LeaseAction.Fence(holder));
          }
        }
        case WAIT -> {}
      }
    }
    // garbage: a member this replica fenced, silent since, and named by no shard Lease any more
    if (selfActive) {
      var named = new TreeSet<String>();
      shards.values().forEach(l -> named.add(l.holder() + "/" + l.incarnation()));
      var forgetAfter = settings.leaseDuration().multipliedBy(FORGET_AFTER_LEASES);
      for (var id : members.fencedIds()) {
        var record = members.record(id).orElseThrow();
        if (record.fencedBy().equals(self.id())
            && !named.contains(record.id() + "/" + record.incarnation())
            && members.fencedFor(id, forgetAfter)) {
          actions.add(new LeaseAction.Forget(record));
        }
      }
    }
    return new Plan(actions, desired, refusal, unowned, agreeing.size());
  }

  private enum Takeover {
    TAKE,
    FENCE_FIRST,
    WAIT
  }

  private Takeover takeover(MemberRecord self, ShardLease lease, MemberObservations members) {
    if (!lease.exists() || lease.free() || lease.holder().equals(self.id())) {
      return Takeover.TAKE;
    }
    var holder = members.record(lease.holder());
    if (holder.isEmpty()) {
      return members.recentlyGone(lease.holder())
              || !members.missingFor(lease.holder(), settings.leaseDuration())
          ? Takeover.WAIT
          : Takeover.TAKE;
    }
    var record = holder.get();
    if (record.fenced()) {
      return Takeover.TAKE;
    }
    if (!record.incarnation().isEmpty() && !record.incarnation().equals(lease.incarnation())) {
      return Takeover.TAKE; // the holder re-registered: the incarnation that took it is gone
    }
    return members.expired(record.id()) ? Takeover.FENCE_FIRST : Takeover.WAIT;
  }

  private static String refusal(MemberRecord self, MemberRecord reference) {
    return "member "
        + reference.id()
        + " (the oldest) shards with "
        + reference.shardCount()
        + " shards and hash "
        + reference.hashVersion()
        + ", this replica with "
        + self.shardCount()
        + " shards and hash "
        + self.hashVersion()
        + ": it takes no shards until every replica runs with the same --shards";
  }

  /**
   * The outcome of one planning round.
   *
   * @param actions Lease writes to make, releases first
   * @param desired shards this replica should hold
   * @param refusal why this replica takes no shards, if it disagrees with the group
   * @param unowned shards with no live holder right now (as this replica sees them)
   * @param agreeingMembers live members that agree on the sharding (including this one)
   */
  public record Plan(
      List<LeaseAction> actions,
      Set<Integer> desired,
      Optional<String> refusal,
      Set<Integer> unowned,
      int agreeingMembers) {
    public Plan {
      actions = List.copyOf(actions);
      desired = Set.copyOf(desired);
      unowned = Set.copyOf(unowned);
      Objects.requireNonNull(refusal, "refusal");
    }
  }
}
