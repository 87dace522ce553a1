package dev.versio.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.versio.api.config.NameRef;
import dev.versio.testkit.ControlPlane;
import dev.versio.testkit.KubeApiServerTest;
import dev.versio.testkit.KubeTestScope;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The losing side of a move: a replica keeps a target's plan while the target is assigned to its
 * server OR the live CRD still names the server, and for the drain period after both stopped — so
 * reviews the apiserver sent before the switch still find a plan.
 */
@KubeApiServerTest
class DrainIT {
  @Test
  void aTargetAssignedElsewhereIsServedWhileTheCrdNamesThisServerAndForTheDrainAfter(
      KubernetesClient client,
      ControlPlane controlPlane,
      KubeTestScope scope,
      @TempDir Path certDir)
      throws Exception {
    WebhookFixture.installVersioCrds(client);
    var caBundle = WebhookFixture.writeCertificate(certDir);
    var from = scope.name("from");
    var to = scope.name("to");
    var drain = Duration.ofSeconds(3);
    var options =
        new WebhookServerOptions(
                from,
                certDir,
                "127.0.0.1",
                0,
                0,
                Duration.ofMillis(500),
                WebhookServerOptions.DEFAULT_MAX_BODY_BYTES,
                2,
                null)
            .withDrain(drain);
    try (var server = WebhookServer.start(client, options, Clock.systemUTC())) {
      client
          .resource(WebhookFixture.serverObject(from, server.conversionPort(), caBundle))
          .serverSideApply();
      client.resource(WebhookFixture.serverObject(to, 1, caBundle)).serverSideApply();
      var group = scope.apiGroup();
      var crdName = "gizmos." + group;
      client
          .resource(PlanLifecycleIT.crd(group, server.conversionPort(), caBundle))
          .serverSideApply();
      WebhookFixture.awaitEstablished(client, crdName);
      var config = PlanLifecycleIT.config(crdName, from, "spec.replicas");
      client.resource(config).serverSideApply();
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> server.registry().get(crdName).map(e -> e.servable()).orElse(false));

      // assigned elsewhere, but the CRD still names this server: kept
      config.getSpec().webhookServerRef = new NameRef(to);
      client.resource(config).serverSideApply();
      await()
          .during(Duration.ofSeconds(2))
          .atMost(Duration.ofSeconds(10))
          .until(() -> server.registry().get(crdName).isPresent());

      // the CRD stops naming it: kept for the drain, then dropped
      long switched = System.nanoTime();
      WebhookFixture.nameAnotherAddress(client, crdName);
      await().atMost(Duration.ofSeconds(30)).until(() -> server.registry().get(crdName).isEmpty());
      var held = Duration.ofNanos(System.nanoTime() - switched);
      assertThat(held).as("kept for the drain after the switch").isGreaterThanOrEqualTo(drain);
    }
  }
}
