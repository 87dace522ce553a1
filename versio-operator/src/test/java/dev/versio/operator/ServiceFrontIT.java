package dev.versio.operator;

import static dev.versio.operator.OperatorFixture.awaitConfig;
import static dev.versio.operator.OperatorFixture.phase;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.versio.api.config.CRDConversionConfig;
import dev.versio.api.served.ServedTargetsCodec;
import dev.versio.operator.server.children.WebhookServerChildren;
import dev.versio.operator.tls.TlsMaterial;
import dev.versio.testkit.Crds;
import dev.versio.testkit.KubeApiServerTest;
import dev.versio.testkit.KubeTestScope;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Service mode behind the shared front ({@code versio operator --service-front}): the servers'
 * replicas are selected by one front Service per namespace and forward reviews, a target names the
 * front once, and a move between the servers is done — verified by the destination's replicas —
 * without writing the target CRD again.
 */
@KubeApiServerTest
class ServiceFrontIT {

  /**
   * The served-target Lease a replica of {@code server} publishes (no replica runs here): it serves
   * {@code targets} and takes forwarded reviews at a pod address.
   */
  private static void publishAsAReplicaWould(
      KubernetesClient client, String namespace, String server, String pod, List<String> targets) {
    var annotations = new HashMap<>(ServedTargetsCodec.encode(targets).getFirst());
    annotations.put(ServedTargetsCodec.PEER_ADDRESS, "10.0.0.1:9443");
    client
        .leases()
        .inNamespace(namespace)
        .resource(
            new LeaseBuilder()
                .withNewMetadata()
                .withName("versio-served-" + pod)
                .withNamespace(namespace)
                .withLabels(
                    Map.of(
                        ServedTargetsCodec.SERVER_LABEL,
                        server,
                        ServedTargetsCodec.REPLICA_LABEL,
                        pod))
                .withAnnotations(annotations)
                .endMetadata()
                .withNewSpec()
                .withHolderIdentity(pod)
                .withLeaseDurationSeconds(90)
                .withRenewTime(
                    ZonedDateTime.now(Clock.systemUTC())
                        .withZoneSameInstant(ZoneOffset.UTC)
                        .truncatedTo(ChronoUnit.MICROS))
                .endSpec()
                .build())
        .serverSideApply();
  }

