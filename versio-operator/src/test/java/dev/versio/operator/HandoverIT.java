package dev.versio.operator;

import static dev.versio.operator.OperatorFixture.awaitConfig;
import static dev.versio.operator.OperatorFixture.phase;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.versio.api.config.ConversionConfigStatus;
import dev.versio.api.server.ConversionWebhookServer;
import dev.versio.engine.compile.CompiledConfig;
import dev.versio.engine.route.Router;
import dev.versio.operator.status.Conditions;
import dev.versio.testkit.Crds;
import dev.versio.testkit.KubeApiServerTest;
import dev.versio.testkit.KubeTestScope;
import dev.versio.webhook.WebhookServer;
import dev.versio.webhook.WebhookServerOptions;
import dev.versio.webhook.registry.RegistryEntry;
import dev.versio.webhook.served.ReplicaIdentity;
import dev.versio.webhook.served.ServedTargetsPublication;
import dev.versio.webhook.served.ServedTargetsPublisher;
import dev.versio.webhook.tracing.ReviewTracing;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A target moves to another server only once every live replica of the destination reports serving
 * it: until then the config waits (HandoverReady=False/Waiting) and the target keeps its old
 * endpoint; a destination that reports nothing at all is moved to after the grace period, visibly
 * unverified. A first apply is never held.
 */
@KubeApiServerTest
class HandoverIT {
  private static final Router ROUTER =
      new Router(new CompiledConfig("CRD t", "v2", Map.of(), List.of()), "example.com");

  private static WebhookServer replica(
      KubernetesClient client, String server, String pod, String namespace, Path certDir)
      throws InterruptedException {
    return WebhookServer.start(
        client,
        new WebhookServerOptions(
                server,
                certDir,
                "127.0.0.1",
                0,
                0,
                Duration.ofMillis(500),
                WebhookServerOptions.DEFAULT_MAX_BODY_BYTES,
                2,
                null)
            // a short drain: the old server's delete waits for it
            .withDrain(Duration.ofSeconds(2)),
        Clock.systemUTC(),
        ReviewTracing.off(),
        new ServedTargetsPublication(
            new ReplicaIdentity(pod, null, namespace), Duration.ofSeconds(1)));
  }

  private static String conversionUrl(KubernetesClient client, String target) {
    var conversion = OperatorFixture.conversionOf(client, target);
    return conversion.getWebhook() == null
        ? null
        : conversion.getWebhook().getClientConfig().getUrl();
  }

  private static Predicate<ConversionConfigStatus> retirement(String status, String reason) {
    return s ->
        Conditions.find(s.conditions, Conditions.RETIREMENT_READY)
            .map(c -> status.equals(c.getStatus()) && reason.equals(c.getReason()))
            .orElse(false);
  }

  private static String retirementMessage(dev.versio.api.config.CRDConversionConfig config) {
    return Conditions.find(config.getStatus().conditions, Conditions.RETIREMENT_READY)
        .orElseThrow()
        .getMessage();
  }

  /** Marks v1 of the CRD {@code target} deprecated (or not) and served (or not). */
  private static void setV1(
      KubernetesClient client, String target, boolean deprecated, boolean served) {
    client
        .apiextensions()
        .v1()
        .customResourceDefinitions()
        .withName(target)
        .edit(
            c -> {
              c.getSpec().getVersions().stream()
                  .filter(v -> v.getName().equals("v1"))
                  .forEach(
                      v -> {
                        v.setDeprecated(deprecated);
                        v.setServed(served);
                      });
              return c;
            });
  }

  private static Predicate<ConversionConfigStatus> handover(String status, String reason) {
    return s ->
        Conditions.find(s.conditions, Conditions.HANDOVER_READY)
            .map(c -> status.equals(c.getStatus()) && reason.equals(c.getReason()))
            .orElse(false);
  }

