package dev.versio.coordination.core;

import static dev.versio.coordination.core.Members.member;
import static org.assertj.core.api.Assertions.assertThat;

import dev.versio.coordination.shard.RendezvousAssignment;
import dev.versio.coordination.shard.ShardFunction;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class OwnershipPlannerTest {
  private static final int SHARDS = 8;
  private final ManualClock clock = new ManualClock();
  private final CoordinationSettings settings =
      new CoordinationSettings(
          "test",
          SHARDS,
          Duration.ofSeconds(15),
          Duration.ofSeconds(5),
          Duration.ofSeconds(10),
          Duration.ofSeconds(1),
          "1.0.0");
  private final OwnershipPlanner planner = new OwnershipPlanner(settings);
  private final MemberObservations observations = new MemberObservations(clock);
  private final MemberRecord self = member("a", "1");
  private final ReplicaOwnership ownership = new ReplicaOwnership(settings, clock, "a", "inc-a");

  @Test
  void aLoneReplicaTakesEveryFreeShard() {
    ownership.renewed(clock.instant());
    observations.observe(List.of(self));
    var plan = planner.plan(self, ownership, observations, Map.of());
    assertThat(plan.desired()).hasSize(SHARDS);
    assertThat(plan.actions()).hasSize(SHARDS).allMatch(a -> a instanceof LeaseAction.Acquire);
    assertThat(plan.unowned()).hasSize(SHARDS);
  }

  @Test
  void aReplicaPastItsDeadlineTakesNothingAndWritesNothing() {
    observations.observe(List.of(self));
    var plan =
        planner.plan(
            self, ownership, observations, Map.of(0, new ShardLease(0, "a", "inc-a", 2, "v0")));
    assertThat(plan.actions()).isEmpty();
    assertThat(plan.desired()).isEmpty();
  }

  @Test
  void aLiveHolderIsNeverOvertakenItReleasesTheShardsTheNewcomerWins() {
    var b = member("b", "1");
    ownership.renewed(clock.instant());
    observations.observe(List.of(self, b));
    var assignment = RendezvousAssignment.assign(List.of("a", "b"), SHARDS);
    // a holds everything from before b arrived
    var leases = new TreeMap<Integer, ShardLease>();
    for (int s = 0; s < SHARDS; s++) {
      leases.put(s, new ShardLease(s, "a", "inc-a", 1, "v" + s));
      ownership.acquired(s, 1);
    }
    var planOfA = planner.plan(self, ownership, observations, leases);
    assertThat(planOfA.actions())
        .allMatch(x -> x instanceof LeaseAction.Release)
        .extracting(x -> ((LeaseAction.Release) x).lease().shard())
        .containsExactlyInAnyOrderElementsOf(
            assignment.entrySet().stream()
                .filter(e -> e.getValue().equals("b"))
                .map(Map.Entry::getKey)
                .toList());

    var ownershipOfB = new ReplicaOwnership(settings, clock, "b", "inc-b");
    ownershipOfB.renewed(clock.instant());
    var planOfB = planner.plan(b, ownershipOfB, observations, leases);
    assertThat(planOfB.actions()).as("b waits while a is live and still holds them").isEmpty();
  }

  @Test
  void anExpiredHolderIsFencedFirstAndItsShardsTakenOnceTheFenceIsSeen() {
    var b = member("b", "1");
    var leases = new TreeMap<Integer, ShardLease>();
    for (int s = 0; s < SHARDS; s++) {
      leases.put(s, new ShardLease(s, "b", "inc-b", 3, "v" + s));
    }
    observations.observe(List.of(self, b));
    clock.advanceSeconds(15);
    ownership.renewed(clock.instant());
    observations.observe(List.of(member("a", "2"), b));

    var plan = planner.plan(self, ownership, observations, leases);
    assertThat(plan.actions()).containsExactly(new LeaseAction.Fence(b));
    assertThat(plan.unowned()).hasSize(SHARDS);

    observations.observe(List.of(member("a", "2"), Members.fenced(b, "a", "2")));
    var after = planner.plan(self, ownership, observations, leases);
    assertThat(after.actions()).hasSize(SHARDS).allMatch(x -> x instanceof LeaseAction.Acquire);
  }

  @Test
  void aHolderThatSilentlyStopsIsNotFencedBeforeItsLeaseDurationHasPassedHere() {
    var b = member("b", "1");
    var leases = Map.of(0, new ShardLease(0, "b", "inc-b", 3, "v0"));
    observations.observe(List.of(self, b));
    clock.advanceSeconds(14.99);
    ownership.renewed(clock.instant());
    observations.observe(List.of(member("a", "2"), b));
    assertThat(planner.plan(self, ownership, observations, leases).actions())
        .noneMatch(x -> x instanceof LeaseAction.Fence);
  }

  @Test
  void aShardHeldByAnOldIncarnationOfALiveMemberIsTakenAtOnce() {
    var b = member("b", "inc-b-2", "1", 64, Instant.parse("2026-01-01T00:00:00Z"));
    ownership.renewed(clock.instant());
    observations.observe(List.of(self));
    var mine = RendezvousAssignment.assign(List.of("a"), SHARDS);
    assertThat(mine).isNotEmpty();
    var leases = Map.of(0, new ShardLease(0, "b", "inc-b-1", 3, "v0"));
    observations.observe(List.of(self, Members.fenced(b, "x", "5")));
    var plan = planner.plan(self, ownership, observations, leases);
    assertThat(plan.actions()).contains(new LeaseAction.Acquire(leases.get(0)));
  }

  @Test
  void aHolderWhoseLeaseVanishedIsWaitedForOneLeaseDuration() {
    ownership.renewed(clock.instant());
    observations.observe(List.of(self));
    var leases = Map.of(0, new ShardLease(0, "gone", "inc-g", 3, "v0"));
    assertThat(planner.plan(self, ownership, observations, leases).actions())
        .doesNotContain(new LeaseAction.Acquire(leases.get(0)));
    clock.advanceSeconds(15);
    ownership.renewed(clock.instant());
    observations.observe(List.of(member("a", "2")));
    assertThat(planner.plan(member("a", "2"), ownership, observations, leases).actions())
        .contains(new LeaseAction.Acquire(leases.get(0)));
  }

  @Test
  void theLeaseOfAMemberThisReplicaFencedIsDeletedOnceSilentAndNoLongerNamedByAnyShard() {
    var b = Members.fenced(member("b", "1"), "a", "2");
    ownership.renewed(clock.instant());
    observations.observe(List.of(self, b));
    var held = Map.of(0, new ShardLease(0, "b", "inc-b", 3, "v0"));
    var free = Map.of(0, new ShardLease(0, "a", "inc-a", 4, "v1"));
    clock.advanceSeconds(15 * OwnershipPlanner.FORGET_AFTER_LEASES - 1);
    ownership.renewed(clock.instant());
    observations.observe(List.of(member("a", "2"), b));
    assertThat(planner.plan(self, ownership, observations, free).actions())
        .noneMatch(x -> x instanceof LeaseAction.Forget);
    clock.advanceSeconds(1);
    ownership.renewed(clock.instant());
    assertThat(planner.plan(self, ownership, observations, held).actions())
        .as("still named by shard 0")
        .noneMatch(x -> x instanceof LeaseAction.Forget);
    assertThat(planner.plan(self, ownership, observations, free).actions())
        .contains(new LeaseAction.Forget(b));
    var other = Members.fenced(member("c", "1"), "someone-else", "2");
    observations.observe(List.of(member("a", "3"), b, other));
    clock.advanceSeconds(60);
    ownership.renewed(clock.instant());
    assertThat(planner.plan(self, ownership, observations, free).actions())
        .as("only the fencer cleans up")
        .doesNotContain(new LeaseAction.Forget(other));
  }

  @Test
  void nothingIsTakenWhileALiveMemberWithAnotherShardCountStillHoldsShards() {
    var old = member("old", "inc-old", "1", 32, Instant.parse("2026-01-01T00:00:00Z"));
    ownership.renewed(clock.instant());
    observations.observe(List.of(self, old));
    // "old" is no longer the reference (self is older) but still holds shard 20 of its numbering
    var selfOlder = member("a", "inc-a", "1", SHARDS, Instant.parse("2025-01-01T00:00:00Z"));
    var leases = Map.of(20, new ShardLease(20, "old", "inc-old", 2, "v20"));
    var plan = planner.plan(selfOlder, ownership, observations, leases);
    assertThat(plan.desired()).hasSize(SHARDS);
    assertThat(plan.actions()).noneMatch(x -> x instanceof LeaseAction.Acquire);
    var released = Map.of(20, new ShardLease(20, "", "", 2, "v21"));
    assertThat(planner.plan(selfOlder, ownership, observations, released).actions())
        .hasSize(SHARDS)
        .allMatch(x -> x instanceof LeaseAction.Acquire);
  }

  @Test
  void aHolderWhoseIncarnationCannotBeReadIsFencedBeforeItsShardsAreTaken() {
    var unreadable = member("b", "", "1", SHARDS, Instant.parse("2026-01-01T00:00:00Z"));
    var leases = Map.of(0, new ShardLease(0, "b", "inc-b", 3, "v0"));
    observations.observe(List.of(self, unreadable));
    ownership.renewed(clock.instant());
    assertThat(planner.plan(self, ownership, observations, leases).actions())
        .doesNotContain(new LeaseAction.Acquire(leases.get(0)));
    clock.advanceSeconds(15);
    ownership.renewed(clock.instant());
    observations.observe(List.of(member("a", "2"), unreadable));
    assertThat(planner.plan(self, ownership, observations, leases).actions())
        .contains(new LeaseAction.Fence(unreadable));
  }

  @Test
  void aReplicaWithADifferentShardCountThanTheOldestTakesNoShardsAndSaysWhy() {
    var old = member("old", "inc-old", "1", SHARDS, Instant.parse("2025-12-01T00:00:00Z"));
    var young = member("a", "inc-a", "1", 32, Instant.parse("2026-01-01T00:00:00Z"));
    ownership.renewed(clock.instant());
    observations.observe(List.of(old, young));
    var plan = planner.plan(young, ownership, observations, Map.of());
    assertThat(plan.desired()).isEmpty();
    assertThat(plan.actions()).isEmpty();
    assertThat(plan.refusal())
        .get(org.assertj.core.api.InstanceOfAssertFactories.STRING)
        .contains("old", "8 shards", "32 shards", ShardFunction.HASH_VERSION, "--shards");
    assertThat(plan.agreeingMembers()).isEqualTo(1);
  }
}
