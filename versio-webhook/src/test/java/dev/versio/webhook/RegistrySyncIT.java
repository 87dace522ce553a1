package dev.versio.webhook;

import static org.awaitility.Awaitility.await;

import dev.versio.api.server.ConversionWebhookServer;
import dev.versio.testkit.ControlPlane;
import dev.versio.testkit.KubeApiServerTest;
import dev.versio.testkit.KubeTestScope;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How a replica's registry follows configs that share a target, and what it recompiles. */
@KubeApiServerTest
class RegistrySyncIT {
  private static double compiles(WebhookServer server) throws Exception {
    try (var http = HttpClient.newHttpClient()) {
      var body =
          http.send(
                  HttpRequest.newBuilder(
                          URI.create("http://127.0.0.1:" + server.opsPort() + "/metrics"))
                      .build(),
                  HttpResponse.BodyHandlers.ofString())
              .body();
      return body.lines()
          .filter(l -> l.startsWith("versio_webhook_compile_duration_seconds_count"))
          .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
          .sum();
    }
  }

  /** The server object and a Gizmo CRD whose webhook names it; returns the CRD's name. */
  private static String serveGizmos(
      KubernetesClient client,
      KubeTestScope scope,
      String serverName,
      WebhookServer server,
      String caBundle) {
    client
        .resource(WebhookFixture.serverObject(serverName, server.conversionPort(), caBundle))
        .serverSideApply();
    var group = scope.apiGroup();
    client
        .resource(PlanLifecycleIT.crd(group, server.conversionPort(), caBundle))
        .serverSideApply();
    WebhookFixture.awaitEstablished(client, "gizmos." + group);
    return "gizmos." + group;
  }

  @Test
  void deletingOneOfTwoConfigsForATargetHandsTheTargetToTheOtherAtOnce(
      KubernetesClient client,
      ControlPlane controlPlane,
      KubeTestScope scope,
      @TempDir Path certDir)
      throws Exception {
    WebhookFixture.installVersioCrds(client);
    var caBundle = WebhookFixture.writeCertificate(certDir);
    var serverName = scope.name("shared");
    try (var server = WebhookFixture.start(controlPlane, serverName, certDir)) {
      var crdName = serveGizmos(client, scope, serverName, server, caBundle);
      var first = PlanLifecycleIT.config(crdName, serverName, "spec.replicas");
      first.getMetadata().setName(scope.name("a"));
      var second = PlanLifecycleIT.config(crdName, serverName, "spec.replicas");
      second.getMetadata().setName(scope.name("b"));
      client.resource(second).serverSideApply();
      client.resource(first).serverSideApply();
      await()
          .atMost(Duration.ofSeconds(30))
          .until(
              () -> server.registry().get(crdName).map(e -> e.config()).orElse(""),
              c -> c.equals("crd/" + scope.name("a")));

      client.resource(first).delete();
      await()
          .atMost(Duration.ofSeconds(10))
          .until(
              () ->
                  server
                      .registry()
                      .get(crdName)
                      .map(e -> e.servable() ? e.config() : "")
                      .orElse(""),
              c -> c.equals("crd/" + scope.name("b")));
    }
  }

  @Test
  void aChangeOfAServersStatusRecompilesNothingAndAConfigChangeRecompilesOnlyThatConfig(
      KubernetesClient client,
      ControlPlane controlPlane,
      KubeTestScope scope,
      @TempDir Path certDir)
      throws Exception {
    WebhookFixture.installVersioCrds(client);
    var caBundle = WebhookFixture.writeCertificate(certDir);
    var serverName = scope.name("quiet");
    try (var server = WebhookFixture.start(controlPlane, serverName, certDir)) {
      var crdName = serveGizmos(client, scope, serverName, server, caBundle);
      var config = PlanLifecycleIT.config(crdName, serverName, "spec.replicas");
      client.resource(config).serverSideApply();
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> server.registry().get(crdName).map(e -> e.servable()).orElse(false));
      await().atMost(Duration.ofSeconds(10)).until(() -> compiles(server) >= 1);
      var before = compiles(server);

      // a status write (what the operator does every reconcile) reaches every replica
      var live = client.resources(ConversionWebhookServer.class).withName(serverName).get();
      live.setStatus(new dev.versio.api.server.ConversionWebhookServerStatus());
      live.getStatus().reportingReplicas = 1;
      client.resource(live).updateStatus();
      // then a real change of the config
      config.getMetadata().setAnnotations(java.util.Map.of("touch", "1"));
      config.getSpec().unmappedFieldPolicy = "Error";
      config.getSpec().driftPolicy = "FailClosed";
      client.resource(config).serverSideApply();

      await().atMost(Duration.ofSeconds(10)).until(() -> compiles(server) >= before + 1);
      await()
          .during(Duration.ofSeconds(2))
          .atMost(Duration.ofSeconds(5))
          .until(() -> compiles(server) == before + 1);
    }
  }
}