  private static io.fabric8.kubernetes.client.dsl.MixedOperation<
          io.fabric8.kubernetes.api.model.GenericKubernetesResource,
          io.fabric8.kubernetes.api.model.GenericKubernetesResourceList,
          io.fabric8.kubernetes.client.dsl.Resource<
              io.fabric8.kubernetes.api.model.GenericKubernetesResource>>
      widgets(KubernetesClient client, String group, String version) {
    return client.genericKubernetesResources(OperatorFixture.widgets(group, version));
  }

  private static void repin(KubernetesClient client, String config, String server) {
    OperatorFixture.mergePatch(
        client,
        dev.versio.api.config.CRDConversionConfig.class,
        config,
        "{\"spec\":{\"webhookServerRef\":{\"name\":\"" + server + "\"}}}");
  }

  @Test
  void aMoveWaitsUntilEveryLiveReplicaOfTheDestinationServesTheTarget(
      KubernetesClient client, KubeTestScope scope, @TempDir Path certDir) throws Exception {
    OperatorFixture.installVersioCrds(client);
    var caBundle = OperatorFixture.writeCertificate(certDir);
    var group = scope.apiGroup();
    var crd = OperatorFixture.widgetCrd(group, "widgets", "Widget");
    client.resource(crd).serverSideApply();
    var target = crd.getMetadata().getName();
    Crds.awaitEstablished(client, target);
    var namespace = scope.namespace();
    var a = scope.name("from");
    var b = scope.name("to");
    var config = scope.name("moving");
    try (var replicaA = replica(client, a, a + "-0", namespace, certDir);
        var replicaB = replica(client, b, b + "-0", namespace, certDir);
        var laggard =
            new ServedTargetsPublisher(
                client,
                new ReplicaIdentity(b + "-1", null, namespace),
                b,
                Clock.systemUTC(),
                Duration.ofSeconds(1))) {
      var urlA = "https://127.0.0.1:" + replicaA.conversionPort();
      var urlB = "https://127.0.0.1:" + replicaB.conversionPort();
      client.resource(OperatorFixture.urlServer(a, urlA, caBundle)).serverSideApply();
      client.resource(OperatorFixture.urlServer(b, urlB, caBundle)).serverSideApply();
      try (var operator =
          OperatorFixture.start(client, OperatorFixture.options(), Clock.systemUTC())) {
        client.resource(OperatorFixture.renameConfig(config, target, a)).create();
        var first = awaitConfig(client, config, phase("Applied"));
        assertThat(first.getStatus().webhookURL).startsWith(urlA);
        assertThat(Conditions.find(first.getStatus().conditions, Conditions.HANDOVER_READY))
            .as("a first apply is not a move")
            .isEmpty();

        // a second replica of the destination that does not serve the target yet
        laggard.start(Map.of());
        repin(client, config, b);
        var held = awaitConfig(client, config, handover("False", "Waiting"));
        assertThat(held.getStatus().phase).isEqualTo("Stale");
        assertThat(conversionUrl(client, target))
            .as("the target keeps its old endpoint while the move waits")
            .startsWith(urlA);
        // the old server is still in use while the target names it, though nothing is assigned
        client.resources(ConversionWebhookServer.class).withName(a).delete();
        var blocked =
            await()
                .atMost(Duration.ofSeconds(30))
                .until(
                    () -> client.resources(ConversionWebhookServer.class).withName(a).get(),
                    s ->
                        s != null
                            && s.getStatus() != null
                            && Conditions.isTrue(
                                s.getStatus().conditions, Conditions.DELETION_BLOCKED));
        assertThat(
                Conditions.find(blocked.getStatus().conditions, Conditions.DELETION_BLOCKED)
                    .orElseThrow()
                    .getMessage())
            .contains("still send their conversions to this server")
            .contains(target);

        laggard.changed(
            Map.of(
                target,
                new RegistryEntry(
                    target, Optional.of(ROUTER), "crd/" + config, "x", Instant.EPOCH, null, null)));
        var moved = awaitConfig(client, config, handover("True", "HandoverReady"));
        assertThat(moved.getStatus().phase).isEqualTo("Applied");
        assertThat(moved.getStatus().webhookURL).startsWith(urlB);
        assertThat(conversionUrl(client, target)).startsWith(urlB);
        // a read at v1 is a review at the destination, whose Lease then reports v1 as used
        var v2 = widgets(client, group, "v2").inNamespace(namespace);
        v2.resource(
                new io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder()
                    .withApiVersion(group + "/v2")
                    .withKind("Widget")
                    .withNewMetadata()
                    .withName("read-at-v1")
                    .endMetadata()
                    .withAdditionalProperties(Map.of("spec", Map.of("replicas", 3)))
                    .build())
            .create();
        assertThat(
                widgets(client, group, "v1")
                    .inNamespace(namespace)
                    .withName("read-at-v1")
                    .get()
                    .getAdditionalProperties()
                    .get("spec"))
            .isEqualTo(Map.of("size", 3));
        var report =
            await()
                .atMost(Duration.ofSeconds(20))
                .until(
                    () ->
                        dev.versio.api.served.VersionsSeenCodec.decode(
                            client
                                .leases()
                                .inNamespace(namespace)
                                .withName("versio-served-" + b + "-0")
                                .get()
                                .getMetadata()
                                .getAnnotations()),
                    r ->
                        r.isPresent()
                            && r.get().byTarget().getOrDefault(target, Map.of()).containsKey("v1"));
        assertThat(report.orElseThrow().byTarget().get(target)).containsKey("v1");
        // moved: the old server is no longer named, and its delete goes through
        await()
            .atMost(Duration.ofSeconds(30))
            .until(() -> client.resources(ConversionWebhookServer.class).withName(a).get() == null);
        // retirement: v1 deprecated but just read is in use; once no longer served, removable
        setV1(client, target, true, true);
        var inUse = awaitConfig(client, config, retirement("False", "VersionInUse"));
        assertThat(retirementMessage(inUse))
            .contains("v1: a review touched it within the last hour");
        setV1(client, target, true, false);
        var removable = awaitConfig(client, config, retirement("True", "VersionsRetirable"));
        assertThat(retirementMessage(removable))
            .contains("Can be removed now: v1 (neither served nor stored)");
      }
    }
  }

