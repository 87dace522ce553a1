package dev.versio.coordination.gate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.versio.coordination.core.ManualClock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TakeoverResyncTest {
  private final ManualClock clock = new ManualClock();
  private final ReconcileQueue<String> queue =
      new ReconcileQueue<>(new ReconcileLanes<>(clock, new TokenBucket(clock, 20)));
  // keys are "<shard>:<name>"
  private final TakeoverResync<String> resync =
      new TakeoverResync<>(
          queue,
          shards ->
              List.of("1:a", "1:b", "2:c", "3:d").stream()
                  .filter(k -> shards.contains(Integer.parseInt(k.split(":")[0])))
                  .toList(),
          k -> Integer.parseInt(k.split(":")[0]));

  @Test
  void gainedShardsQueueTheirKnownObjectsForAPacedResync() throws InterruptedException {
    resync.gained(Map.of(1, 7L, 2, 7L));
    assertThat(queue.resyncBacklog()).isEqualTo(3);
    queue.offerLive("3:d");
    assertThat(queue.take(Duration.ZERO)).contains("3:d");
    assertThat(queue.take(Duration.ZERO)).contains("1:a");
    assertThat(queue.take(Duration.ZERO)).as("paced: the next token is 50 ms away").isEmpty();
    clock.advance(Duration.ofMillis(50));
    assertThat(queue.take(Duration.ZERO)).contains("1:b");
  }

  @Test
  void lostShardsDropTheirQueuedWork() {
    resync.gained(Map.of(1, 7L, 2, 7L));
    resync.lost(Set.of(1));
    assertThat(queue.resyncBacklog()).isEqualTo(1);
  }
}
