package dev.versio.coordination.shard;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class RendezvousAssignmentTest {
  private static final int SHARDS = 64;

  @Test
  void theAssignmentOfKnownMembersIsPinned() {
    assertThat(RendezvousAssignment.assign(List.of("replica-a", "replica-b", "replica-c"), 8))
        .containsExactlyEntriesOf(
            new TreeMap<>(
                Map.of(
                    0,
                    "replica-b",
                    1,
                    "replica-c",
                    2,
                    "replica-b",
                    3,
                    "replica-b",
                    4,
                    "replica-a",
                    5,
                    "replica-c",
                    6,
                    "replica-b",
                    7,
                    "replica-a")));
  }

  @Test
  void everyShardHasExactlyOneOwnerAndOrderOfMembersDoesNotMatter() {
    var a = RendezvousAssignment.assign(List.of("x", "y", "z"), SHARDS);
    var b = RendezvousAssignment.assign(List.of("z", "x", "y"), SHARDS);
    assertThat(a).hasSize(SHARDS).isEqualTo(b);
    assertThat(RendezvousAssignment.assign(List.of(), SHARDS)).isEmpty();
  }

  @Test
  void addingAMemberMovesShardsOnlyToItNeverBetweenMembersThatStayed() {
    var random = new SplittableRandom(7);
    for (int trial = 0; trial < 200; trial++) {
      var members = randomMembers(random, 1 + random.nextInt(10));
      var before = RendezvousAssignment.assign(members, SHARDS);
      var newcomer = "pod-" + Long.toHexString(random.nextLong());
      var grown = new ArrayList<>(members);
      grown.add(newcomer);
      var after = RendezvousAssignment.assign(grown, SHARDS);
      before.forEach(
          (shard, owner) -> {
            if (!after.get(shard).equals(owner)) {
              assertThat(after.get(shard)).as("shard %d moved", shard).isEqualTo(newcomer);
            }
          });
      // and removing it again restores the old assignment exactly
      assertThat(RendezvousAssignment.assign(members, SHARDS)).isEqualTo(before);
    }
  }

  @Test
  void onAverageScaleOutMovesAboutOneInNPlusOneShards() {
    var random = new SplittableRandom(11);
    for (int n = 1; n <= 10; n++) {
      double movedSum = 0;
      int trials = 400;
      for (int trial = 0; trial < trials; trial++) {
        var members = randomMembers(random, n);
        var before = RendezvousAssignment.assign(members, SHARDS);
        var grown = new ArrayList<>(members);
        grown.add("pod-" + Long.toHexString(random.nextLong()));
        var after = RendezvousAssignment.assign(grown, SHARDS);
        long moved =
            before.keySet().stream().filter(s -> !before.get(s).equals(after.get(s))).count();
        movedSum += moved / (double) SHARDS;
      }
      double mean = movedSum / trials;
      assertThat(mean).as("mean moved fraction at N=%d", n).isLessThan(1.1 / (n + 1));
      assertThat(mean).as("mean moved fraction at N=%d", n).isGreaterThan(0.9 / (n + 1));
    }
  }

  private static List<String> randomMembers(SplittableRandom random, int n) {
    var members = new ArrayList<String>();
    for (int i = 0; i < n; i++) {
      members.add("pod-" + Long.toHexString(random.nextLong()));
    }
    return members;
  }
}