  @Test
  void aMoveBetweenServersBehindTheFrontIsVerifiedAndLeavesTheTargetCrdAsItWas(
      KubernetesClient client, KubeTestScope scope) throws Exception {
    OperatorFixture.installVersioCrds(client);
    var namespace = scope.namespace();
    var alpha = scope.name("alpha");
    var beta = scope.name("beta");
    var options = OperatorFixture.options().toBuilder().serviceFront(true).build();
    try (var operator = OperatorFixture.start(client, options, Clock.systemUTC())) {
      var first = OperatorFixture.serviceModeServer(alpha, namespace);
      first.getSpec().isDefault = true;
      client.resource(first).create();
      client.resource(OperatorFixture.serviceModeServer(beta, namespace)).create();
      OperatorFixture.makeServerReadyAsItsControllersWould(client, namespace, alpha);
      OperatorFixture.makeServerReadyAsItsControllersWould(client, namespace, beta);

      // one front Service, owned by both servers, selecting the pods both Deployments label
      await()
          .atMost(Duration.ofSeconds(30))
          .untilAsserted(
              () -> {
                var front =
                    client
                        .services()
                        .inNamespace(namespace)
                        .withName(WebhookServerChildren.FRONT_SERVICE)
                        .get();
                assertThat(front).isNotNull();
                assertThat(front.getMetadata().getOwnerReferences())
                    .extracting(OwnerReference::getName)
                    .containsExactlyInAnyOrder(alpha, beta);
                assertThat(front.getSpec().getSelector())
                    .isEqualTo(Map.of(WebhookServerChildren.FRONT_LABEL, "true"));
              });
      var deployment =
          client
              .apps()
              .deployments()
              .inNamespace(namespace)
              .withName(WebhookServerChildren.childName(alpha))
              .get();
      assertThat(deployment.getSpec().getTemplate().getMetadata().getLabels())
          .containsEntry(WebhookServerChildren.FRONT_LABEL, "true");
      assertThat(deployment.getSpec().getTemplate().getSpec().getContainers().getFirst().getArgs())
          .contains("--forward-reviews");
      // the serving certificate also names the front, which the apiserver calls
      var secret = OperatorFixture.awaitServerTlsSecret(client, namespace, alpha);
      assertThat(
              TlsMaterial.fromSecretData(secret.getData())
                  .problem(
                      List.of(WebhookServerChildren.FRONT_SERVICE + "." + namespace + ".svc"),
                      java.time.Instant.now(),
                      Duration.ZERO))
          .isEmpty();

      // a target converted by alpha names the front, not alpha's own Service
      var crd = OperatorFixture.widgetCrd(scope.apiGroup(), "widgets", "Widget");
      client.resource(crd).serverSideApply();
      var target = crd.getMetadata().getName();
      Crds.awaitEstablished(client, target);
      var config = scope.name("front");
      client.resource(OperatorFixture.renameConfig(config, target, null)).create();
      var applied = awaitConfig(client, config, phase("Applied"));
      assertThat(applied.getStatus().servedBy).isEqualTo(alpha);
      var service = OperatorFixture.conversionOf(client, target).getWebhook().getClientConfig();
      assertThat(service.getService().getName()).isEqualTo(WebhookServerChildren.FRONT_SERVICE);
      assertThat(service.getService().getNamespace()).isEqualTo(namespace);
      long generation = OperatorFixture.crdGeneration(client, target);

      // pinned to beta: held until beta's replicas report serving the target, then done without
      // a write to the CRD
      OperatorFixture.mergePatch(
          client,
          CRDConversionConfig.class,
          config,
          "{\"spec\":{\"webhookServerRef\":{\"name\":\"" + beta + "\"}}}");
      var held =
          awaitConfig(
              client,
              config,
              s -> s.conditions.stream().anyMatch(c -> c.getType().equals("HandoverReady")));
      assertThat(held.getStatus().servedBy).as("alpha serves until beta does").isEqualTo(alpha);
      publishAsAReplicaWould(client, namespace, beta, beta + "-0", List.of(target));
      publishAsAReplicaWould(client, namespace, beta, beta + "-1", List.of(target));
      var moved = awaitConfig(client, config, s -> beta.equals(s.servedBy));
      assertThat(moved.getStatus().conditions)
          .anySatisfy(
              c -> {
                assertThat(c.getType()).isEqualTo("HandoverReady");
                assertThat(c.getStatus()).isEqualTo("True");
              });
      assertThat(moved.getStatus().phase).isEqualTo("Applied");
      assertThat(OperatorFixture.crdGeneration(client, target))
          .as("the move wrote the CRD")
          .isEqualTo(generation);
      assertThat(
              OperatorFixture.conversionOf(client, target)
                  .getWebhook()
                  .getClientConfig()
                  .getService()
                  .getName())
          .isEqualTo(WebhookServerChildren.FRONT_SERVICE);
    }
  }

