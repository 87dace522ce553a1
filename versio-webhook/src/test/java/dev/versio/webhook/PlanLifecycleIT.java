package dev.versio.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.versio.api.config.CRDConversionConfig;
import dev.versio.api.config.NameRef;
import dev.versio.testkit.ControlPlane;
import dev.versio.testkit.KubeApiServerTest;
import dev.versio.testkit.KubeTestScope;
import dev.versio.testkit.stories.CustomResourceType;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How a serving plan follows its config: updates swap, broken updates keep the last good plan, a
 * deleted config's plan is kept while the CRD names the server and then drained, and conversions
 * after that fail closed.
 */
@KubeApiServerTest
class PlanLifecycleIT {
  private static final String HUB = "{replicas: {type: integer}, image: {type: string}}";
  private static final String SPOKE = "{size: {type: integer}, image: {type: string}}";

  @Test
  void configChangesSwapThePlanWithoutAFailedReadKeepTheLastGoodPlanAndFailClosedOnDelete(
      KubernetesClient client,
      ControlPlane controlPlane,
      KubeTestScope scope,
      @TempDir Path certDir)
      throws Exception {
    WebhookFixture.installVersioCrds(client);
    var caBundle = WebhookFixture.writeCertificate(certDir);
    var serverName = scope.name("lifecycle");
    try (var server = WebhookFixture.startWithDebugEndpoints(controlPlane, serverName, certDir)) {
      var group = scope.apiGroup();
      var crdName = "gizmos." + group;
      client
          .resource(WebhookFixture.serverObject(serverName, server.conversionPort(), caBundle))
          .serverSideApply();
      client.resource(crd(group, server.conversionPort(), caBundle)).serverSideApply();
      WebhookFixture.awaitEstablished(client, crdName);
      var config = config(crdName, serverName, "spec.replicas");
      client.resource(config).serverSideApply();
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> server.registry().get(crdName).map(e -> e.servable()).orElse(false));
      var namespace = scope.namespace();
      var gizmos = new CustomResourceType(group, "Gizmo", "gizmos", true);
      var v1 = client.genericKubernetesResources(gizmos.at("v1"));
      var v2 = client.genericKubernetesResources(gizmos.at("v2"));
      await()
          .atMost(Duration.ofSeconds(20))
          .ignoreExceptions()
          .until(
              () ->
                  v1.inNamespace(namespace)
                          .resource(gizmo(group, "g1", Map.of("size", 3, "image", "nginx")))
                          .create()
                      != null);
      assertThat(spec(v2.inNamespace(namespace).withName("g1").get())).containsEntry("replicas", 3);

      // 1. an update of the config swaps the plan while reads keep succeeding
      var failures = new AtomicInteger();
      var reads = new AtomicInteger();
      var running = new AtomicBoolean(true);
      var lastError = new AtomicReference<String>();
      var reader =
          Thread.ofPlatform()
              .start(
                  () -> {
                    while (running.get()) {
                      try {
                        v2.inNamespace(namespace).withName("g1").get();
                        reads.incrementAndGet();
                      } catch (KubernetesClientException e) {
                        failures.incrementAndGet();
                        lastError.set(e.getMessage());
                      }
                    }
                  });
      var before = server.registry().get(crdName).orElseThrow().planHash();
      ((ObjectNode) config.getSpec().spokes.getFirst().rules.getFirst())
          .put("reason", "documented in the update");
      client.resource(config).serverSideApply();
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> !server.registry().get(crdName).orElseThrow().planHash().equals(before));
      int readsAtSwap = reads.get();
      await().atMost(Duration.ofSeconds(10)).until(() -> reads.get() > readsAtSwap + 20);
      running.set(false);
      reader.join();
      assertThat(failures.get())
          .as("failed reads during the swap (last: %s)", lastError.get())
          .isZero();

