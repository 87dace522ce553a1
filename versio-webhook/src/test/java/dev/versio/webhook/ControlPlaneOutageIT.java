package dev.versio.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.versio.engine.json.EngineJson;
import dev.versio.testkit.ControlPlane;
import dev.versio.testkit.ControlPlaneAssets;
import dev.versio.testkit.tls.CertificateAuthority;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A control-plane outage under a running replica: with etcd and kube-apiserver stopped, reviews
 * sent straight to the replica keep being answered from its registry and it stays ready; once they
 * are back, its informers resume and a config change made after the outage reaches the plan; and a
 * change made while its apiserver is away, through a second apiserver on the same etcd, reaches the
 * plan once its apiserver is back. The test runs its own control plane, which it stops and starts.
 */
class ControlPlaneOutageIT {
  private static final ObjectMapper JSON = EngineJson.newMapper();

  /**
   * Long enough for every request of the informers to fail and their watches to back off a few
   * times (1, 2, 4 s), so that coming back is a real reconnection; 20 s before, which added about
   * 10 s of outage and 6 s of a longer back-off to every CI run and proved nothing more: the
   * replica has no rule that changes with the outage's length.
   */
  private static final Duration OUTAGE = Duration.ofSeconds(10);

  @Test
  void reviewsAreAnsweredThroughAnOutageAndAChangeAfterItReachesThePlan(@TempDir Path work)
      throws Exception {
    var certDir = Files.createDirectories(work.resolve("tls"));
    var ca = CertificateAuthority.create("versio-outage-it");
    var cert = ca.issueServer("127.0.0.1", "localhost");
    Files.writeString(certDir.resolve("tls.crt"), cert.certificatePem());
    Files.writeString(certDir.resolve("tls.key"), cert.privateKeyPem());
    var caBundle = ca.material().certificateBase64();
    var http =
        HttpClient.newBuilder()
            .sslContext(ca.trustingContext())
            .connectTimeout(Duration.ofSeconds(2))
            .build();
    try (var controlPlane =
            ControlPlane.start(
                ControlPlaneAssets.locate(), work.resolve("cluster"), System.out::println);
        var client = controlPlane.adminClient()) {
      WebhookFixture.installVersioCrds(client);
      var serverName = "outage";
      var options =
          new WebhookServerOptions(
              serverName,
              certDir,
              "127.0.0.1",
              0,
              0,
              Duration.ofSeconds(30),
              WebhookServerOptions.DEFAULT_MAX_BODY_BYTES,
              2,
              null);
      try (var server = WebhookServer.start(client, options, Clock.systemUTC())) {
        client
            .resource(WebhookFixture.serverObject(serverName, server.conversionPort(), caBundle))
            .serverSideApply();
        var group = "outage.example.com";
        var crdName = "gizmos." + group;
        client
            .resource(PlanLifecycleIT.crd(group, server.conversionPort(), caBundle))
            .serverSideApply();
        WebhookFixture.awaitEstablished(client, crdName);
        client
            .resource(PlanLifecycleIT.config(crdName, serverName, "spec.replicas"))
            .serverSideApply();
        await()
            .atMost(Duration.ofSeconds(30))
            .until(() -> server.registry().get(crdName).map(e -> e.servable()).orElse(false));
        var convert =
            URI.create("https://127.0.0.1:" + server.conversionPort() + "/convert/" + crdName);
        var readyz = URI.create("http://127.0.0.1:" + server.opsPort() + "/readyz");
        assertThat(hubSpec(http, convert, group)).isEqualTo("{\"replicas\":3}");

        controlPlane.stopServers();
        int answered = 0;
        long end = System.nanoTime() + OUTAGE.toNanos();
        try {
          while (System.nanoTime() < end) {
            assertThat(hubSpec(http, convert, group))
                .as("a review %s into the outage", Duration.ofNanos(end - System.nanoTime()))
                .isEqualTo("{\"replicas\":3}");
            assertThat(status(http, readyz)).as("readiness during the outage").isEqualTo(200);
            answered++;
            Thread.sleep(100); // paces the reviews; nothing here waits for the replica's logic
          }
        } finally {
          controlPlane.startServers();
        }
        System.out.printf("reviews answered during a %s outage: %d%n", OUTAGE, answered);
        assertThat(answered).isGreaterThan(25); // at least 2.5 a second, as before

        // a change made once the control plane is back reaches the plan: the informers resumed
        var before = server.registry().get(crdName).orElseThrow().planHash();
        var changed = PlanLifecycleIT.config(crdName, serverName, "spec.replicas");
        ((com.fasterxml.jackson.databind.node.ObjectNode)
                changed.getSpec().spokes.getFirst().rules.getFirst())
            .put("reason", "changed after the outage");
        await()
            .atMost(Duration.ofSeconds(30))
            .ignoreExceptions()
            .until(
                () -> {
                  client.resource(changed).forceConflicts().serverSideApply();
                  return true;
                });
        await()
            .atMost(Duration.ofSeconds(90))
            .until(() -> !server.registry().get(crdName).orElseThrow().planHash().equals(before));
        assertThat(hubSpec(http, convert, group)).isEqualTo("{\"replicas\":3}");
        assertThat(server.ready()).isTrue();

        // a change made while the replica's apiserver is away, through another apiserver on the
        // same etcd, reaches the plan once the replica's apiserver is back: the informers resume
        // from where they were (or list again) and miss nothing
        var beforeAway = server.registry().get(crdName).orElseThrow().planHash();
        controlPlane.stopApiServer();
        try (var second = controlPlane.startSecondApiServer();
            var other = second.adminClient()) {
          var whileAway = PlanLifecycleIT.config(crdName, serverName, "spec.replicas");
          ((com.fasterxml.jackson.databind.node.ObjectNode)
                  whileAway.getSpec().spokes.getFirst().rules.getFirst())
              .put("reason", "changed while the replica's apiserver was away");
          other.resource(whileAway).forceConflicts().serverSideApply();
          assertThat(hubSpec(http, convert, group))
              .as("reviews while the replica's apiserver is away")
              .isEqualTo("{\"replicas\":3}");
          assertThat(server.registry().get(crdName).orElseThrow().planHash())
              .as("the replica cannot have seen the change yet")
              .isEqualTo(beforeAway);
        } finally {
          controlPlane.startApiServer();
        }
        await()
            .atMost(Duration.ofSeconds(90))
            .until(
                () -> !server.registry().get(crdName).orElseThrow().planHash().equals(beforeAway));
        assertThat(server.registry().get(crdName).orElseThrow().servable()).isTrue();
        assertThat(server.ready()).isTrue();
      }
    }
  }