  @Test
  void aTargetMovesOntoTheFrontOnceThroughTheGateWhenTheFrontIsTurnedOnAndBackOnceWhenTurnedOff(
      KubernetesClient client, KubeTestScope scope) throws Exception {
    OperatorFixture.installVersioCrds(client);
    var namespace = scope.namespace();
    var alpha = scope.name("alpha");
    var crd = OperatorFixture.widgetCrd(scope.apiGroup(), "widgets", "Widget");
    client.resource(crd).serverSideApply();
    var target = crd.getMetadata().getName();
    Crds.awaitEstablished(client, target);
    var config = scope.name("upgrade");
    // before the front: the target names alpha's own Service
    try (var operator =
        OperatorFixture.start(client, OperatorFixture.options(), Clock.systemUTC())) {
      client.resource(OperatorFixture.serviceModeServer(alpha, namespace)).create();
      OperatorFixture.makeServerReadyAsItsControllersWould(client, namespace, alpha);
      client.resource(OperatorFixture.renameConfig(config, target, alpha)).create();
      awaitConfig(client, config, phase("Applied"));
      assertThat(
              OperatorFixture.conversionOf(client, target)
                  .getWebhook()
                  .getClientConfig()
                  .getService()
                  .getName())
          .isEqualTo(WebhookServerChildren.childName(alpha));
    }
    var before = OperatorFixture.crdGeneration(client, target);
    // the operator now runs with the front: alpha's replicas are rolled with --forward-reviews
    // (the Deployment as the controller reports it), and the target moves once, only when they
    // report serving it and every live replica behind the front forwards
    var options = OperatorFixture.options().toBuilder().serviceFront(true).build();
    try (var operator = OperatorFixture.start(client, options, Clock.systemUTC())) {
      await()
          .atMost(Duration.ofSeconds(30))
          .until(
              () ->
                  client
                      .apps()
                      .deployments()
                      .inNamespace(namespace)
                      .withName(WebhookServerChildren.childName(alpha))
                      .get()
                      .getSpec()
                      .getTemplate()
                      .getMetadata()
                      .getLabels()
                      .containsKey(WebhookServerChildren.FRONT_LABEL));
      OperatorFixture.makeServerReadyAsItsControllersWould(
          client, namespace, alpha); // the rolled-out replicas, as the controller reports them
      var held =
          awaitConfig(
              client,
              config,
              s -> s.conditions.stream().anyMatch(c -> c.getType().equals("HandoverReady")));
      assertThat(held.getStatus().conditions)
          .anySatisfy(
              c -> {
                assertThat(c.getType()).isEqualTo("HandoverReady");
                assertThat(c.getStatus()).isEqualTo("False");
              });
      assertThat(OperatorFixture.crdGeneration(client, target))
          .as("held: not written yet")
          .isEqualTo(before);
      publishAsAReplicaWould(client, namespace, alpha, alpha + "-0", List.of(target));
      publishAsAReplicaWould(client, namespace, alpha, alpha + "-1", List.of(target));
      await()
          .atMost(Duration.ofSeconds(30))
          .until(
              () ->
                  WebhookServerChildren.FRONT_SERVICE.equals(
                      OperatorFixture.conversionOf(client, target)
                          .getWebhook()
                          .getClientConfig()
                          .getService()
                          .getName()));
      var moved = awaitConfig(client, config, phase("Applied"));
      assertThat(moved.getStatus().servedBy).isEqualTo(alpha);
      assertThat(moved.getStatus().conditions)
          .anySatisfy(
              c -> {
                assertThat(c.getType()).isEqualTo("HandoverReady");
                assertThat(c.getStatus()).isEqualTo("True");
              });
      assertThat(OperatorFixture.crdGeneration(client, target))
          .as("one write onto the front")
          .isEqualTo(before + 1);
    }
    // turned off again (serviceFront: false, or a rollback): the target names alpha's own Service
    // once more, with one write; alpha's pods leave the front and its replicas' lease Role loses
    // list and watch; the front Service stays, owned by alpha, until alpha goes
    try (var operator =
        OperatorFixture.start(client, OperatorFixture.options(), Clock.systemUTC())) {
      await()
          .atMost(Duration.ofSeconds(30))
          .until(
              () ->
                  WebhookServerChildren.childName(alpha)
                      .equals(
                          OperatorFixture.conversionOf(client, target)
                              .getWebhook()
                              .getClientConfig()
                              .getService()
                              .getName()));
      var back = awaitConfig(client, config, phase("Applied"));
      assertThat(back.getStatus().servedBy).isEqualTo(alpha);
      assertThat(OperatorFixture.crdGeneration(client, target))
          .as("one write off the front")
          .isEqualTo(before + 2);
      var child = WebhookServerChildren.childName(alpha);
      await()
          .atMost(Duration.ofSeconds(30))
          .untilAsserted(
              () -> {
                assertThat(
                        client
                            .apps()
                            .deployments()
                            .inNamespace(namespace)
                            .withName(child)
                            .get()
                            .getSpec()
                            .getTemplate()
                            .getMetadata()
                            .getLabels())
                    .doesNotContainKey(WebhookServerChildren.FRONT_LABEL);
                assertThat(
                        client
                            .rbac()
                            .roles()
                            .inNamespace(namespace)
                            .withName(child + "-leases")
                            .get()
                            .getRules()
                            .getFirst()
                            .getVerbs())
                    .doesNotContain("list", "watch");
              });
      assertThat(
              client
                  .services()
                  .inNamespace(namespace)
                  .withName(WebhookServerChildren.FRONT_SERVICE)
                  .get())
          .isNotNull();
    }
  }
}
