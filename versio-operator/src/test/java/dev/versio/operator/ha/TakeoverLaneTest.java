package dev.versio.operator.ha;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.versio.coordination.gate.OwnershipListener;
import dev.versio.coordination.gate.ShardGate;
import dev.versio.coordination.shard.ObjectKey;
import java.time.Duration;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.LongFunction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class TakeoverLaneTest {
  private final List<String> triggered = new CopyOnWriteArrayList<>();
  private final LiveEventWaits live = new LiveEventWaits(InstantSource.system(), (lane, d) -> {});
  private final TakeoverLane lane =
      new TakeoverLane(
          new OwnsEverything(),
          live,
          InstantSource.system(),
          1000,
          1,
          Duration.ofMinutes(5),
          (l, d) -> {});

  @AfterEach
  void close() {
    lane.close();
  }

  @Test
  void changedObjectsGoFirstAndTheLaneKeepsOnlyOneReconcileInFlight() {
    lane.add(
        "Config",
        new TakeoverLane.Source(
            () -> List.of("a", "b", "c"), name -> name.equals("c"), triggered::add));
    lane.start();
    lane.gained(Map.of(0, 1L));

    await().atMost(Duration.ofSeconds(5)).until(() -> triggered.size() == 1);
    assertThat(triggered).containsExactly("c");
    assertThat(lane.backlog()).as("the others wait for the slot").isEqualTo(2);

    live.started("Config", "c");
    live.finished("Config", "c");
    await().atMost(Duration.ofSeconds(5)).until(() -> triggered.size() == 2);
    live.finished("Config", triggered.get(1));
    await().atMost(Duration.ofSeconds(5)).until(() -> triggered.size() == 3);
    assertThat(triggered).containsExactlyInAnyOrder("a", "b", "c");
  }

  @Test
  void nothingIsHandedOverWhileALiveEventWaitsForItsReconcile() {
    lane.add(
        "Config", new TakeoverLane.Source(() -> List.of("a", "b"), name -> false, triggered::add));
    live.arrived("Config", "x");
    lane.start();
    lane.gained(Map.of(0, 1L));

    await()
        .during(Duration.ofMillis(300))
        .atMost(Duration.ofSeconds(2))
        .until(() -> triggered.isEmpty());
    live.started("Config", "x");
    await().atMost(Duration.ofSeconds(5)).until(() -> triggered.size() == 1);
  }

  @Test
  void aKeyOfferedWhileItsReconcileRunsIsReconciledAgainOnceThatOneFinishes() {
    lane.add("Config", new TakeoverLane.Source(List::of, name -> false, triggered::add));
    lane.start();
    lane.offer("Config", "a");
    await().atMost(Duration.ofSeconds(5)).until(() -> triggered.size() == 1);
    live.started("Config", "a");

    // a server change fans out to "a" while the reconcile that read the old state still runs
    lane.offer("Config", "a");
    await()
        .during(Duration.ofMillis(300))
        .atMost(Duration.ofSeconds(2))
        .until(() -> triggered.size() == 1);
    live.finished("Config", "a");

    await("reconciled again after the running one")
        .atMost(Duration.ofSeconds(5))
        .until(() -> triggered.size() == 2);
    assertThat(triggered).containsExactly("a", "a");
  }

  @Test
  void queuedKeysOfShardsLostAgainAreDropped() {
    lane.add(
        "Config",
        new TakeoverLane.Source(() -> List.of("a", "b", "c"), name -> false, triggered::add));
    lane.start();
    lane.gained(Map.of(0, 1L));
    await().atMost(Duration.ofSeconds(5)).until(() -> triggered.size() == 1);

    lane.lost(java.util.Set.of(0));
    assertThat(lane.backlog()).isZero();
  }

  @Test
  void thePeriodicSelfCheckQueuesEveryOwnedObjectThroughTheLane() {
    var often =
        new TakeoverLane(
            new OwnsEverything(),
            live,
            InstantSource.system(),
            1000,
            1,
            Duration.ofMillis(200),
            (l, d) -> {});
    often.add("Config", new TakeoverLane.Source(() -> List.of("a"), name -> false, triggered::add));
    try {
      often.start();
      await().atMost(Duration.ofSeconds(5)).until(() -> triggered.size() == 1);
      live.finished("Config", "a");
      await("checked again at the next interval")
          .atMost(Duration.ofSeconds(5))
          .until(() -> triggered.size() == 2);
    } finally {
      often.close();
    }
  }

  /** Holds shard 0, where every key falls. */
  private static final class OwnsEverything implements ShardGate {
    @Override
    public OptionalLong ownershipEpoch(ObjectKey key) {
      return OptionalLong.of(1);
    }

    @Override
    public <T> Optional<T> writeAsOwner(ObjectKey key, LongFunction<T> write) {
      return Optional.ofNullable(write.apply(1));
    }

    @Override
    public int shardOf(ObjectKey key) {
      return 0;
    }

    @Override
    public void addListener(OwnershipListener listener) {}
  }
}
