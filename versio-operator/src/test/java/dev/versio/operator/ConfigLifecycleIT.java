package dev.versio.operator;

import static dev.versio.operator.OperatorFixture.awaitConfig;
import static dev.versio.operator.OperatorFixture.phase;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.versio.api.config.CRDConversionConfig;
import dev.versio.operator.status.Conditions;
import dev.versio.testkit.ControlPlane;
import dev.versio.testkit.Crds;
import dev.versio.testkit.KubeApiServerTest;
import dev.versio.testkit.KubeTestScope;
import dev.versio.webhook.WebhookServer;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The config lifecycle on a real apiserver: the operator applies {@code spec.conversion}, objects
 * convert through the webhook server, and every row of the phase/drift table is reached by a real
 * sequence of edits.
 */
@KubeApiServerTest(dedicated = true)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ConfigLifecycleIT {
  private static final String SERVER = "lifecycle";

  private KubernetesClient client;
  private WebhookServer webhook;
  private VersioOperator operator;
  private String caBundle;
  private String url;
  private Path certDir;
  private ControlPlane controlPlane;

  @BeforeAll
  void start(KubernetesClient client, ControlPlane controlPlane, @TempDir Path certDir)
      throws Exception {
    this.client = client;
    this.certDir = certDir;
    this.controlPlane = controlPlane;
    OperatorFixture.installVersioCrds(client);
    caBundle = OperatorFixture.writeCertificate(certDir);
    webhook = OperatorFixture.startWebhookServer(controlPlane.adminClient(), SERVER, certDir);
    url = "https://127.0.0.1:" + webhook.conversionPort();
    client.resource(OperatorFixture.urlServer(SERVER, url, caBundle)).serverSideApply();
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

  private CustomResourceDefinition installWidgets(KubeTestScope scope) {
    var crd = OperatorFixture.widgetCrd(scope.apiGroup(), "widgets", "Widget");
    client.resource(crd).serverSideApply();
    Crds.awaitEstablished(client, crd.getMetadata().getName());
    return crd;
  }

  private ResourceDefinitionContext widgets(KubeTestScope scope, String version) {
    return OperatorFixture.widgets(scope.apiGroup(), version);
  }

  private CustomResourceDefinition target(String name) {
    return client.apiextensions().v1().customResourceDefinitions().withName(name).get();
  }

  @Test
  void anAppliedConfigPointsTheCrdAtTheServerAndObjectsConvertOnEveryRead(KubeTestScope scope) {
    var crd = installWidgets(scope);
    var target = crd.getMetadata().getName();
    var name = scope.name("widgets");
    client.resource(OperatorFixture.renameConfig(name, target, SERVER)).create();

    var status = awaitConfig(client, name, phase("Applied")).getStatus();

    assertThat(status.webhookURL).isEqualTo(url + "/convert/" + target);
    assertThat(status.assignedWebhookServer).isEqualTo(SERVER);
    assertThat(status.overallLossless).isTrue();
    assertThat(status.lastAppliedPlanHash).isEqualTo(status.schemaHash).startsWith("sha256:");
    assertThat(status.observedGeneration).isEqualTo(1L);
    // the target's generation after the apply, so the target's update event writes nothing more
    assertThat(status.observedTargetGeneration)
        .isEqualTo(target(target).getMetadata().getGeneration());
    assertThat(operator.metrics().scrape())
        .contains("versio_operator_writes_total{kind=\"apply\",result=\"success\"}")
        .contains("versio_operator_writes_total{kind=\"status\",result=\"success\"}");
    assertThat(status.spokeStatuses)
        .singleElement()
        .satisfies(s -> assertThat(s.version).isEqualTo("v1"));
    for (var type :
        new String[] {
          Conditions.VALIDATED,
          Conditions.TARGET_HEALTHY,
          Conditions.WEBHOOK_SERVER_READY,
          Conditions.APPLIED
        }) {
      assertThat(Conditions.isTrue(status.conditions, type)).as(type).isTrue();
    }
    var conversion = target(target).getSpec().getConversion();
    assertThat(conversion.getStrategy()).isEqualTo("Webhook");
    assertThat(conversion.getWebhook().getClientConfig().getUrl()).isEqualTo(status.webhookURL);
    assertThat(conversion.getWebhook().getClientConfig().getCaBundle()).isEqualTo(caBundle);
    assertThat(target(target).getMetadata().getAnnotations())
        .containsEntry("versio.dev/managed-by", "CRDConversionConfig/" + name)
        .containsEntry("versio.dev/plan-hash", status.schemaHash);

    var ns = scope.namespace();
    client
        .genericKubernetesResources(widgets(scope, "v1"))
        .inNamespace(ns)
        .resource(
            new GenericKubernetesResourceBuilder()
                .withApiVersion(scope.apiGroup() + "/v1")
                .withKind("Widget")
                .withNewMetadata()
                .withName("w1")
                .endMetadata()
                .withAdditionalProperties(Map.of("spec", Map.of("size", 3, "engine", "redis")))
                .build())
        .create();
    GenericKubernetesResource atV2 =
        client
            .genericKubernetesResources(widgets(scope, "v2"))
            .inNamespace(ns)
            .withName("w1")
            .get();
    assertThat(atV2.getAdditionalProperties().get("spec"))
        .isEqualTo(Map.of("replicas", 3, "engine", "redis"));

    var events =
        client.v1().events().inNamespace("default").list().getItems().stream()
            .filter(e -> name.equals(e.getInvolvedObject().getName()))
            .toList();
    assertThat(events).anySatisfy(e -> assertThat(e.getReason()).isEqualTo("Applied"));
  }

  private String applied(KubeTestScope scope, String server, String driftPolicy) {
    var crd = installWidgets(scope);
    var target = crd.getMetadata().getName();
    var name = scope.name("widgets");
    var config = OperatorFixture.renameConfig(name, target, server);
    config.getSpec().driftPolicy = driftPolicy;
    client.resource(config).create();
    awaitConfig(client, name, phase("Applied"));
    createWidget(scope, "w1", 3);
    return name;
  }

  private void createWidget(KubeTestScope scope, String name, int size) {
    client
        .genericKubernetesResources(widgets(scope, "v1"))
        .inNamespace(scope.namespace())
        .resource(
            new GenericKubernetesResourceBuilder()
                .withApiVersion(scope.apiGroup() + "/v1")
                .withKind("Widget")
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .withAdditionalProperties(Map.of("spec", Map.of("size", size, "engine", "redis")))
                .build())
        .create();
  }

  private Object sizeAtV1(KubeTestScope scope, String name) {
    var object =
        client
            .genericKubernetesResources(widgets(scope, "v1"))
            .inNamespace(scope.namespace())
            .withName(name)
            .get();
    @SuppressWarnings("unchecked")
    var spec = (Map<String, Object>) object.getAdditionalProperties().get("spec");
    return spec.get("size");
  }

  /** Adds {@code spec.color} to the hub (v2) only: a field no rule covers. */
  private void driftHubSchema(String target) {
    addColor(target, 1); // versions[1] is v2, the hub
  }

  /** Adds {@code spec.color} to {@code versions[index]} (a JSON Patch: no resourceVersion race). */
  private void addColor(String target, int index) {
    client
        .apiextensions()
        .v1()
        .customResourceDefinitions()
        .withName(target)
        .patch(
            PatchContext.of(PatchType.JSON),
            "[{\"op\":\"add\",\"path\":\"/spec/versions/"
                + index
                + "/schema/openAPIV3Schema/properties/spec/properties/color\",\"value\":{\"type\":\"string\"}}]");
  }

  private String reason(CRDConversionConfig config, String type) {
    return Conditions.find(config.getStatus().conditions, type)
        .map(c -> c.getStatus() + "/" + c.getReason())
        .orElse("absent");
  }

  private java.util.List<String> eventReasons(String name) {
    return client.v1().events().inNamespace("default").list().getItems().stream()
        .filter(e -> name.equals(e.getInvolvedObject().getName()))
        .map(e -> e.getType() + "/" + e.getReason())
        .toList();
  }

  @Test
  void schemaDriftUnderKeepServingStaleGoesStaleAndConversionsKeepWorking(KubeTestScope scope) {
    var name = applied(scope, SERVER, null);
    var target = awaitConfig(client, name, phase("Applied")).getSpec().targetName();
    var before = target(target).getSpec().getConversion();

    driftHubSchema(target);

    var stale = awaitConfig(client, name, phase("Stale"));
    assertThat(reason(stale, Conditions.STALE)).isEqualTo("True/SchemaDrift");
    assertThat(reason(stale, Conditions.VALIDATED)).isEqualTo("False/ValidationFailed");
    assertThat(reason(stale, Conditions.APPLIED)).isEqualTo("True/Applied");
    assertThat(stale.getStatus().spokeStatuses.getFirst().errors)
        .anyMatch(e -> e.contains("color"));
    assertThat(target(target).getSpec().getConversion()).isEqualTo(before);
    createWidget(scope, "w2", 5);
    assertThat(sizeAtV1(scope, "w1")).isEqualTo(3);
    assertThat(sizeAtV1(scope, "w2")).isEqualTo(5);
    // an object carrying the field the stale plan does not know is refused at v1 instead of
    // losing it there; at the storage version it reads as it is
    client
        .genericKubernetesResources(widgets(scope, "v2"))
        .inNamespace(scope.namespace())
        .resource(
            new GenericKubernetesResourceBuilder()
                .withApiVersion(scope.apiGroup() + "/v2")
                .withKind("Widget")
                .withNewMetadata()
                .withName("red")
                .endMetadata()
                .withAdditionalProperties(
                    Map.of("spec", Map.of("replicas", 1, "engine", "redis", "color", "red")))
                .build())
        .create();
    assertThatThrownBy(() -> sizeAtV1(scope, "red"))
        .isInstanceOf(KubernetesClientException.class)
        .hasMessageContaining("spec.color is not declared by the schemas the plan");
    await()
        .atMost(Duration.ofSeconds(10))
        .untilAsserted(() -> assertThat(eventReasons(name)).contains("Warning/Stale"));
  }

  @Test
  void schemaDriftUnderFailClosedKeepsTheWebhookRefusingEveryConversionAndRecoversWhenFixed(
      KubeTestScope scope) {
    var name = applied(scope, SERVER, "FailClosed");
    var target = awaitConfig(client, name, phase("Applied")).getSpec().targetName();
    var before = target(target).getSpec().getConversion();

    driftHubSchema(target);

    // the target serves v1 and v2: strategy None would hand out v2 objects as v1 unconverted, so
    // the webhook stays and refuses; a read at the storage version needs no conversion
    var failed = awaitConfig(client, name, phase("Failed"));
    assertThat(reason(failed, Conditions.APPLIED)).isEqualTo("False/FailingClosed");
    assertThat(Conditions.find(failed.getStatus().conditions, Conditions.STALE)).isEmpty();
    assertThat(target(target).getSpec().getConversion()).isEqualTo(before);
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () ->
                assertThatThrownBy(() -> sizeAtV1(scope, "w1"))
                    .isInstanceOf(KubernetesClientException.class)
                    .hasMessageContaining("driftPolicy FailClosed")
                    .hasMessageContaining("color"));
    assertThat(
            client
                .genericKubernetesResources(widgets(scope, "v2"))
                .inNamespace(scope.namespace())
                .withName("w1")
                .get())
        .isNotNull();

    // the fix: v1 gets the field too, so it maps one to one
    addColor(target, 0); // versions[0] is v1
    awaitConfig(client, name, phase("Applied"));
    assertThat(target(target).getSpec().getConversion().getStrategy()).isEqualTo("Webhook");
    await()
        .atMost(Duration.ofSeconds(30))
        .ignoreExceptions()
        .untilAsserted(() -> assertThat(sizeAtV1(scope, "w1")).isEqualTo(3));
    assertThat(eventReasons(name)).contains("Warning/Failed", "Normal/Applied");
  }

  @Test
  void schemaDriftUnderFailClosedRevertsATargetThatServesOneVersion(KubeTestScope scope) {
    var name = applied(scope, SERVER, "FailClosed");
    var target = awaitConfig(client, name, phase("Applied")).getSpec().targetName();

    // v1 stops being served, and the hub gains a field no rule covers
    client
        .apiextensions()
        .v1()
        .customResourceDefinitions()
        .withName(target)
        .patch(
            PatchContext.of(PatchType.JSON),
            "[{\"op\":\"replace\",\"path\":\"/spec/versions/0/served\",\"value\":false},"
                + "{\"op\":\"add\",\"path\":\"/spec/versions/1/schema/openAPIV3Schema/properties/spec/properties/color\",\"value\":{\"type\":\"string\"}}]");

    var failed = awaitConfig(client, name, phase("Failed"));
    assertThat(reason(failed, Conditions.APPLIED)).isEqualTo("False/Reverted");
    var conversion = target(target).getSpec().getConversion();
    assertThat(conversion.getStrategy()).isEqualTo("None");
    assertThat(conversion.getWebhook()).isNull();
    assertThat(target(target).getMetadata().getAnnotations())
        .doesNotContainKey("versio.dev/managed-by");
  }

  @Test
  void aDeletedTargetMakesAnAppliedConfigStaleAndANewConfigInvalid(KubeTestScope scope) {
    var name = applied(scope, SERVER, null);
    var target = awaitConfig(client, name, phase("Applied")).getSpec().targetName();
    var orphan = scope.name("orphan");
    client
        .resource(OperatorFixture.renameConfig(orphan, "missing." + scope.apiGroup(), SERVER))
        .create();

    var invalid = awaitConfig(client, orphan, phase("Invalid"));
    assertThat(reason(invalid, Conditions.VALIDATED)).isEqualTo("False/Invalid");
    assertThat(reason(invalid, Conditions.TARGET_HEALTHY)).isEqualTo("False/TargetNotFound");
    assertThat(invalid.getStatus().message).contains("not found");

    client.apiextensions().v1().customResourceDefinitions().withName(target).delete();
    var stale = awaitConfig(client, name, phase("Stale"));
    assertThat(reason(stale, Conditions.STALE)).isEqualTo("True/PostApplyInvalid");
  }

  @Test
  void anUnresolvableServerMakesANewConfigInvalidAndAnAppliedOneStale(KubeTestScope scope) {
    var name = applied(scope, SERVER, null);
    var invalidName = scope.name("nowhere");
    var target2 = OperatorFixture.widgetCrd("b" + scope.apiGroup(), "widgets", "Widget");
    client.resource(target2).serverSideApply();
    client
        .resource(
            OperatorFixture.renameConfig(
                invalidName, target2.getMetadata().getName(), "no-such-server"))
        .create();

    var invalid = awaitConfig(client, invalidName, phase("Invalid"));
    assertThat(invalid.getStatus().message).contains("no-such-server");
    assertThat(target(target2.getMetadata().getName()).getSpec().getConversion().getStrategy())
        .isEqualTo("None");

    OperatorFixture.mergePatch(
        client,
        CRDConversionConfig.class,
        name,
        "{\"spec\":{\"webhookServerRef\":{\"name\":\"no-such-server\"}}}");
    var stale = awaitConfig(client, name, phase("Stale"));
    assertThat(reason(stale, Conditions.STALE)).isEqualTo("True/PostApplyInvalid");
    // the target is not touched; its server stops serving a target no longer assigned to it
    // (holding the plan while the target still points at it is the handover's job)
    var target = stale.getSpec().targetName();
    assertThat(target(target).getSpec().getConversion().getWebhook().getClientConfig().getUrl())
        .isEqualTo(url + "/convert/" + target);
  }

  @Test
  void aServerThatDoesNotAnswerHoldsANewConfigPendingUntilItDoes(KubeTestScope scope)
      throws Exception {
    var down = scope.name("down");
    int closedPort;
    try (var socket = new java.net.ServerSocket(0)) {
      closedPort = socket.getLocalPort();
    }
    client
        .resource(OperatorFixture.urlServer(down, "https://127.0.0.1:" + closedPort, caBundle))
        .serverSideApply();
    var crd = installWidgets(scope);
    var name = scope.name("widgets");
    client.resource(OperatorFixture.renameConfig(name, crd.getMetadata().getName(), down)).create();

    var pending = awaitConfig(client, name, phase("Pending"));
    assertThat(reason(pending, Conditions.WEBHOOK_SERVER_READY)).isEqualTo("False/ServerNotReady");
    assertThat(reason(pending, Conditions.VALIDATED)).isEqualTo("True/Validated");
    assertThat(target(crd.getMetadata().getName()).getSpec().getConversion().getStrategy())
        .isEqualTo("None");

    // the server comes up
    var replica = OperatorFixture.startWebhookServer(controlPlane.adminClient(), down, certDir);
    var replicaUrl = "https://127.0.0.1:" + replica.conversionPort();
    try {
      client.resource(OperatorFixture.urlServer(down, replicaUrl, caBundle)).serverSideApply();
      awaitConfig(client, name, phase("Applied"));
      createWidget(scope, "w1", 4);
      assertThat(sizeAtV1(scope, "w1")).isEqualTo(4);
    } finally {
      replica.close();
    }

    // and goes away again: the target keeps the last applied conversion
    var stale = awaitConfig(client, name, phase("Stale"));
    assertThat(reason(stale, Conditions.STALE)).isEqualTo("True/ServerNotReady");
    assertThat(
            target(crd.getMetadata().getName())
                .getSpec()
                .getConversion()
                .getWebhook()
                .getClientConfig()
                .getUrl())
        .startsWith(replicaUrl);
  }

  @Test
  void aTargetThatIsNotEstablishedHoldsTheConfigPending(KubeTestScope scope) {
    // two CRDs of one group with the same kind: the second one's names are not accepted, so it
    // never becomes Established until the first is gone
    var first = OperatorFixture.widgetCrd(scope.apiGroup(), "widgets", "Widget");
    client.resource(first).serverSideApply();
    Crds.awaitEstablished(client, first.getMetadata().getName());
    var second = OperatorFixture.widgetCrd(scope.apiGroup(), "gadgets", "Widget");
    client.resource(second).serverSideApply();
    var name = scope.name("gadgets");
    client
        .resource(OperatorFixture.renameConfig(name, second.getMetadata().getName(), SERVER))
        .create();

    var pending = awaitConfig(client, name, phase("Pending"));
    assertThat(reason(pending, Conditions.TARGET_HEALTHY)).isEqualTo("False/NotEstablished");

    client
        .apiextensions()
        .v1()
        .customResourceDefinitions()
        .withName(first.getMetadata().getName())
        .delete();
    var applied = awaitConfig(client, name, phase("Applied"));
    assertThat(reason(applied, Conditions.TARGET_HEALTHY)).isEqualTo("True/Established");
  }

  @Test
  void deletingAConfigWhoseTargetServesTwoVersionsIsBlockedUntilAnnotatedThenRevertsFirst(
      KubeTestScope scope) {
    var name = applied(scope, SERVER, null);
    var target = awaitConfig(client, name, phase("Applied")).getSpec().targetName();

    client.resources(CRDConversionConfig.class).withName(name).delete();

    var blocked =
        awaitConfig(
            client, name, s -> Conditions.isTrue(s.conditions, Conditions.DELETION_BLOCKED));
    assertThat(reason(blocked, Conditions.DELETION_BLOCKED))
        .isEqualTo("True/MultipleServedVersions");
    assertThat(
            Conditions.find(blocked.getStatus().conditions, Conditions.DELETION_BLOCKED)
                .orElseThrow()
                .getMessage())
        .contains("serves or stores 2 versions")
        .contains("versio.dev/allow-unsafe-delete");
    assertThat(target(target).getSpec().getConversion().getStrategy()).isEqualTo("Webhook");

    OperatorFixture.mergePatch(
        client,
        CRDConversionConfig.class,
        name,
        "{\"metadata\":{\"annotations\":{\"versio.dev/allow-unsafe-delete\":\"true\"}}}");

    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> client.resources(CRDConversionConfig.class).withName(name).get() == null);
    assertThat(target(target).getSpec().getConversion().getStrategy()).isEqualTo("None");
    assertThat(target(target).getMetadata().getAnnotations())
        .doesNotContainKey("versio.dev/managed-by");
  }

  @Test
  void aTargetThatStopsServingAVersionItStillStoresKeepsItsConversionAndBlocksTheDeletion(
      KubeTestScope scope) {
    var name = applied(scope, SERVER, null);
    var target = awaitConfig(client, name, phase("Applied")).getSpec().targetName();
    // v1 was the storage version once (objects may still be stored at it), then stops being served
    var crd = target(target);
    crd.getStatus().setStoredVersions(List.of("v1", "v2"));
    client.resource(crd).updateStatus();
    crd = target(target);
    crd.getSpec().getVersions().stream()
        .filter(v -> v.getName().equals("v1"))
        .forEach(v -> v.setServed(false));
    client.resource(crd).update();

    // the v1 spoke still converts what is stored at v1: the config stays Applied, nothing reverts
    await()
        .during(Duration.ofSeconds(3))
        .atMost(Duration.ofSeconds(10))
        .until(
            () ->
                "Applied"
                    .equals(
                        client
                            .resources(CRDConversionConfig.class)
                            .withName(name)
                            .get()
                            .getStatus()
                            .phase));

    client.resources(CRDConversionConfig.class).withName(name).delete();

    var blocked =
        awaitConfig(
            client, name, s -> Conditions.isTrue(s.conditions, Conditions.DELETION_BLOCKED));
    assertThat(
            Conditions.find(blocked.getStatus().conditions, Conditions.DELETION_BLOCKED)
                .orElseThrow()
                .getMessage())
        .as("one version served, one still stored: strategy None would hand out v1 objects as v2")
        .contains("serves or stores 2 versions")
        .contains("v1")
        .contains("versio migrate-storage");
    assertThat(target(target).getSpec().getConversion().getStrategy()).isEqualTo("Webhook");

    OperatorFixture.mergePatch(
        client,
        CRDConversionConfig.class,
        name,
        "{\"metadata\":{\"annotations\":{\"versio.dev/allow-unsafe-delete\":\"true\"}}}");
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> client.resources(CRDConversionConfig.class).withName(name).get() == null);
  }

  @Test
  void deletingAConfigThatWasNeverAppliedLeavesTheTargetAlone(KubeTestScope scope) {
    var crd = installWidgets(scope);
    var name = scope.name("never");
    client
        .resource(OperatorFixture.renameConfig(name, crd.getMetadata().getName(), "no-such-server"))
        .create();
    awaitConfig(client, name, phase("Invalid"));

    client.resources(CRDConversionConfig.class).withName(name).delete();

    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> client.resources(CRDConversionConfig.class).withName(name).get() == null);
    assertThat(target(crd.getMetadata().getName()).getSpec().getConversion().getStrategy())
        .isEqualTo("None");
  }
}
