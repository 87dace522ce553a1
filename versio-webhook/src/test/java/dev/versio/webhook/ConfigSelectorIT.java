package dev.versio.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.versio.testkit.ControlPlane;
import dev.versio.testkit.KubeApiServerTest;
import dev.versio.testkit.KubeTestScope;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --config-selector}: a replica serves only the configs whose labels match, follows a label
 * being added, and drops a config whose label is removed once its CRD no longer names the server
 * and the drain has passed.
 */
@KubeApiServerTest
class ConfigSelectorIT {
  @Test
  void onlyConfigsMatchingTheSelectorAreServedAndRelabellingMovesThemInAndOut(
      KubernetesClient client,
      ControlPlane controlPlane,
      KubeTestScope scope,
      @TempDir Path certDir)
      throws Exception {
    WebhookFixture.installVersioCrds(client);
    var caBundle = WebhookFixture.writeCertificate(certDir);
    var serverName = scope.name("selector");
    var options =
        new WebhookServerOptions(
            serverName,
            certDir,
            "127.0.0.1",
            0,
            0,
            Duration.ofMillis(500),
            WebhookServerOptions.DEFAULT_MAX_BODY_BYTES,
            2,
            "team=payments",
            WebhookFixture.DRAIN,
            false,
            false);
    try (var server = WebhookServer.start(client, options, Clock.systemUTC())) {
      client
          .resource(WebhookFixture.serverObject(serverName, server.conversionPort(), caBundle))
          .serverSideApply();
      var other = "other." + scope.apiGroup();
      var mine = "mine." + scope.apiGroup();
      for (var group : new String[] {other, mine}) {
        client
            .resource(PlanLifecycleIT.crd(group, server.conversionPort(), caBundle))
            .serverSideApply();
        WebhookFixture.awaitEstablished(client, "gizmos." + group);
      }
      // the unlabelled config first: the labelled one is handled after it by the same worker
      var unlabelled = PlanLifecycleIT.config("gizmos." + other, serverName, "spec.replicas");
      client.resource(unlabelled).serverSideApply();
      var labelled = PlanLifecycleIT.config("gizmos." + mine, serverName, "spec.replicas");
      labelled.getMetadata().setLabels(Map.of("team", "payments"));
      client.resource(labelled).serverSideApply();

      await()
          .atMost(Duration.ofSeconds(30))
          .until(
              () -> server.registry().get("gizmos." + mine).map(e -> e.servable()).orElse(false));
      assertThat(server.registry().get("gizmos." + other)).isEmpty();

      unlabelled.getMetadata().setLabels(Map.of("team", "payments"));
      client.resource(unlabelled).serverSideApply();
      await()
          .atMost(Duration.ofSeconds(30))
          .until(
              () -> server.registry().get("gizmos." + other).map(e -> e.servable()).orElse(false));

      // relabelled out of the selector: kept while its CRD still names this server, then drained
      client
          .resource(PlanLifecycleIT.config("gizmos." + mine, serverName, "spec.replicas"))
          .serverSideApply();
      await()
          .during(Duration.ofSeconds(2))
          .atMost(Duration.ofSeconds(10))
          .until(() -> server.registry().get("gizmos." + mine).isPresent());
      WebhookFixture.nameAnotherAddress(client, "gizmos." + mine);
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> server.registry().get("gizmos." + mine).isEmpty());
    }
  }
}
