package dev.versio.bench.handover;

import static org.assertj.core.api.Assertions.assertThat;

import dev.versio.testkit.ControlPlane;
import dev.versio.testkit.KubeApiServerTest;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The move harness pointed at the behaviour before the shared front ({@code
 * --per-server-endpoints}): every move repoints the target CRD. The negative control of {@link
 * MovesUnderLoadIT}'s zero — the watch audit sees the ended watches and the written CRDs — and the
 * guarantee of that path at 110 requests/s. It runs the cycle's first eight steps (16 moves: pin,
 * unpin, grow with the destination stopped, both weights, shrink): the rest of the cycle (server
 * deletion and re-creation) waits mostly for drains, which {@link MovesUnderLoadIT} covers, and
 * {@code hack/moves-under-load.sh --duration 0s --per-server-endpoints} runs it whole. A class of
 * its own: the harness needs a fresh cluster.
 */
@KubeApiServerTest(dedicated = true)
class MovesPerServerEndpointsIT {
  /**
   * Pin, unpin, alpha joins, beta joins (grow), the admission probe, weight 3, weight 1, shrink.
   */
  private static final int PER_SERVER_STEPS = 8;

  @Test
  void withPerServerEndpointsEveryMoveRewritesTheTargetCrdAndEndsItsWatches(
      ControlPlane controlPlane, @TempDir Path workDir) throws Exception {
    // the harness pointed at the behaviour before the front (--per-server-endpoints): the
    // negative control showing the watch audit sees what a repoint costs, and the 110/s guarantee
    // of that path
    var out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    var report =
        MovesUnderLoad.run(
            controlPlane,
            // the renewals under traffic are MovesUnderLoadIT's: this run is the watch audit's
            // negative control, and at 110/s the machine has no CPU to spare for them
            MovesUnderLoad.Settings.ci()
                .perServerEndpoints()
                .renewingEvery(Duration.ZERO)
                .firstSteps(PER_SERVER_STEPS),
            workDir,
            out);

    assertThat(report.problems()).isEmpty();
    var traffic = report.traffic();
    assertThat(traffic.failed())
        .as("failed requests (causes %s, first %s)", traffic.failureCauses(), traffic.incidents())
        .isZero();
    assertThat(traffic.wrong()).as("wrong values: %s", traffic.incidents()).isZero();
    assertThat(traffic.achievedPerSecond())
        .as("sustained request rate")
        .isGreaterThanOrEqualTo(100);
    assertThat(report.moves()).as("moves of the first %d steps", PER_SERVER_STEPS).isEqualTo(16);
    assertThat(report.verifiedMoves()).as("moves verified HandoverReady").isEqualTo(report.moves());
    var watches = report.watches();
    assertThat(watches.writtenTargets())
        .as(
            "target CRDs the moves wrote (before %s, after %s)",
            watches.generationsAtStart(), watches.generationsAtEnd())
        .isNotEmpty();
    assertThat(watches.endedTotal())
        .as(
            "watches the apiserver ended while the moves wrote the CRDs: %s",
            watches.endedWatches())
        .isPositive();
    assertThat(report.routes().forwarded()).as("nothing forwarded without a front").isZero();
    assertThat(report.routes().handedOver()).as("nothing handed over without a front").isZero();
  }
}
