package dev.versio.webhook.served;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.versio.api.served.ServedTargetsCodec;
import dev.versio.api.served.ServedTargetsCodec.Decoded;
import dev.versio.engine.compile.CompiledConfig;
import dev.versio.engine.route.Router;
import dev.versio.testkit.ControlPlane;
import dev.versio.testkit.KubeApiServerTest;
import dev.versio.testkit.KubeTestScope;
import dev.versio.webhook.registry.RegistryEntry;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** A replica's served targets, as Leases on a real apiserver. */
@KubeApiServerTest
class ServedTargetsPublisherIT {
  private static final Router ROUTER =
      new Router(new CompiledConfig("CRD t", "v2", Map.of(), List.of()), "example.com");

  private static Map<String, RegistryEntry> registry(List<String> servable, List<String> failed) {
    var out = new HashMap<String, RegistryEntry>();
    for (var t : servable) {
      out.put(
          t,
          new RegistryEntry(
              t, Optional.of(ROUTER), "crd/" + t, "gen=1/1", Instant.EPOCH, null, null));
    }
    for (var t : failed) {
      out.put(
          t, new RegistryEntry(t, Optional.empty(), "crd/" + t, null, null, "boom", Instant.EPOCH));
    }
    return out;
  }

  /** The parts of the replica's Leases, read as the operator would (by label). */
  private static List<Lease> parts(KubernetesClient client, String namespace, String pod) {
    return client
        .leases()
        .inNamespace(namespace)
        .withLabel(ServedTargetsCodec.REPLICA_LABEL, pod)
        .list()
        .getItems();
  }

  private static Decoded read(KubernetesClient client, String namespace, String pod) {
    var annotations = new ArrayList<Map<String, String>>();
    parts(client, namespace, pod).forEach(l -> annotations.add(l.getMetadata().getAnnotations()));
    return ServedTargetsCodec.decode(annotations);
  }

  private static List<String> names(int n) {
    var out = new ArrayList<String>();
    for (int i = 0; i < n; i++) {
      out.add(String.format("r%07dx%08x.example.com", i, i * 2654435761L & 0xffffffffL));
    }
    return out;
  }

  @Test
  void aReplicaPublishesItsServableTargetsRepublishesOnChangeRenewsAndDeletesOnStop(
      KubernetesClient client, KubeTestScope scope) {
    var namespace = scope.namespace();
    var pod = scope.name("replica");
    var identity = new ReplicaIdentity(pod, null, namespace);
    var publisher =
        new ServedTargetsPublisher(
            client, identity, "default", Clock.systemUTC(), Duration.ofMillis(300));
    try (publisher) {
      publisher.changed(registry(List.of("early.example.com"), List.of()));
      assertThat(parts(client, namespace, pod)).as("nothing before start").isEmpty();

      publisher.start(
          registry(List.of("b.example.com", "a.example.com"), List.of("bad.example.com")));
      await()
          .atMost(Duration.ofSeconds(20))
          .until(
              () -> read(client, namespace, pod),
              d ->
                  d.equals(
                      new Decoded.Readable(
                          new TreeSet<>(List.of("a.example.com", "b.example.com")))));
      var lease = client.leases().inNamespace(namespace).withName("versio-served-" + pod).get();
      assertThat(lease.getMetadata().getLabels())
          .containsEntry(ServedTargetsCodec.SERVER_LABEL, "default");
      assertThat(lease.getSpec().getHolderIdentity()).isEqualTo(pod);

      // renewed every heartbeat while nothing changes
      var renewed = lease.getSpec().getRenewTime();
      await()
          .atMost(Duration.ofSeconds(20))
          .until(
              () ->
                  client
                      .leases()
                      .inNamespace(namespace)
                      .withName("versio-served-" + pod)
                      .get()
                      .getSpec()
                      .getRenewTime(),
              t -> t.isAfter(renewed));

      // 100,000 targets: spread over numbered Leases, read back identical
      var many = names(100_000);
      publisher.changed(registry(many, List.of()));
      await()
          .atMost(Duration.ofSeconds(60))
          .until(
              () -> read(client, namespace, pod),
              d -> d.equals(new Decoded.Readable(new TreeSet<>(many))));
      assertThat(parts(client, namespace, pod)).hasSizeGreaterThan(1);

      // back to one: the extra parts go
      publisher.changed(registry(List.of("a.example.com"), List.of()));
      await().atMost(Duration.ofSeconds(20)).until(() -> parts(client, namespace, pod).size() == 1);
      assertThat(read(client, namespace, pod))
          .isEqualTo(new Decoded.Readable(new TreeSet<>(List.of("a.example.com"))));
    }
    assertThat(parts(client, namespace, pod)).as("deleted on a clean stop").isEmpty();
  }

