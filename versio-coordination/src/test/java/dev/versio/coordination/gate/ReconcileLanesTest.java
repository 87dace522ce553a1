package dev.versio.coordination.gate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.versio.coordination.core.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ReconcileLanesTest {
  private final ManualClock clock = new ManualClock();
  private final ReconcileLanes<String> lanes =
      new ReconcileLanes<>(clock, new TokenBucket(clock, 20));

  @Test
  void liveEventsAlwaysGoBeforeResync() {
    lanes.offerResync("r1");
    lanes.offerResync("r2");
    lanes.offerLive("live1");
    assertThat(lanes.poll().map(ReconcileLanes.Polled::key)).contains("live1");
    assertThat(lanes.poll().map(ReconcileLanes.Polled::key)).contains("r1");
    lanes.offerLive("live2");
    assertThat(lanes.poll().map(ReconcileLanes.Polled::key)).contains("live2");
  }

  @Test
  void resyncIsPacedAtItsRateAndTellsHowLongToWait() {
    for (int i = 0; i < 100; i++) {
      lanes.offerResync("k" + i);
    }
    var taken = drain();
    assertThat(taken).hasSize(1);
    assertThat(lanes.untilReady()).contains(Duration.ofMillis(50));
    clock.advanceSeconds(1);
    assertThat(drain()).hasSize(20);
    clock.advanceSeconds(10);
    assertThat(drain()).as("the burst is capped at one second's worth").hasSize(20);
    assertThat(lanes.resyncBacklog()).isEqualTo(59);
  }

  @Test
  void aKeyQueuedTwiceRunsOnceAndALiveEventTakesItOutOfTheResyncLane() {
    lanes.offerResync("k");
    lanes.offerResync("k");
    lanes.offerLive("k");
    lanes.offerLive("k");
    assertThat(drain()).containsExactly("k");
    assertThat(lanes.untilReady()).isEmpty();
  }

  @Test
  void eachKeyTellsItsLaneAndHowLongItWaitedSinceItWasFirstQueued() {
    lanes.offerResync("r");
    lanes.offerLive("l");
    clock.advance(Duration.ofMillis(300));
    lanes.offerLive("l");
    assertThat(lanes.poll())
        .contains(
            new ReconcileLanes.Polled<>("l", ReconcileLanes.Lane.LIVE, Duration.ofMillis(300)));
    assertThat(lanes.poll())
        .contains(
            new ReconcileLanes.Polled<>("r", ReconcileLanes.Lane.RESYNC, Duration.ofMillis(300)));
  }

  @Test
  void keysOfLostShardsCanBeDropped() {
    lanes.offerLive("lost-1");
    lanes.offerResync("lost-2");
    lanes.offerLive("kept");
    lanes.removeIf(k -> k.startsWith("lost"));
    assertThat(drain()).containsExactly("kept");
  }

  private List<String> drain() {
    var out = new ArrayList<String>();
    Optional<ReconcileLanes.Polled<String>> next;
    while ((next = lanes.poll()).isPresent()) {
      out.add(next.get().key());
    }
    return out;
  }
}
