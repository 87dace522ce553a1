package dev.versio.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.versio.api.config.NameRef;
import dev.versio.api.config.XRDConversionConfig;
import dev.versio.api.config.XRDConversionConfigSpec;
import dev.versio.api.server.ConversionWebhookServer;
import dev.versio.api.server.ConversionWebhookServerStatus;
import dev.versio.operator.status.Conditions;
import dev.versio.testkit.ControlPlane;
import dev.versio.testkit.KubeApiServerTest;
import dev.versio.testkit.KubeTestScope;
import dev.versio.testkit.stories.CrossplaneStandIn;
import dev.versio.webhook.WebhookServer;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server side of the operator on a real apiserver: URL-mode readiness judged from the URL with
 * its CA, assigned configs of both kinds, the default conflict, the delete guard, a Crossplane API
 * that appears late, and the ops listener.
 */
@KubeApiServerTest(dedicated = true)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ServerLifecycleIT {
  private KubernetesClient client;
  private WebhookServer webhook;
  private VersioOperator operator;
  private String caBundle;
  private String url;

  @BeforeAll
  void start(KubernetesClient client, ControlPlane controlPlane, @TempDir Path certDir)
      throws Exception {
    this.client = client;
    OperatorFixture.installVersioCrds(client);
    caBundle = OperatorFixture.writeCertificate(certDir);
    webhook = OperatorFixture.startWebhookServer(controlPlane.adminClient(), "up", certDir);
    url = "https://127.0.0.1:" + webhook.conversionPort();
    operator = OperatorFixture.start(client, OperatorFixture.options(), Clock.systemUTC());
  }

  @AfterAll
  void stop() {
    if (operator != null) {
      operator.close();
    }
    if (webhook != null) {
      webhook.close();
    }
  }

  private ConversionWebhookServer awaitServer(
      String name, Predicate<ConversionWebhookServerStatus> condition) {
    return await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () -> client.resources(ConversionWebhookServer.class).withName(name).get(),
            s -> s != null && s.getStatus() != null && condition.test(s.getStatus()));
  }

  private static String condition(ConversionWebhookServerStatus status, String type) {
    return Conditions.find(status.conditions, type)
        .map(c -> c.getStatus() + "/" + c.getReason())
        .orElse("absent");
  }

  @Test
  void aUrlModeServerIsReadyWhenItsUrlAnswersWithACertificateOfItsCa(KubeTestScope scope) {
    var name = scope.name("up");
    client.resource(OperatorFixture.urlServer(name, url, caBundle)).create();

    var status = awaitServer(name, s -> Conditions.isTrue(s.conditions, "Available")).getStatus();

    assertThat(condition(status, "Available")).isEqualTo("True/Reachable");
    assertThat(condition(status, "CertificateReady")).isEqualTo("True/CertificateVerified");
    assertThat(condition(status, "ServiceReady")).isEqualTo("True/UrlMode");
    assertThat(status.endpoint).isEqualTo(url);
    assertThat(status.observedGeneration).isEqualTo(1L);
  }

  @Test
  void aUrlModeServerThatDoesNotAnswerOrPresentsAnotherCertificateIsNotReady(KubeTestScope scope)
      throws Exception {
    int closedPort;
    try (var socket = new java.net.ServerSocket(0)) {
      closedPort = socket.getLocalPort();
    }
    var silent = scope.name("silent");
    client
        .resource(OperatorFixture.urlServer(silent, "https://127.0.0.1:" + closedPort, caBundle))
        .create();
    var otherCa =
        dev.versio.testkit.tls.CertificateAuthority.create("another-ca")
            .material()
            .certificateBase64();
    var stranger = scope.name("stranger");
    client.resource(OperatorFixture.urlServer(stranger, url, otherCa)).create();

    var silentStatus = awaitServer(silent, s -> !s.conditions.isEmpty()).getStatus();
    assertThat(condition(silentStatus, "Available")).isEqualTo("False/Unreachable");
    var strangerStatus = awaitServer(stranger, s -> !s.conditions.isEmpty()).getStatus();
    assertThat(condition(strangerStatus, "CertificateReady"))
        .isEqualTo("False/CertificateNotVerified");
    assertThat(
            Conditions.find(strangerStatus.conditions, "CertificateReady")
                .orElseThrow()
                .getMessage())
        .contains("not present a certificate signed by spec.caBundle");
  }

  @Test
  void assignedConfigsListBothKindsSortedAndTheServerCannotBeDeletedWhileInUse(
      KubeTestScope scope) {
    var name = scope.name("busy");
    client.resource(OperatorFixture.urlServer(name, url, caBundle)).create();
    client
        .resource(OperatorFixture.renameConfig("b-" + name, "b." + scope.apiGroup(), name))
        .create();
    client
        .resource(OperatorFixture.renameConfig("a-" + name, "a." + scope.apiGroup(), name))
        .create();
    var xrdConfig = new XRDConversionConfig();
    xrdConfig.setMetadata(new ObjectMetaBuilder().withName("c-" + name).build());
    xrdConfig.setSpec(new XRDConversionConfigSpec());
    xrdConfig.getSpec().targetXRD = new NameRef("c." + scope.apiGroup());
    xrdConfig.getSpec().hubVersion = "v2";
    var spoke = new dev.versio.api.config.SpokeSpec();
    spoke.version = "v1";
    xrdConfig.getSpec().spokes = List.of(spoke);
    xrdConfig.getSpec().webhookServerRef = new NameRef(name);
    client.resource(xrdConfig).create();

    var status = awaitServer(name, s -> s.assignedConfigs.size() == 3).getStatus();
    assertThat(status.assignedConfigs)
        .extracting(c -> c.kind + "/" + c.name + "->" + c.target)
        .containsExactly(
            "CRDConversionConfig/a-" + name + "->a." + scope.apiGroup(),
            "CRDConversionConfig/b-" + name + "->b." + scope.apiGroup(),
            "XRDConversionConfig/c-" + name + "->c." + scope.apiGroup());

    client.resources(ConversionWebhookServer.class).withName(name).delete();
    var blocked =
        awaitServer(name, s -> Conditions.isTrue(s.conditions, Conditions.DELETION_BLOCKED));
    assertThat(condition(blocked.getStatus(), Conditions.DELETION_BLOCKED))
        .isEqualTo("True/ConfigsStillAssigned");
    assertThat(
            Conditions.find(blocked.getStatus().conditions, Conditions.DELETION_BLOCKED)
                .orElseThrow()
                .getMessage())
        .contains("3 config(s)", "a-" + name, "versio.dev/allow-force-delete");

    OperatorFixture.mergePatch(
        client,
        ConversionWebhookServer.class,
        name,
        "{\"metadata\":{\"annotations\":{\"versio.dev/allow-force-delete\":\"true\"}}}");
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> client.resources(ConversionWebhookServer.class).withName(name).get() == null);
  }

  @Test
  void twoDefaultServersBothReportTheConflict(KubeTestScope scope) {
    var first = scope.name("default-a");
    var second = scope.name("default-b");
    for (var name : List.of(first, second)) {
      var server = OperatorFixture.urlServer(name, url, caBundle);
      server.getSpec().isDefault = true;
      client.resource(server).create();
    }
    for (var name : List.of(first, second)) {
      var status =
          awaitServer(name, s -> Conditions.isTrue(s.conditions, "DefaultConflict")).getStatus();
      assertThat(Conditions.find(status.conditions, "DefaultConflict").orElseThrow().getMessage())
          .contains(first, second);
    }
    OperatorFixture.mergePatch(
        client, ConversionWebhookServer.class, second, "{\"spec\":{\"default\":false}}");
    awaitServer(first, s -> Conditions.find(s.conditions, "DefaultConflict").isEmpty());
    for (var name : List.of(first, second)) {
      OperatorFixture.mergePatch(
          client,
          ConversionWebhookServer.class,
          name,
          "{\"metadata\":{\"annotations\":{\"versio.dev/allow-force-delete\":\"true\"}}}");
      client.resources(ConversionWebhookServer.class).withName(name).delete();
    }
  }

  @Test
  void xrdConfigsWaitForCrossplanesApiSayWhenItIsCrossplaneOneAndProceedOnceItServesV2(
      KubeTestScope scope) throws Exception {
    var name = scope.name("late");
    client.resource(OperatorFixture.urlServer(name, url, caBundle)).create();
    var xrdName = "xlates." + scope.apiGroup();
    var config = new XRDConversionConfig();
    config.setMetadata(new ObjectMetaBuilder().withName(name).build());
    config.setSpec(new XRDConversionConfigSpec());
    config.getSpec().targetXRD = new NameRef(xrdName);
    config.getSpec().hubVersion = "v2";
    var spoke = new dev.versio.api.config.SpokeSpec();
    spoke.version = "v1";
    config.getSpec().spokes = List.of(spoke);
    config.getSpec().webhookServerRef = new NameRef(name);
    client.resource(config).create();
    var waiting =
        await()
            .atMost(Duration.ofSeconds(30))
            .until(
                () -> client.resources(XRDConversionConfig.class).withName(name).get(),
                c -> c.getStatus() != null && "Pending".equals(c.getStatus().phase));
    assertThat(waiting.getStatus().message).contains("XRD API", "not installed");
    assertThat(metrics()).contains("versio_operator_xrd_api_available 0.0");

    // Crossplane before 1.12: its XRD API serves v1 without spec.conversion, which the config
    // says rather than "missing"
    CrossplaneStandIn.installXrdApiOfCrossplaneBefore112(client);
    var unsupported =
        await()
            .atMost(Duration.ofSeconds(30))
            .until(
                () -> client.resources(XRDConversionConfig.class).withName(name).get(),
                c ->
                    c.getStatus() != null
                        && c.getStatus().message != null
                        && c.getStatus().message.contains("before 1.12"));
    assertThat(unsupported.getStatus().phase).isEqualTo("Pending");
    assertThat(unsupported.getStatus().message)
        .contains("serves v1 without spec.conversion", "upgrade Crossplane to 1.12 or later");
    assertThat(Conditions.find(unsupported.getStatus().conditions, "TargetHealthy"))
        .hasValueSatisfying(c -> assertThat(c.getReason()).isEqualTo("XRDApiUnsupported"));
    assertThat(metrics()).contains("versio_operator_xrd_api_available 0.0");

    // upgraded to Crossplane 2.x: v2 served beside v1, which stays the storage version
    CrossplaneStandIn.installXrdApiOfCrossplane2(client);
    var xrd =
        io.fabric8.kubernetes.client.utils.Serialization.unmarshal(
            """
            apiVersion: apiextensions.crossplane.io/v2
            kind: CompositeResourceDefinition
            metadata: {name: XRD}
            spec:
              group: GROUP
              names: {kind: XLate, plural: xlates}
              versions:
              - name: v1
                served: true
                referenceable: false
                schema: {openAPIV3Schema: {type: object, properties: {spec: {type: object, properties: {size: {type: integer}}}}}}
              - name: v2
                served: true
                referenceable: true
                schema: {openAPIV3Schema: {type: object, properties: {spec: {type: object, properties: {size: {type: integer}}}}}}
            status:
              conditions: [{type: Established, status: "True", reason: WatchingCompositeResource}]
            """
                .replace("XRD", xrdName)
                .replace("GROUP", scope.apiGroup()),
            io.fabric8.kubernetes.api.model.GenericKubernetesResource.class);
    client.resource(xrd).create();

    var applied =
        await()
            .atMost(Duration.ofSeconds(60))
            .until(
                () -> client.resources(XRDConversionConfig.class).withName(name).get(),
                c -> c.getStatus() != null && "Applied".equals(c.getStatus().phase));
    assertThat(applied.getStatus().webhookURL).isEqualTo(url + "/convert/" + xrdName);
    var onXrd =
        client
            .genericKubernetesResources(
                "apiextensions.crossplane.io/v2", "CompositeResourceDefinition")
            .withName(xrdName)
            .get();
    @SuppressWarnings("unchecked")
    var conversion =
        (Map<String, Object>)
            ((Map<String, Object>) onXrd.getAdditionalProperties().get("spec")).get("conversion");
    assertThat(conversion).containsEntry("strategy", "Webhook");
    assertThat(metrics()).contains("versio_operator_xrd_api_available 1.0");
  }

  @Test
  void theOpsListenerServesHealthReadinessAndMetrics() throws Exception {
    assertThat(get("/healthz").statusCode()).isEqualTo(200);
    assertThat(get("/readyz").statusCode()).isEqualTo(200);
    var metrics = metrics();
    assertThat(metrics)
        .contains(
            "versio_operator_ready 1.0",
            "versio_operator_phase_transitions_total",
            "versio_operator_apply_duration_seconds_bucket",
            "reconciliations_started_total",
            "reconciliations_execution_duration_seconds",
            "reconciliations_queue",
            "jvm_memory_used_bytes");
  }

  private String metrics() throws Exception {
    return get("/metrics").body();
  }

  private HttpResponse<String> get(String path) throws Exception {
    try (var http = HttpClient.newHttpClient()) {
      return http.send(
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + operator.opsPort() + path))
              .build(),
          HttpResponse.BodyHandlers.ofString());
    }
  }
}