  @Test
  void partZeroCarriesTheReviewsReportFromTheFirstWriteAndEveryRenewalRefreshesIt(
      KubernetesClient client, KubeTestScope scope) {
    var namespace = scope.namespace();
    var pod = scope.name("reporter");
    var seen = new dev.versio.webhook.metrics.VersionsSeen(Clock.systemUTC());
    var publisher =
        new ServedTargetsPublisher(
            client,
            new ReplicaIdentity(pod, null, namespace),
            "default",
            Clock.systemUTC(),
            Duration.ofMillis(300),
            null,
            () ->
                dev.versio.api.served.VersionsSeenCodec.annotations(seen.snapshot(), seen.since()));
    try (publisher) {
      publisher.start(registry(List.of("a.example.com"), List.of()));
      var first =
          await()
              .atMost(Duration.ofSeconds(20))
              .until(
                  () ->
                      client.leases().inNamespace(namespace).withName("versio-served-" + pod).get(),
                  l -> l != null);
      var report =
          dev.versio.api.served.VersionsSeenCodec.decode(first.getMetadata().getAnnotations())
              .orElseThrow();
      assertThat(report.since())
          .isEqualTo(seen.since().truncatedTo(java.time.temporal.ChronoUnit.SECONDS));
      assertThat(report.byTarget()).isEmpty();

      // a review at v1 of a.example.com: the next renewal publishes it
      seen.record("a.example.com", "v1", "v2");
      var renewed =
          await()
              .atMost(Duration.ofSeconds(20))
              .until(
                  () ->
                      dev.versio.api.served.VersionsSeenCodec.decode(
                              client
                                  .leases()
                                  .inNamespace(namespace)
                                  .withName("versio-served-" + pod)
                                  .get()
                                  .getMetadata()
                                  .getAnnotations())
                          .orElseThrow(),
                  r -> r.byTarget().containsKey("a.example.com"));
      assertThat(renewed.byTarget().get("a.example.com")).containsOnlyKeys("v1", "v2");
      assertThat(read(client, namespace, pod))
          .as("the served targets read as before")
          .isEqualTo(new Decoded.Readable(new TreeSet<>(List.of("a.example.com"))));
    }
  }

  @Test
  void aReplicaNeedsOnlyGetCreateUpdateAndDeleteOnLeasesInItsNamespace(
      KubernetesClient admin, ControlPlane controlPlane, KubeTestScope scope) {
    var namespace = scope.namespace();
    var user = scope.name("replica-sa");
    admin
        .rbac()
        .roles()
        .inNamespace(namespace)
        .resource(
            new RoleBuilder()
                .withNewMetadata()
                .withName("served-targets")
                .endMetadata()
                .addNewRule()
                .withApiGroups("coordination.k8s.io")
                .withResources("leases")
                .withVerbs("get", "create", "update", "delete")
                .endRule()
                .build())
        .create();
    admin
        .rbac()
        .roleBindings()
        .inNamespace(namespace)
        .resource(
            new RoleBindingBuilder()
                .withNewMetadata()
                .withName("served-targets")
                .endMetadata()
                .withNewRoleRef("rbac.authorization.k8s.io", "Role", "served-targets")
                .addNewSubject()
                .withKind("User")
                .withName(user)
                .withApiGroup("rbac.authorization.k8s.io")
                .endSubject()
                .build())
        .create();
    var pod = scope.name("limited");
    var many = names(100_000);
    try (var limited = controlPlane.clientAs(user)) {
      var publisher =
          new ServedTargetsPublisher(
              limited,
              new ReplicaIdentity(pod, null, namespace),
              "default",
              Clock.systemUTC(),
              Duration.ofSeconds(30));
      try (publisher) {
        publisher.start(registry(many, List.of()));
        await()
            .atMost(Duration.ofSeconds(60))
            .until(
                () -> read(admin, namespace, pod),
                d -> d.equals(new Decoded.Readable(new TreeSet<>(many))));
        publisher.changed(registry(List.of("a.example.com"), List.of()));
        await()
            .atMost(Duration.ofSeconds(20))
            .until(() -> parts(admin, namespace, pod).size() == 1);
      }
      assertThat(parts(admin, namespace, pod)).isEmpty();
    }
  }
}
