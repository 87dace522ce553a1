package dev.versio.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.versio.api.config.CRDConversionConfig;
import dev.versio.testkit.ControlPlane;
import dev.versio.testkit.KubeApiServerTest;
import dev.versio.testkit.KubeTestScope;
import dev.versio.webhook.registry.RegistryEntry;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Start-up: readiness follows the first complete sync, a taken ops port fails the start at once,
 * and the parallel initial sync equals the serial walk.
 */
@KubeApiServerTest
class StartupIT {

  @Test
  void readyzIs503UntilTheFirstCompleteSyncAndTheSyncIsRetriedUntilItSucceeds(
      KubernetesClient admin, ControlPlane controlPlane, KubeTestScope scope, @TempDir Path certDir)
      throws Exception {
    WebhookFixture.installVersioCrds(admin);
    WebhookFixture.writeCertificate(certDir);
    var user = scope.name("webhook");
    int opsPort;
    try (var socket = new ServerSocket(0)) {
      opsPort = socket.getLocalPort();
    }
    var identity = controlPlane.clientAs(user);
    // a thread of its own: blocking a common-pool thread would starve the client's async I/O
    var starter = Executors.newSingleThreadExecutor();
    var starting =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return WebhookFixture.start(identity, scope.name("server"), certDir, opsPort);
              } catch (InterruptedException e) {
                throw new IllegalStateException(e);
              }
            },
            starter);
    try (var http = HttpClient.newHttpClient()) {
      var readyz =
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + opsPort + "/readyz")).build();
      var healthz =
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + opsPort + "/healthz")).build();
      await()
          .atMost(Duration.ofSeconds(20))
          .ignoreExceptions()
          .until(
              () -> http.send(healthz, HttpResponse.BodyHandlers.ofString()).statusCode() == 200);
      var notReady = http.send(readyz, HttpResponse.BodyHandlers.ofString());
      assertThat(notReady.statusCode()).isEqualTo(503);
      assertThat(notReady.body()).contains("not yet fully synced");
      assertThat(starting).isNotDone();
      var debug =
          http.send(
              HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + opsPort + "/debug/registry"))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(debug.statusCode()).as("debug endpoints are off unless enabled").isEqualTo(404);
      assertThat(debug.body()).contains("--enable-debug-endpoints");

      // the replica lacked permission to list; grant it and the retried sync completes
      admin
          .rbac()
          .clusterRoles()
          .resource(
              new ClusterRoleBuilder()
                  .withNewMetadata()
                  .withName(user)
                  .endMetadata()
                  .addNewRule()
                  .withApiGroups("versio.dev")
                  .withResources(
                      "crdconversionconfigs", "xrdconversionconfigs", "conversionwebhookservers")
                  .withVerbs("get", "list", "watch")
                  .endRule()
                  .addNewRule()
                  .withApiGroups("apiextensions.k8s.io")
                  .withResources("customresourcedefinitions")
                  .withVerbs("get", "list", "watch")
                  .endRule()
                  .addNewRule()
                  .withApiGroups("apiextensions.crossplane.io")
                  .withResources("compositeresourcedefinitions")
                  .withVerbs("get", "list", "watch")
                  .endRule()
                  .build())
          .serverSideApply();
      admin
          .rbac()
          .clusterRoleBindings()
          .resource(
              new ClusterRoleBindingBuilder()
                  .withNewMetadata()
                  .withName(user)
                  .endMetadata()
                  .withNewRoleRef("rbac.authorization.k8s.io", "ClusterRole", user)
                  .addNewSubject()
                  .withKind("User")
                  .withApiGroup("rbac.authorization.k8s.io")
                  .withName(user)
                  .endSubject()
                  .build())
          .serverSideApply();
      try (var server = starting.get(90, TimeUnit.SECONDS)) {
        starter.shutdown();
        assertThat(server.ready()).isTrue();
        assertThat(http.send(readyz, HttpResponse.BodyHandlers.ofString()).statusCode())
            .isEqualTo(200);
        assertThat(
                http.send(
                        HttpRequest.newBuilder(
                                URI.create("http://127.0.0.1:" + opsPort + "/metrics"))
                            .build(),
                        HttpResponse.BodyHandlers.ofString())
                    .body())
            .contains("versio_webhook_initial_sync_duration_seconds")
            .contains("versio_webhook_ready 1.0");
      }
    }
  }

  @Test
  void aReplicaWhoseOpsPortIsTakenFailsNamingThePortAndTheNextStartWorks(
      KubernetesClient client,
      ControlPlane controlPlane,
      KubeTestScope scope,
      @TempDir Path certDir)
      throws Exception {
    // the informers start listing before the ops listener binds: a bind failure must still end
    // the start at once with the port in the message, and leave nothing in the way of a retry
    WebhookFixture.installVersioCrds(client);
    WebhookFixture.writeCertificate(certDir);
    var name = scope.name("taken");
    try (var taken = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"));
        var replicaClient = controlPlane.adminClient()) {
      int port = taken.getLocalPort();
      assertThatThrownBy(() -> WebhookFixture.start(replicaClient, name, certDir, port))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("ops listener on port " + port);
    }
    try (var replicaClient = controlPlane.adminClient();
        var server = WebhookFixture.start(replicaClient, name, certDir, 0)) {
      assertThat(server.ready()).isTrue();
    }
  }

  @Test
  void theParallelInitialSyncGivesTheSameRegistryAsTheSerialWalk(
      KubernetesClient client,
      ControlPlane controlPlane,
      KubeTestScope scope,
      @TempDir Path certDir)
      throws Exception {
    WebhookFixture.installVersioCrds(client);
    var caBundle = WebhookFixture.writeCertificate(certDir);
    var serverName = scope.name("fleet");
    client.resource(WebhookFixture.serverObject(serverName, 9443, caBundle)).serverSideApply();
    for (int i = 0; i < 40; i++) {
      var group = "t" + i + "." + scope.apiGroup();
      if (i != 17) { // target 17's CRD is missing: its config must end up as an error-only entry
        client.resource(PlanLifecycleIT.crd(group, 9443, caBundle)).serverSideApply();
      }
      var config =
          PlanLifecycleIT.config(
              "gizmos." + group, serverName, i == 23 ? "spec.nope" : "spec.replicas");
      client.resource(config).serverSideApply();
    }
    try (var server = WebhookFixture.start(controlPlane, serverName, certDir)) {
      var parallel = comparable(server.registry().snapshot());
      var serial = comparable(server.sync().serialWalk());
      assertThat(parallel).hasSize(40).isEqualTo(serial);
      assertThat(parallel.values()).filteredOn(v -> v.startsWith("servable")).hasSize(38);
      assertThat(parallel.get("gizmos.t17." + scope.apiGroup())).contains("not found");
      assertThat(parallel.get("gizmos.t23." + scope.apiGroup())).contains("spec.nope");
    }
    client.resources(CRDConversionConfig.class).delete();
  }

  /** An entry without timestamps: what must be equal between the two walks. */
  private static Map<String, String> comparable(Map<String, RegistryEntry> entries) {
    var out = new TreeMap<String, String>();
    entries.forEach(
        (k, e) ->
            out.put(
                k,
                (e.servable() ? "servable " : "error ")
                    + e.config()
                    + " "
                    + e.planHash()
                    + " "
                    + e.lastError()
                    + " "
                    + e.versions()));
    return out;
  }
}