  @Test
  void aDestinationThatReportsNothingIsMovedToAfterTheGracePeriodAsUnverified(
      KubernetesClient client, KubeTestScope scope, @TempDir Path certDir) throws Exception {
    OperatorFixture.installVersioCrds(client);
    var caBundle = OperatorFixture.writeCertificate(certDir);
    var crd = OperatorFixture.widgetCrd(scope.apiGroup(), "widgets", "Widget");
    client.resource(crd).serverSideApply();
    var target = crd.getMetadata().getName();
    Crds.awaitEstablished(client, target);
    var a = scope.name("from");
    var silent = scope.name("silent");
    var config = scope.name("moving");
    try (var replicaA = OperatorFixture.startWebhookServer(client, a, certDir);
        var replicaSilent = OperatorFixture.startWebhookServer(client, silent, certDir)) {
      var urlSilent = "https://127.0.0.1:" + replicaSilent.conversionPort();
      client
          .resource(
              OperatorFixture.urlServer(
                  a, "https://127.0.0.1:" + replicaA.conversionPort(), caBundle))
          .serverSideApply();
      client.resource(OperatorFixture.urlServer(silent, urlSilent, caBundle)).serverSideApply();
      var options =
          OperatorFixture.options().toBuilder().handoverGrace(Duration.ofSeconds(3)).build();
      try (var operator = OperatorFixture.start(client, options, Clock.systemUTC())) {
        client.resource(OperatorFixture.renameConfig(config, target, a)).create();
        awaitConfig(client, config, phase("Applied"));

        repin(client, config, silent);
        awaitConfig(client, config, handover("False", "Waiting"));
        var moved = awaitConfig(client, config, handover("Unknown", "HandoverUnverified"));
        assertThat(moved.getStatus().webhookURL).startsWith(urlSilent);
        assertThat(conversionUrl(client, target)).startsWith(urlSilent);
      }
    }
  }
}