      // 2. a broken update is recorded, and the last good plan keeps serving
      var broken = config(crdName, serverName, "spec.nope");
      broken.getMetadata().setResourceVersion(null);
      client.resource(broken).forceConflicts().serverSideApply();
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> server.registry().get(crdName).orElseThrow().lastError() != null);
      var entry = server.registry().get(crdName).orElseThrow();
      assertThat(entry.servable()).isTrue();
      assertThat(entry.lastError()).contains("spec.nope");
      assertThat(spec(v1.inNamespace(namespace).withName("g1").get())).containsEntry("size", 3);
      var debug = http(URI.create("http://127.0.0.1:" + server.opsPort() + "/debug/registry"));
      assertThat(debug.body()).contains(crdName).contains("spec.nope").contains("\"ready\" : true");

      // 3. deleting the config keeps the plan while the CRD still names this server (the operator
      //    reverts spec.conversion before a config's finalizer goes): reads still convert
      client.resource(broken).delete();
      await()
          .during(Duration.ofSeconds(2))
          .atMost(Duration.ofSeconds(10))
          .until(() -> server.registry().get(crdName).isPresent());
      assertThat(spec(v1.inNamespace(namespace).withName("g1").get())).containsEntry("size", 3);

      // 4. once the CRD no longer names this server, the plan is dropped after the drain, and
      //    conversions that still arrive fail closed with a clear message
      WebhookFixture.nameAnotherAddress(client, crdName);
      await().atMost(Duration.ofSeconds(30)).until(() -> server.registry().get(crdName).isEmpty());
      assertThatThrownBy(() -> v1.inNamespace(namespace).withName("g1").get())
          .isInstanceOf(KubernetesClientException.class)
          .hasMessageContaining("no conversion plan registered for " + crdName);
      assertThat(http(URI.create("http://127.0.0.1:" + server.opsPort() + "/metrics")).body())
          .contains("versio_webhook_conversion_review_requests_total")
          .contains("result=\"not_registered\"")
          .contains("jvm_memory_used_bytes");
    }
  }

  private static HttpResponse<String> http(URI uri) throws Exception {
    try (var http = HttpClient.newHttpClient()) {
      return http.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
    }
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> spec(GenericKubernetesResource resource) {
    return (Map<String, Object>) resource.getAdditionalProperties().get("spec");
  }

  private static GenericKubernetesResource gizmo(
      String group, String name, Map<String, Object> spec) {
    return new GenericKubernetesResourceBuilder()
        .withApiVersion(group + "/v1")
        .withKind("Gizmo")
        .withNewMetadata()
        .withName(name)
        .endMetadata()
        .withAdditionalProperties(Map.of("spec", spec))
        .build();
  }

  static CustomResourceDefinition crd(String group, int port, String caBundle) {
    var yaml =
        """
        apiVersion: apiextensions.k8s.io/v1
        kind: CustomResourceDefinition
        metadata: {name: gizmos.%1$s}
        spec:
          group: %1$s
          scope: Namespaced
          names: {kind: Gizmo, plural: gizmos, singular: gizmo, listKind: GizmoList}
          conversion:
            strategy: Webhook
            webhook:
              conversionReviewVersions: [v1]
              clientConfig: {url: 'https://127.0.0.1:%2$d/convert/gizmos.%1$s', caBundle: %3$s}
          versions:
          - name: v1
            served: true
            storage: false
            schema: {openAPIV3Schema: {type: object, properties: {spec: {type: object, properties: %4$s}}}}
          - name: v2
            served: true
            storage: true
            schema: {openAPIV3Schema: {type: object, properties: {spec: {type: object, properties: %5$s}}}}
        """
            .formatted(group, port, caBundle, SPOKE, HUB);
    return Serialization.unmarshal(yaml, CustomResourceDefinition.class);
  }

  static CRDConversionConfig config(String crdName, String serverName, String hubPath) {
    var yaml =
        """
        apiVersion: versio.dev/v1alpha1
        kind: CRDConversionConfig
        metadata: {name: %1$s}
        spec:
          targetCRD: {name: %1$s}
          hubVersion: v2
          spokes:
          - version: v1
            rules:
            - {strategy: FieldRename, fieldRename: {hubPath: %2$s, spokePath: spec.size}}
        """
            .formatted(crdName, hubPath);
    var config = Serialization.unmarshal(yaml, CRDConversionConfig.class);
    config.getSpec().webhookServerRef = new NameRef(serverName);
    return config;
  }
}
