package dev.versio.coordination.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.versio.coordination.core.CoordinationSettings;
import dev.versio.testkit.ControlPlane;
import dev.versio.testkit.KubeApiServerTest;
import dev.versio.testkit.KubeTestScope;
import io.fabric8.kubernetes.api.model.rbac.PolicyRuleBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** One replica's lease loop against the real apiserver: faults, disagreement and metrics. */
@KubeApiServerTest
class LeaseCoordinatorIT {
  private static final int SHARDS = 8;
  private final List<LeaseCoordinator> started = new ArrayList<>();

  @AfterEach
  void stop() {
    started.forEach(LeaseCoordinator::close);
  }

  @Test
  void aReplicaWhoseLeaseWritesAreRefusedWhileReadsWorkStopsWritingAtItsRenewDeadline(
      ControlPlane controlPlane, KubernetesClient admin, KubeTestScope scope) {
    var ns = scope.namespace();
    grantLeases(
        admin, ns, "replica-a", List.of("get", "list", "watch", "create", "update", "delete"));
    var registryA = new SimpleMeterRegistry();
    var a = start(controlPlane.configAs("replica-a"), ns, "replica-a", SHARDS, registryA);
    await().atMost(Duration.ofSeconds(15)).until(() -> a.ownedShards().size() == SHARDS);
    assertThat(registryA.get("versio.coordination.shards.owned").gauge().value()).isEqualTo(SHARDS);

    // reads keep working, every write is now refused: the case fabric8's LeaderElector misses
    grantLeases(admin, ns, "replica-a", List.of("get", "list", "watch"));
    long revoked = System.nanoTime();
    await().atMost(Duration.ofSeconds(10)).until(() -> a.ownedShards().isEmpty());
    double stoppedAfter = (System.nanoTime() - revoked) / 1e9;
    assertThat(stoppedAfter)
        .as("writes stop within renewDeadline of the last good renewal")
        .isLessThanOrEqualTo(settings(SHARDS).renewDeadline().toMillis() / 1000.0 + 0.5);
    assertThat(
            registryA
                .get("versio.coordination.lease.writes")
                .tag("kind", "renew")
                .tag("outcome", "error")
                .counter()
                .count())
        .isPositive();

    var b = start(controlPlane.adminConfig(), ns, "replica-b", SHARDS, new SimpleMeterRegistry());
    long bStarted = System.nanoTime();
    await().atMost(Duration.ofSeconds(20)).until(() -> b.ownedShards().size() == SHARDS);
    double tookOverAfter = (System.nanoTime() - bStarted) / 1e9;
    assertThat(tookOverAfter)
        .as("b waits a whole lease duration of its own observation before fencing a")
        .isGreaterThanOrEqualTo(settings(SHARDS).leaseDuration().toSeconds() - 0.1);
    assertThat(a.ownedShards()).isEmpty();
    assertThat(
            admin
                .leases()
                .inNamespace(ns)
                .withName("it-member-replica-a")
                .get()
                .getMetadata()
                .getAnnotations())
        .containsEntry("versio.dev/fenced-by", "replica-b");
  }

  @Test
  void aReplicaWithAnotherShardCountTakesNoShardsAndSaysWhy(
      ControlPlane controlPlane, KubernetesClient admin, KubeTestScope scope) {
    var ns = scope.namespace();
    var a = start(controlPlane.adminConfig(), ns, "replica-a", SHARDS, new SimpleMeterRegistry());
    await().atMost(Duration.ofSeconds(15)).until(() -> a.ownedShards().size() == SHARDS);
    var registryC = new SimpleMeterRegistry();
    var c = start(controlPlane.adminConfig(), ns, "replica-c", 16, registryC);
    await().atMost(Duration.ofSeconds(15)).until(() -> c.refusal().isPresent());
    assertThat(c.refusal().orElseThrow())
        .contains("replica-a", "8 shards", "16 shards", "--shards");
    assertThat(c.ownedShards()).isEmpty();
    assertThat(registryC.get("versio.coordination.config.mismatch").gauge().value()).isEqualTo(1);
    assertThat(a.ownedShards()).hasSize(SHARDS);
    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(
            () ->
                assertThat(admin.v1().events().inNamespace(ns).list().getItems())
                    .anySatisfy(
                        e -> {
                          assertThat(e.getReason()).isEqualTo("ShardConfigMismatch");
                          assertThat(e.getInvolvedObject().getName())
                              .isEqualTo("it-member-replica-c");
                          assertThat(e.getMessage()).contains("16 shards");
                        }));
  }

