package dev.versio.operator.fanout;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class FanoutScheduleTest {
  @Test
  void twoHundredKeysAtFiftyPerSecondEndAfterThreePointNineEightSeconds() {
    var delays = FanoutSchedule.delays(200, 50);

    assertThat(delays).hasSize(200);
    assertThat(delays.getFirst()).isZero();
    assertThat(delays.get(1)).isEqualTo(Duration.ofMillis(20));
    assertThat(delays.get(50)).isEqualTo(Duration.ofSeconds(1));
    assertThat(delays.getLast()).isEqualTo(Duration.ofMillis(3980));
    assertThat(FanoutSchedule.spread(200, 50)).isEqualTo(Duration.ofMillis(3980));
  }

  @Test
  void keyIIsEnqueuedAfterIOverQpsSeconds() {
    var delays = FanoutSchedule.delays(4, 3);

    assertThat(delays)
        .containsExactly(
            Duration.ZERO,
            Duration.ofNanos(333_333_333),
            Duration.ofNanos(666_666_667),
            Duration.ofSeconds(1));
  }

  @Test
  void delaysNeverDecrease() {
    var delays = FanoutSchedule.delays(1000, 7.5);

    assertThat(delays).isSorted();
  }

  @Test
  void aRateOfZeroEnqueuesEveryKeyAtOnce() {
    assertThat(FanoutSchedule.delays(200, 0)).hasSize(200).containsOnly(Duration.ZERO);
    assertThat(FanoutSchedule.spread(200, 0)).isZero();
  }

  @Test
  void aNegativeRateEnqueuesEveryKeyAtOnce() {
    assertThat(FanoutSchedule.delays(3, -1)).containsOnly(Duration.ZERO);
    assertThat(FanoutSchedule.spread(3, -1)).isZero();
  }

  @Test
  void noKeyOrOneKeyHasNoSpread() {
    assertThat(FanoutSchedule.delays(0, 50)).isEmpty();
    assertThat(FanoutSchedule.spread(0, 50)).isZero();
    assertThat(FanoutSchedule.delays(1, 50)).containsExactly(Duration.ZERO);
    assertThat(FanoutSchedule.spread(1, 50)).isZero();
  }

  @Test
  void theSpreadIsTheDelayOfTheLastKey() {
    for (int n = 1; n <= 300; n += 37) {
      assertThat(FanoutSchedule.spread(n, 12.5))
          .isEqualTo(FanoutSchedule.delays(n, 12.5).getLast());
    }
  }
}
