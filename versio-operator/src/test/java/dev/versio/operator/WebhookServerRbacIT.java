package dev.versio.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.versio.api.served.ServedTargetsCodec;
import dev.versio.operator.server.children.ChildApis;
import dev.versio.operator.server.children.WebhookServerChildren;
import dev.versio.testkit.ControlPlane;
import dev.versio.testkit.Crds;
import dev.versio.testkit.KubeApiServerTest;
import dev.versio.testkit.process.LoopbackPorts;
import dev.versio.testkit.stories.ExampleStory;
import dev.versio.webhook.WebhookServer;
import dev.versio.webhook.WebhookServerOptions;
import dev.versio.webhook.forward.Forwarding;
import dev.versio.webhook.served.ReplicaIdentity;
import dev.versio.webhook.served.ServedTargetsPublication;
import dev.versio.webhook.tracing.ReviewTracing;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.Subject;
import io.fabric8.kubernetes.api.model.rbac.SubjectBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A webhook-server replica runs under exactly what a Service-mode replica gets: the chart's
 * ClusterRole {@code versio-webhook-server} (from deploy/versio.yaml) and the lease Role the
 * operator creates for its server (built by {@link WebhookServerChildren}), bound to a user with
 * nothing else. It syncs, compiles its target, becomes ready, publishes its served-target Lease and
 * deletes it when it stops.
 */
@KubeApiServerTest(dedicated = true)
class WebhookServerRbacIT {
  private static final String USER = "versio-webhook-replica";
  private static final String NAMESPACE = "versio-system";

  @Test
  @Timeout(
      value = 3,
      unit = java.util.concurrent.TimeUnit.MINUTES) // a missing rule stalls the sync
  void aReplicaDoesItsJobWithTheChartsReaderRoleAndItsLeaseRoleOnly(
      KubernetesClient admin, ControlPlane controlPlane, @TempDir Path certDir) throws Exception {
    replicaDoesItsJob(admin, controlPlane, certDir, false);
  }

  /**
   * Behind the shared front a replica also reads its peers' Leases (who holds what, at which
   * address) and publishes its own address: the lease Role the operator creates for a server behind
   * the front grants that, and nothing more is needed.
   */
  @Test
  @Timeout(value = 3, unit = java.util.concurrent.TimeUnit.MINUTES)
  void aReplicaBehindTheFrontFollowsItsPeersWithTheChartsReaderRoleAndItsLeaseRoleOnly(
      KubernetesClient admin, ControlPlane controlPlane, @TempDir Path certDir) throws Exception {
    replicaDoesItsJob(admin, controlPlane, certDir, true);
  }