  @Test
  void aPlannedStopHandsEveryShardToTheOthersAtOnce(
      ControlPlane controlPlane, KubeTestScope scope) {
    var ns = scope.namespace();
    var a = start(controlPlane.adminConfig(), ns, "replica-a", SHARDS, new SimpleMeterRegistry());
    var b = start(controlPlane.adminConfig(), ns, "replica-b", SHARDS, new SimpleMeterRegistry());
    await()
        .atMost(Duration.ofSeconds(15))
        .until(
            () ->
                a.ownedShards().size() + b.ownedShards().size() == SHARDS
                    && !a.ownedShards().isEmpty()
                    && !b.ownedShards().isEmpty());
    long stop = System.nanoTime();
    a.close();
    await().atMost(Duration.ofSeconds(2)).until(() -> b.ownedShards().size() == SHARDS);
    assertThat((System.nanoTime() - stop) / 1e9).isLessThan(2.0);
  }

  @Test
  void aSecondProcessWithTheSameIdWaitsWhileTheFirstIsAliveAndTakesOverAfterItStops(
      ControlPlane controlPlane, KubeTestScope scope) {
    var ns = scope.namespace();
    var first =
        start(controlPlane.adminConfig(), ns, "replica-a", SHARDS, new SimpleMeterRegistry());
    await().atMost(Duration.ofSeconds(15)).until(() -> first.ownedShards().size() == SHARDS);
    var second =
        start(controlPlane.adminConfig(), ns, "replica-a", SHARDS, new SimpleMeterRegistry());
    // a force-deleted pod on a partitioned node, or a duplicate id: the first may still write
    await()
        .during(settings(SHARDS).leaseDuration().plusSeconds(1))
        .atMost(settings(SHARDS).leaseDuration().plusSeconds(3))
        .until(() -> second.ownedShards().isEmpty() && first.ownedShards().size() == SHARDS);
    first.close();
    await().atMost(Duration.ofSeconds(5)).until(() -> second.ownedShards().size() == SHARDS);
  }

  private LeaseCoordinator start(
      Config config, String ns, String id, int shards, SimpleMeterRegistry registry) {
    var coordinator =
        new LeaseCoordinator(
            config,
            ns,
            id,
            settings(shards),
            Clock.systemUTC(),
            new MonotonicClock(),
            new CoordinationMetrics(registry));
    coordinator.start();
    started.add(coordinator);
    return coordinator;
  }

  private static CoordinationSettings settings(int shards) {
    return new CoordinationSettings(
        "it",
        shards,
        Duration.ofSeconds(6),
        Duration.ofSeconds(1),
        Duration.ofSeconds(3),
        Duration.ofMillis(500),
        "it-1");
  }

  private static void grantLeases(
      KubernetesClient admin, String ns, String user, List<String> verbs) {
    admin
        .rbac()
        .roles()
        .inNamespace(ns)
        .resource(
            new RoleBuilder()
                .withNewMetadata()
                .withName("leases-" + user)
                .endMetadata()
                .withRules(
                    new PolicyRuleBuilder()
                        .withApiGroups("coordination.k8s.io")
                        .withResources("leases")
                        .withVerbs(verbs)
                        .build())
                .build())
        .createOr(r -> r.update());
    admin
        .rbac()
        .roleBindings()
        .inNamespace(ns)
        .resource(
            new RoleBindingBuilder()
                .withNewMetadata()
                .withName("leases-" + user)
                .endMetadata()
                .withNewRoleRef("rbac.authorization.k8s.io", "Role", "leases-" + user)
                .addNewSubject()
                .withKind("User")
                .withApiGroup("rbac.authorization.k8s.io")
                .withName(user)
                .endSubject()
                .build())
        .createOr(r -> r.update());
  }
}
