package dev.versio.cli.dev;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class StartupPhasesTest {
  @Test
  void eachPhaseTakesTheTimeSinceThePreviousOneEnded() {
    var now = new AtomicReference<>(Duration.ZERO);
    var phases = new StartupPhases(now::get);

    now.set(Duration.ofMillis(7_120));
    phases.end("control plane");
    now.set(Duration.ofMillis(10_050));
    phases.end("Versio CRDs");
    now.set(Duration.ofMillis(22_010));
    phases.end("webhook server ready");

    assertThat(phases.phases())
        .extracting(StartupPhases.Phase::took)
        .containsExactly(
            Duration.ofMillis(7_120), Duration.ofMillis(2_930), Duration.ofMillis(11_960));
    assertThat(phases.render())
        .isEqualTo(
            "start-up 22.0 s: control plane 7.1 s, Versio CRDs 2.9 s, webhook server ready 12.0 s");
  }
}
