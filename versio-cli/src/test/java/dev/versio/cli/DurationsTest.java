package dev.versio.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class DurationsTest {
  @Test
  void readsMillisecondsSecondsMinutesAndHours() {
    assertThat(Durations.parse("500ms")).isEqualTo(Duration.ofMillis(500));
    assertThat(Durations.parse(" 30s ")).isEqualTo(Duration.ofSeconds(30));
    assertThat(Durations.parse("5m")).isEqualTo(Duration.ofMinutes(5));
    assertThat(Durations.parse("1h")).isEqualTo(Duration.ofHours(1));
  }

  @Test
  void refusesAnythingElseWithExamples() {
    assertThatThrownBy(() -> Durations.parse("5 minutes"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("500ms, 30s, 5m or 1h");
    assertThatThrownBy(() -> Durations.parse("1.5s")).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void formatsTheWayItIsTyped() {
    assertThat(Durations.format(Duration.ofSeconds(120))).isEqualTo("2m");
    assertThat(Durations.format(Duration.ofSeconds(90))).isEqualTo("90s");
    assertThat(Durations.format(Duration.ofMillis(250))).isEqualTo("250ms");
    assertThat(Durations.format(Duration.ofHours(2))).isEqualTo("2h");
  }
}
