package dev.versio.coordination.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import dev.versio.coordination.shard.RendezvousAssignment;
import dev.versio.testkit.ControlPlane;
import dev.versio.testkit.KubeApiServerTest;
import dev.versio.testkit.KubeTestScope;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Replicas as separate JVMs on the real apiserver, crashed, stopped, restarted and scaled while a
 * checker audits every write. CI runs four disruptions with short leases; {@code hack/chaos.sh}
 * runs the long profile (30+ disruptions, 15 s lease, 5 s renew) that produces the numbers in
 * docs/ha.md.
 */
@KubeApiServerTest
class ShardFailoverChaosIT {

  @Test
  void replicasHandOverShardsOnCrashAndStopWithoutASingleWriteByANonOwner(
      ControlPlane controlPlane, KubernetesClient client, KubeTestScope scope) throws Exception {
    var parameters = ChaosRun.Parameters.fromSystemProperties();
    var logs = Path.of("target", "chaos", scope.suffix());
    var run = new ChaosRun(parameters, client, scope.namespace(), controlPlane.kubeconfig(), logs);
    double leaseWritesPerSecond;
    Map<String, Long> shardsPerMember;
    List<String> violations;
    double[] liveWaits;
    try {
      run.run();
      leaseWritesPerSecond =
          run.leaseWritesPerSecond(Duration.ofMillis(parameters.renewMillis() * 5));
      shardsPerMember =
          RendezvousAssignment.assign(run.running(), parameters.shards()).values().stream()
              .collect(Collectors.groupingBy(id -> id, TreeMap::new, Collectors.counting()));
      run.stopWorkers();
      liveWaits = run.liveQueueWaits();
      run.auditor().sync(client, scope.namespace());
      violations = run.auditor().violations();
      var forged = run.intrude();
      assertThat(run.auditor().violations())
          .as("the audit flags a forged write by a replica that holds nothing")
          .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
          .contains(forged.text(), "intruder/999");
    } finally {
      run.stopAll();
    }
    var report =
        report(parameters, run, leaseWritesPerSecond, shardsPerMember, violations, liveWaits);
    System.out.println(report);
    Files.createDirectories(logs);
    Files.writeString(logs.resolve("report.txt"), report);

    assertThat(violations).as("writes by a replica that did not own the key").isEmpty();
    for (var d : run.disruptions()) {
      switch (d.kind()) {
        case KILL ->
            assertThat(d.seconds())
                .as("crash of %s: keys wait for their new owner", d.replica())
                .isLessThanOrEqualTo(parameters.crashBound().toMillis() / 1000.0);
        case TERM, REMOVE -> {
          assertThat(d.seconds()).as("planned stop of %s", d.replica()).isLessThanOrEqualTo(5.0);
          assertThat(d.movedBetweenStaying())
              .as("shards moved between replicas that stayed")
              .isZero();
        }
        case ADD -> {}
      }
    }
    for (var join : run.joins()) {
      assertThat(join.movedBetweenStaying())
          .as("shards moved between replicas that stayed when %s joined", join.replica())
          .isZero();
    }
  }

  private static String report(
      ChaosRun.Parameters p,
      ChaosRun run,
      double leaseWrites,
      Map<String, Long> shardsPerMember,
      List<String> violations,
      double[] liveWaits) {
    var out = new StringBuilder();
    out.append(
        String.format(
            Locale.ROOT,
            "chaos: %d disruptions, %d shards, %d+ keys, lease %d s, renew %d ms, deadline %d ms, resync %.0f/s, clock offsets up to ±%.0f s, seed %d%n",
            p.disruptions(),
            p.shards(),
            p.keys(),
            p.leaseSeconds(),
            p.renewMillis(),
            p.deadlineMillis(),
            p.resyncPerSecond(),
            p.maxClockOffsetSeconds(),
            p.seed()));
    for (var kind : List.of(ChaosRun.Kind.KILL, ChaosRun.Kind.TERM, ChaosRun.Kind.REMOVE)) {
      var seconds =
          run.disruptions().stream()
              .filter(d -> d.kind() == kind)
              .map(ChaosRun.Disruption::seconds)
              .sorted()
              .toList();
      var gaps =
          run.disruptions().stream()
              .filter(d -> d.kind() == kind)
              .map(ChaosRun.Disruption::shardGapSeconds)
              .sorted()
              .toList();
      if (!seconds.isEmpty()) {
        out.append(
            String.format(
                Locale.ROOT,
                "%-6s n=%-3d shards re-held after: p50 %.2f s p99 %.2f s max %.2f s | every key rewritten by its new owner after: p50 %.2f s p99 %.2f s max %.2f s%n",
                kind,
                seconds.size(),
                percentile(gaps, 0.5),
                percentile(gaps, 0.99),
                gaps.getLast(),
                percentile(seconds, 0.5),
                percentile(seconds, 0.99),
                seconds.getLast()));
      }
    }
    var joins = run.joins();
    var ratios = run.joinMoveRatios();
    out.append(
        String.format(
            Locale.ROOT,
            "joins  n=%d  moved/(S/(N+1)): mean %.2f max %.2f (target <= 1.35); moved between staying members: %d%n",
            joins.size(),
            ratios.stream().mapToDouble(d -> d).average().orElse(0),
            ratios.stream().mapToDouble(d -> d).max().orElse(0),
            joins.stream().mapToInt(ChaosRun.Disruption::movedBetweenStaying).sum()));
    double mean = shardsPerMember.values().stream().mapToLong(l -> l).average().orElse(0);
    long max = shardsPerMember.values().stream().mapToLong(l -> l).max().orElse(0);
    out.append(
        String.format(
            Locale.ROOT,
            "shards per member at the end %s: max/mean %.2f%n",
            shardsPerMember,
            max / mean));
    out.append(
        String.format(
            Locale.ROOT,
            "Lease writes/s in steady state with %d members x %d shards: %.2f%n",
            shardsPerMember.size(),
            p.shards(),
            leaseWrites));
    out.append(
        String.format(
            Locale.ROOT,
            "live-lane queue wait (replicas that stopped cleanly): %.0f events, worst replica p99"
                + " %.1f ms, max %.1f ms (target <= 1 s p99)%n",
            liveWaits[0],
            liveWaits[1],
            liveWaits[2]));
    out.append(
        String.format(
            Locale.ROOT,
            "owner writes audited: %d, violations: %d%n",
            run.auditor().ownerWrites(),
            violations.size()));
    var detail = new ArrayList<>(run.disruptions());
    detail.sort(Comparator.comparing(ChaosRun.Disruption::kind));
    detail.forEach(d -> out.append("  ").append(d).append('\n'));
    return out.toString();
  }

  private static double percentile(List<Double> sorted, double q) {
    int index = (int) Math.ceil(q * sorted.size()) - 1;
    return sorted.get(Math.max(0, Math.min(sorted.size() - 1, index)));
  }
}
