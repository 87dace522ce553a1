package dev.versio.bench.handover;

import static org.assertj.core.api.Assertions.assertThat;

import dev.versio.testkit.ControlPlane;
import dev.versio.testkit.KubeApiServerTest;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CI variant of the move harness ({@code hack/moves-under-load.sh} runs the long one): one
 * cycle of pin, unpin, pool grow, weight up and down, pool shrink, pool grow and server delete — 24
 * moves between two servers of two replica processes each — under reads and writes at a version
 * that is not stored, with the destination stopped for 3 s on three of the steps. Nothing may fail
 * and every move must be verified; behind the shared front no target CRD may be written and no
 * watch may end, and with per-server endpoints both must happen (the audit's negative control).
 */
@KubeApiServerTest(dedicated = true)
class MovesUnderLoadIT {
  @Test
  void behindTheFrontTargetsMoveUnderLoadWithoutAFailedRequestACrdWriteOrAnEndedWatch(
      ControlPlane controlPlane, @TempDir Path workDir) throws Exception {
    var out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    // behind the front, at 60 requests/s: at 110/s this 2-core machine runs out of CPU with the
    // forwarding hop and latencies reach seconds (docs/ha.md); the per-server run keeps 110/s.
    // A 15 s drain, not the chart's 30 s: behind the front a review that reaches a replica after
    // its drain is still forwarded to the holder, so the drain is not what keeps it answered
    // here (MovesPerServerEndpointsIT, where it is, keeps 30 s); the server deletion, which waits
    // for the drain, then takes about 12 s instead of 27 s. The slowest review in these runs
    // took 3.3 s, a fifth of it.
    var report =
        MovesUnderLoad.run(
            controlPlane,
            MovesUnderLoad.Settings.ci().atRate(60).drainingFor(Duration.ofSeconds(15)),
            workDir,
            out);

    assertThat(report.problems()).as("steps that did not end as the resolver says").isEmpty();
    var traffic = report.traffic();
    assertThat(traffic.failed())
        .as("failed requests (causes %s, first %s)", traffic.failureCauses(), traffic.incidents())
        .isZero();
    assertThat(traffic.wrong()).as("wrong values: %s", traffic.incidents()).isZero();
    assertThat(traffic.achievedPerSecond()).as("sustained request rate").isGreaterThanOrEqualTo(55);
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
    // behind the shared front no move writes a target CRD: no controller's watch of the
    // resources ends, no CRD's generation moves (WatchAuditIT shows the audit sees both when a
    // CRD's spec is written; --per-server-endpoints runs this harness as before the front)
    var watches = report.watches();
    assertThat(watches.writtenTargets())
        .as(
            "target CRDs written after the first apply (generation before %s, after %s)",
            watches.generationsAtStart(), watches.generationsAtEnd())
        .isEmpty();
    assertThat(watches.endedTotal())
        .as("watches the apiserver ended during the moves: %s", watches.endedWatches())
        .isZero();
    // five years of serving-certificate renewals ran through the steps: every replica swapped
    // its certificate under the traffic above (0 failed requests) and serves the last one, and
    // none of it wrote a target CRD or ended a watch (the assertions above)
    var renewals = report.renewals();
    assertThat(renewals.written())
        .as("renewals during the steps")
        .isEqualTo(MovesUnderLoad.Settings.RENEWALS);
    assertThat(renewals.notServingTheLast()).as("replicas serving an older leaf").isEmpty();
    assertThat(renewals.rejectedReloads()).as("certificate re-reads the replicas refused").isZero();
    // each replica re-reads its files every second, renewals come every 2 s: a replica stopped
    // for 3 s on a step may skip one, so at least half of all (renewal, replica) pairs is a
    // bound with room, and far above what a replica that never reloads would give
    int replicas = report.reviewsPerReplica().values().stream().mapToInt(List::size).sum();
    assertThat(renewals.reloads())
        .as("certificate swaps by the %d replicas", replicas)
        .isGreaterThanOrEqualTo((long) renewals.written() * replicas / 2);
    var routes = report.routes();
    assertThat(routes.forwarded())
        .as("reviews the front's replicas passed on to the holder (%s)", routes)
        .isPositive();
    assertThat(routes.handedOver())
        .as(
            "reviews a replica passed to the server its target had moved to, while it drained the"
                + " target (%s)",
            routes)
        .isPositive();
    assertThat(routes.forwardFailed()).as("forwards no holder answered (%s)", routes).isZero();
    assertThat(report.reviewsPerReplica().values())
        .as("every server's replicas together answered reviews")
        .allSatisfy(
            perReplica ->
                assertThat(perReplica.stream().mapToLong(Long::longValue).sum()).isPositive());
  }
}
