package dev.versio.bench.handover;

import static org.assertj.core.api.Assertions.assertThat;

import dev.versio.testkit.ControlPlane;
import dev.versio.testkit.KubeApiServerTest;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CI variant of the move harness ({@code hack/moves-under-load.sh} runs the long one): one
 * cycle of pin, unpin, pool grow, weight up and down, pool shrink, pool grow and server delete — 24
 * moves between two servers of two replica processes each — under 110 reads and writes per second
 * at a version that is not stored, with the destination stopped for 3 s on three of the steps.
 * Nothing may fail and every move must be verified.
 */
@KubeApiServerTest
class MovesUnderLoadIT {
  @Test
  void targetsMoveBetweenServersUnderLoadWithoutAFailedOrWrongRequest(
      ControlPlane controlPlane, @TempDir Path workDir) throws Exception {
    var out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    var report = MovesUnderLoad.run(controlPlane, MovesUnderLoad.Settings.ci(), workDir, out);

    assertThat(report.problems()).as("steps that did not end as the resolver says").isEmpty();
    var traffic = report.traffic();
    assertThat(traffic.failed())
        .as("failed requests (causes %s, first %s)", traffic.failureCauses(), traffic.incidents())
        .isZero();
    assertThat(traffic.wrong()).as("wrong values: %s", traffic.incidents()).isZero();
    assertThat(traffic.achievedPerSecond())
        .as("sustained request rate")
        .isGreaterThanOrEqualTo(100);
    assertThat(report.moves()).isGreaterThanOrEqualTo(10);
    assertThat(report.verifiedMoves()).as("moves verified HandoverReady").isEqualTo(report.moves());
    assertThat(report.admissionRejection())
        .as("admission refuses a sharding pool without the default server")
        .isNotNull()
        .contains("default");
    // the weighted rendezvous placement of the fixture names, pinned: a hash change fails here
    assertThat(report.placementWithBothInPool())
        .isEqualTo(
            Map.of(
                "anchors", "alpha",
                "bolts", "beta",
                "cogs", "beta",
                "dials", "beta",
                "gears", "beta",
                "hinges", "alpha",
                "levers", "alpha",
                "nozzles", "alpha"));
    // today every move repoints the target CRD, so the watch audit must see what that costs: the
    // controllers' watches end and the CRDs' generation moves. This is the audit's negative
    // control; once moves stop writing the CRD (one endpoint per pool, docs/ha.md) both become 0
    var watches = report.watches();
    assertThat(watches.writtenTargets())
        .as(
            "target CRDs written by the moves (generation before %s, after %s)",
            watches.generationsAtStart(), watches.generationsAtEnd())
        .isNotEmpty();
    assertThat(watches.endedTotal())
        .as(
            "watches the apiserver ended while the moves wrote the CRDs: %s",
            watches.endedWatches())
        .isPositive();
    assertThat(report.reviewsPerReplica().values())
        .as("every server's replicas together answered reviews")
        .allSatisfy(
            perReplica ->
                assertThat(perReplica.stream().mapToLong(Long::longValue).sum()).isPositive());
  }
}
