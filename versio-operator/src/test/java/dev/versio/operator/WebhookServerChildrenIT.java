package dev.versio.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.versio.api.server.ConversionWebhookServer;
import dev.versio.testkit.KubeApiServerTest;
import dev.versio.testkit.KubeTestScope;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.time.Clock;
import java.time.Duration;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * A Service-mode server's children on a real apiserver: created with the server as their
 * controlling owner, the autoscaler and disruption budget created and deleted with the spec in the
 * API versions the 1.20 apiserver serves, and an edit of the Deployment taken back.
 */
@KubeApiServerTest
class WebhookServerChildrenIT {
  private static Deployment awaitDeployment(
      KubernetesClient client, String namespace, String name, Predicate<Deployment> condition) {
    return await()
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(100))
        .until(
            () -> client.apps().deployments().inNamespace(namespace).withName(name).get(),
            d -> d != null && condition.test(d));
  }

  private static void awaitServiceReady(
      KubernetesClient client, String server, String status, String reason) {
    awaitCondition(client, server, "ServiceReady", status, reason);
  }

  private static void awaitCondition(
      KubernetesClient client, String server, String type, String status, String reason) {
    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () -> client.resources(ConversionWebhookServer.class).withName(server).get(),
            s ->
                s != null
                    && s.getStatus() != null
                    && dev.versio.operator.status.Conditions.find(s.getStatus().conditions, type)
                        .map(c -> status.equals(c.getStatus()) && reason.equals(c.getReason()))
                        .orElse(false));
  }

  private static boolean exists(
      KubernetesClient client, String apiVersion, String kind, String namespace, String name) {
    return client
            .genericKubernetesResources(apiVersion, kind)
            .inNamespace(namespace)
            .withName(name)
            .get()
        != null;
  }

  @Test
  void aServerAskingForAnImageOrNamespaceTheOperatorMayNotUseGetsNoChildrenUntilItsSpecIsFixed(
      KubernetesClient client, KubeTestScope scope) throws Exception {
    OperatorFixture.installVersioCrds(client);
    var namespace = scope.namespace();
    var name = scope.name("refused");
    var elsewhere = scope.name("elsewhere");
    // production defaults: children only in the operator's namespace and the one allowed here,
    // cached per namespace; images only from the operator's repository
    var options =
        OperatorFixture.options().toBuilder()
            .serverNamespaces(java.util.List.of(namespace))
            .build();
    try (var operator = OperatorFixture.start(client, options, Clock.systemUTC())) {
      var server = OperatorFixture.serviceModeServer(name, namespace);
      server.getSpec().image = new dev.versio.api.server.ConversionWebhookServerSpec.Image();
      server.getSpec().image.repository = "evil.example/miner";
      client.resource(server).create();
      client.resource(OperatorFixture.serviceModeServer(elsewhere, "kube-system")).create();

      awaitCondition(client, name, "Available", "False", "SpecRefused");
      awaitCondition(client, elsewhere, "Available", "False", "SpecRefused");
      assertThat(client.resources(ConversionWebhookServer.class).withName(name).get().getStatus())
          .extracting(s -> dev.versio.operator.status.Conditions.find(s.conditions, "Available"))
          .asString()
          .contains(
              "spec.image.repository 'evil.example/miner' is not an allowed image repository");
      var child = name + "-webhook-server";
      assertThat(client.apps().deployments().inNamespace(namespace).withName(child).get()).isNull();
      assertThat(client.serviceAccounts().inNamespace(namespace).withName(child).get()).isNull();
      assertThat(
              client
                  .apps()
                  .deployments()
                  .inNamespace("kube-system")
                  .withName(elsewhere + "-webhook-server")
                  .get())
          .isNull();

      // the fix: no image of its own, so the operator's; the children appear, and the watch of
      // the allowed namespace sees the Deployment (its status is read from the cache)
      client
          .resources(ConversionWebhookServer.class)
          .withName(name)
          .edit(
              s -> {
                s.getSpec().image = null;
                return s;
              });
      awaitDeployment(client, namespace, child, d -> true);
      OperatorFixture.writeDeploymentStatusAsTheControllerWould(client, namespace, child, 2);
      awaitCondition(client, name, "Available", "True", "DeploymentAvailable");

      for (var s : java.util.List.of(name, elsewhere)) {
        client.resources(ConversionWebhookServer.class).withName(s).delete();
      }
      await()
          .atMost(Duration.ofSeconds(30))
          .until(
              () ->
                  client.resources(ConversionWebhookServer.class).withName(name).get() == null
                      && client.resources(ConversionWebhookServer.class).withName(elsewhere).get()
                          == null);
    }
  }

  @Test
  void aServiceModeServerGetsItsChildrenAndKeepsThemAsItsSpecSays(
      KubernetesClient client, KubeTestScope scope) throws Exception {
    OperatorFixture.installVersioCrds(client);
    var namespace = scope.namespace();
    var name = scope.name("svc");
    var child = name + "-webhook-server";
    try (var operator =
        OperatorFixture.start(client, OperatorFixture.options(), Clock.systemUTC())) {
      client.resource(OperatorFixture.serviceModeServer(name, namespace)).create();
      var uid =
          client
              .resources(ConversionWebhookServer.class)
              .withName(name)
              .get()
              .getMetadata()
              .getUid();

      var deployment = awaitDeployment(client, namespace, child, d -> true);
      assertThat(deployment.getMetadata().getOwnerReferences())
          .singleElement()
          .satisfies(
              o -> {
                assertThat(o.getUid()).isEqualTo(uid);
                assertThat(o.getController()).isTrue();
              });
      var container = deployment.getSpec().getTemplate().getSpec().getContainers().getFirst();
      assertThat(container.getArgs()).startsWith("webhook-server", "--server-name", name);
      assertThat(deployment.getSpec().getReplicas()).isEqualTo(2);
      await()
          .atMost(Duration.ofSeconds(30))
          .until(
              () ->
                  client.services().inNamespace(namespace).withName(child).get() != null
                      && client.serviceAccounts().inNamespace(namespace).withName(child).get()
                          != null
                      && client
                              .rbac()
                              .roles()
                              .inNamespace(namespace)
                              .withName(child + "-leases")
                              .get()
                          != null
                      && client
                              .rbac()
                              .roleBindings()
                              .inNamespace(namespace)
                              .withName(child + "-leases")
                              .get()
                          != null
                      && client
                              .rbac()
                              .clusterRoleBindings()
                              .withName("versio-webhook-server-" + name)
                              .get()
                          != null);
      assertThat(exists(client, "autoscaling/v2beta2", "HorizontalPodAutoscaler", namespace, child))
          .isFalse();

      // ServiceReady means a replica can be reached through the Service, not that it exists
      awaitServiceReady(client, name, "False", "NoReadyEndpoints");
      OperatorFixture.writeEndpointsAsTheControllerWould(client, namespace, child);
      awaitServiceReady(client, name, "True", "ServiceReady");

      // someone edits the Deployment: the operator takes it back
      client
          .apps()
          .deployments()
          .inNamespace(namespace)
          .withName(child)
          .patch(
              PatchContext.of(PatchType.JSON),
              "[{\"op\":\"replace\",\"path\":\"/spec/template/spec/containers/0/image\",\"value\":\"edited:1\"}]");
      awaitDeployment(
          client,
          namespace,
          child,
          d ->
              !"edited:1"
                  .equals(
                      d.getSpec().getTemplate().getSpec().getContainers().getFirst().getImage()));

      // an autoscaler and a disruption budget, in the versions a 1.20 apiserver serves
      OperatorFixture.mergePatch(
          client,
          ConversionWebhookServer.class,
          name,
          "{\"spec\":{\"autoscaling\":{\"minReplicas\":2,\"maxReplicas\":4},"
              + "\"podDisruptionBudget\":{\"maxUnavailable\":1}}}");
      await()
          .atMost(Duration.ofSeconds(30))
          .until(
              () ->
                  exists(client, "autoscaling/v2beta2", "HorizontalPodAutoscaler", namespace, child)
                      && exists(client, "policy/v1beta1", "PodDisruptionBudget", namespace, child));

      // and gone again when the spec drops them
      OperatorFixture.mergePatch(
          client,
          ConversionWebhookServer.class,
          name,
          "{\"spec\":{\"autoscaling\":null,\"podDisruptionBudget\":null}}");
      await()
          .atMost(Duration.ofSeconds(60))
          .until(
              () ->
                  !exists(
                          client,
                          "autoscaling/v2beta2",
                          "HorizontalPodAutoscaler",
                          namespace,
                          child)
                      && !exists(
                          client, "policy/v1beta1", "PodDisruptionBudget", namespace, child));
      assertThat(awaitDeployment(client, namespace, child, d -> true).getSpec().getReplicas())
          .as("replicas are the operator's again once nothing autoscales")
          .isEqualTo(2);
    }
  }
}