  /** Converts a v1 Gizmo with {@code spec.size: 3} to v2 and returns its spec as JSON. */
  private static String hubSpec(HttpClient http, URI convert, String group) throws Exception {
    var size = "3";
    var review =
        "{\"apiVersion\":\"apiextensions.k8s.io/v1\",\"kind\":\"ConversionReview\",\"request\":{"
            + "\"uid\":\"u1\",\"desiredAPIVersion\":\""
            + group
            + "/v2\",\"objects\":[{\"apiVersion\":\""
            + group
            + "/v1\",\"kind\":\"Gizmo\",\"metadata\":{\"name\":\"g\",\"namespace\":\"default\"},"
            + "\"spec\":{\"size\":"
            + size
            + "}}]}}";
    var response =
        http.send(
            HttpRequest.newBuilder(convert)
                .timeout(Duration.ofSeconds(5))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(review))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    var body = JSON.readTree(response.body());
    assertThat(body.path("response").path("result").path("status").asText())
        .as("review answered %s", response.body())
        .isEqualTo("Success");
    return body.path("response").path("convertedObjects").path(0).path("spec").toString();
  }

  private static int status(HttpClient http, URI uri) throws Exception {
    return http.send(
            HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(5)).build(),
            HttpResponse.BodyHandlers.discarding())
        .statusCode();
  }
}
