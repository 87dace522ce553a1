package dev.versio.cli.dev;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import org.junit.jupiter.api.Test;

class ProgressTest {

  @Test
  void timesCountFromTheProcessStartSoTheJvmsOwnStartIsIncluded() {
    var now = Instant.parse("2026-12-05T10:00:05Z");
    var out = new StringWriter();
    var progress =
        new Progress(
            new PrintWriter(out), InstantSource.fixed(now), now.minus(Duration.ofMillis(2_400)));

    progress.step("control plane up");

    assertThat(progress.elapsed()).isEqualTo(Duration.ofMillis(2_400));
    assertThat(out.toString()).isEqualTo("[  2s] control plane up" + System.lineSeparator());
  }

  @Test
  void theProcessStartIsNoLaterThanNow() {
    assertThat(Progress.processStart()).isBeforeOrEqualTo(Instant.now());
  }
}