  private static void replicaDoesItsJob(
      KubernetesClient admin, ControlPlane controlPlane, Path certDir, boolean front)
      throws Exception {
    var server = front ? "rbac-front" : "rbac-ws";
    // a user per variant: the two share this apiserver, and one's lease Role must not help the
    // other
    var userName = USER + "-" + server;
    OperatorFixture.installVersioCrds(admin);
    admin
        .namespaces()
        .resource(
            new NamespaceBuilder().withNewMetadata().withName(NAMESPACE).endMetadata().build())
        .serverSideApply();
    Subject user =
        new SubjectBuilder()
            .withKind("User")
            .withName(userName)
            .withApiGroup("rbac.authorization.k8s.io")
            .build();
    var reader = chartClusterRole(admin, "versio-webhook-server");
    admin.resource(reader).serverSideApply();
    admin
        .resource(
            new ClusterRoleBindingBuilder()
                .withNewMetadata()
                .withName("versio-webhook-server-under-test-" + server)
                .endMetadata()
                .withNewRoleRef("rbac.authorization.k8s.io", "ClusterRole", "versio-webhook-server")
                .withSubjects(user)
                .build())
        .serverSideApply();
    var children =
        new WebhookServerChildren(ChildApis.from(java.util.Set.of()), "img", front)
            .of(OperatorFixture.serviceModeServer(server, NAMESPACE), NAMESPACE);
    var leaseRole = children.leaseRole();
    leaseRole.getMetadata().setOwnerReferences(List.of());
    admin.resource(leaseRole).serverSideApply();
    var leaseBinding = children.leaseRoleBinding();
    leaseBinding.getMetadata().setOwnerReferences(List.of());
    leaseBinding.setSubjects(List.of(user));
    admin.resource(leaseBinding).serverSideApply();

    var caBundle = OperatorFixture.writeCertificate(certDir);
    var crd = OperatorFixture.widgetCrd(server + ".example.test", "widgets", "Widget");
    admin.resource(crd).serverSideApply();
    var target = crd.getMetadata().getName();
    Crds.awaitEstablished(admin, target);
    admin.resource(OperatorFixture.urlServer(server, "https://127.0.0.1:1", caBundle)).create();
    admin.resource(OperatorFixture.renameConfig(server, target, server)).create();
    int port = front ? LoopbackPorts.free() : 0;
    Forwarding forwarding = null;
    if (front) {
      var peerCa = certDir.resolve("ca.crt");
      Files.write(peerCa, java.util.Base64.getDecoder().decode(caBundle));
      forwarding = new Forwarding("127.0.0.1:" + port, peerCa, Forwarding.DEFAULT_TIMEOUT);
    }

    var options =
        new WebhookServerOptions(
            server,
            certDir,
            "127.0.0.1",
            port,
            0,
            Duration.ofSeconds(5),
            WebhookServerOptions.DEFAULT_MAX_BODY_BYTES,
            2,
            null,
            Duration.ofMillis(500),
            false,
            false);
    try (var restricted = controlPlane.clientAs(userName)) {
      var replica =
          WebhookServer.start(
              restricted,
              options,
              Clock.systemUTC(),
              ReviewTracing.off(),
              new ServedTargetsPublication(
                  new ReplicaIdentity(server + "-0", "uid-0", NAMESPACE), Duration.ofSeconds(1)),
              forwarding);
      try {
        assertThat(replica.ready()).isTrue();
        await()
            .atMost(Duration.ofSeconds(30))
            .until(() -> servedTargets(admin), served -> served.contains(target));
        if (front) {
          assertThat(admin.leases().inNamespace(NAMESPACE).list().getItems())
              .singleElement()
              .satisfies(
                  l ->
                      assertThat(l.getMetadata().getAnnotations())
                          .containsEntry(ServedTargetsCodec.PEER_ADDRESS, "127.0.0.1:" + port));
        }
      } finally {
        replica.close();
      }
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> admin.leases().inNamespace(NAMESPACE).list().getItems().isEmpty());
    }
  }

  /** The targets the replica's Leases list (decoded as the operator reads them). */
  private static java.util.Set<String> servedTargets(KubernetesClient admin) {
    var parts =
        admin.leases().inNamespace(NAMESPACE).list().getItems().stream()
            .map(l -> l.getMetadata().getAnnotations())
            .toList();
    if (parts.isEmpty()) {
      return java.util.Set.of();
    }
    return ServedTargetsCodec.decode(parts) instanceof ServedTargetsCodec.Decoded.Readable r
        ? r.targets()
        : java.util.Set.of();
  }

  private static ClusterRole chartClusterRole(KubernetesClient admin, String name)
      throws Exception {
    try (var in =
        Files.newInputStream(ExampleStory.repositoryRoot().resolve("deploy/versio.yaml"))) {
      List<HasMetadata> objects = admin.load(in).items();
      return objects.stream()
          .filter(o -> o instanceof ClusterRole && name.equals(o.getMetadata().getName()))
          .map(ClusterRole.class::cast)
          .findFirst()
          .orElseThrow(
              () -> new AssertionError("no ClusterRole " + name + " in deploy/versio.yaml"));
    }
  }
}
