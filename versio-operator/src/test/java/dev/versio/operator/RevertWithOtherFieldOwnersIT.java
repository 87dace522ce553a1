package dev.versio.operator;

import static dev.versio.operator.OperatorFixture.awaitConfig;
import static dev.versio.operator.OperatorFixture.phase;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.versio.api.config.CRDConversionConfig;
import dev.versio.api.config.XRDConversionConfig;
import dev.versio.engine.json.EngineJson;
import dev.versio.operator.config.ConfigKind;
import dev.versio.operator.status.Conditions;
import dev.versio.testkit.ControlPlane;
import dev.versio.testkit.Crds;
import dev.versio.testkit.KubeApiServerTest;
import dev.versio.testkit.KubeTestScope;
import dev.versio.testkit.stories.CrossplaneStandIn;
import dev.versio.testkit.stories.ExampleStory;
import dev.versio.webhook.WebhookServer;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reverting a target whose {@code spec.conversion} another field manager also owns. Client-side
 * {@code kubectl apply} writes with Update operations (field manager {@code
 * kubectl-client-side-apply}), which own what they set: the defaulted {@code spec.conversion} of a
 * CRD they create, or the webhook itself when the user re-applies the CRD with the conversion the
 * operator wrote. The operator's server-side apply of {@code strategy: None} then cannot drop the
 * webhook (the apiserver refuses a CRD with {@code strategy: None} and a webhook; an XRD just keeps
 * it), so the revert must remove the webhook itself — and still succeed.
 */
@KubeApiServerTest(dedicated = true)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RevertWithOtherFieldOwnersIT {
  private static final String SERVER = "owners";
  private static final String CLIENT_SIDE_APPLY = "kubectl-client-side-apply";
  private static final String LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration";
  private static final String CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
  private static final String XRDS =
      "/apis/apiextensions.crossplane.io/v2/compositeresourcedefinitions";

  private KubernetesClient client;
  private WebhookServer webhook;
  private VersioOperator operator;

  @BeforeAll
  void start(KubernetesClient client, ControlPlane controlPlane, @TempDir Path certDir)
      throws Exception {
    this.client = client;
    OperatorFixture.installVersioCrds(client);
    CrossplaneStandIn.installXrdApi(client);
    var caBundle = OperatorFixture.writeCertificate(certDir);
    webhook = OperatorFixture.startWebhookServer(controlPlane.adminClient(), SERVER, certDir);
    var server =
        OperatorFixture.urlServer(
            SERVER, "https://127.0.0.1:" + webhook.conversionPort(), caBundle);
    server.getSpec().isDefault = true; // the XRD story's config names no server
    client.resource(server).serverSideApply();
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

  @Test
  void deletingAConfigRevertsACrdThatClientSideApplyCreated(KubeTestScope scope) {
    var target = createCrdClientSide(scope);
    var name = scope.name("widgets");
    client.resource(unsafeDeletable(OperatorFixture.renameConfig(name, target, SERVER))).create();
    awaitConfig(client, name, phase("Applied"));
    // the creator's Update owns the conversion it defaulted to {strategy: None}
    assertThat(conversionOwners(crd(target))).contains(CLIENT_SIDE_APPLY);
    double appliesBefore = appliesSucceeded();

    client.resources(CRDConversionConfig.class).withName(name).delete();

    awaitGone(CRDConversionConfig.class, name);
    assertReverted(crd(target));
    assertThat(appliesSucceeded()).isGreaterThan(appliesBefore);
  }

  @Test
  void deletingAConfigRevertsACrdWhoseWebhookAClientSideReapplyCoOwns(KubeTestScope scope) {
    var target = createCrdClientSide(scope);
    var name = scope.name("widgets");
    client.resource(unsafeDeletable(OperatorFixture.renameConfig(name, target, SERVER))).create();
    awaitConfig(client, name, phase("Applied"));

    reapplyConversionClientSide(ConfigKind.CRD.targetContext(null), crd(target));
    assertThat(webhookOwners(crd(target))).contains(CLIENT_SIDE_APPLY);
    client.resources(CRDConversionConfig.class).withName(name).delete();

    awaitGone(CRDConversionConfig.class, name);
    assertReverted(crd(target));
  }

  @Test
  void failClosedRevertsACrdThatClientSideApplyCreatedAndPointsItAgainOnceFixed(
      KubeTestScope scope) {
    var target = createCrdClientSide(scope);
    var name = scope.name("widgets");
    var config = OperatorFixture.renameConfig(name, target, SERVER);
    config.getSpec().driftPolicy = "FailClosed";
    client.resource(config).create();
    awaitConfig(client, name, phase("Applied"));

    // v2, the hub, gains a field no rule covers, and v1 is no longer served: a FailClosed config
    // reverts only a target serving one version (with more, it keeps the webhook refusing)
    served(target, 0, false);
    addColor(target, 1);

    var failed =
        awaitConfig(
            client,
            name,
            s ->
                "Failed".equals(s.phase)
                    && Conditions.find(s.conditions, Conditions.APPLIED)
                        .map(c -> "Reverted".equals(c.getReason()))
                        .orElse(false));
    assertThat(
            Conditions.find(failed.getStatus().conditions, Conditions.APPLIED)
                .map(c -> c.getStatus() + "/" + c.getReason()))
        .hasValue("False/Reverted");
    assertReverted(crd(target));

    addColor(target, 0); // v1 too: the rules fit again
    served(target, 0, true);
    awaitConfig(client, name, phase("Applied"));
    assertThat(crd(target).getSpec().getConversion().getStrategy()).isEqualTo("Webhook");
  }

  @Test
  void deletingAConfigRevertsACrdThatCameWithAWebhookOfItsOwn(KubeTestScope scope) {
    var crd = OperatorFixture.widgetCrd(scope.apiGroup(), "widgets", "Widget");
    var manifest = (ObjectNode) json(crd);
    ((ObjectNode) manifest.path("spec")).set("conversion", handWrittenWebhook());
    handedOver(manifest);
    createClientSide(CRDS, manifest);
    var target = crd.getMetadata().getName();
    Crds.awaitEstablished(client, target);
    var name = scope.name("widgets");
    client.resource(unsafeDeletable(OperatorFixture.renameConfig(name, target, SERVER))).create();
    awaitConfig(client, name, phase("Applied"));
    assertThat(webhookOwners(crd(target))).contains(CLIENT_SIDE_APPLY);

    client.resources(CRDConversionConfig.class).withName(name).delete();

    awaitGone(CRDConversionConfig.class, name);
    assertReverted(crd(target));
  }

  @Test
  void deletingAnXrdConfigRemovesAWebhookThatClientSideApplyCoOwns() {
    var story = ExampleStory.all().stream().filter(ExampleStory::isXrd).findFirst().orElseThrow();
    var target = story.crdName();
    // the XRD came with a conversion webhook of its own, which the config replaces
    var xrd = (ObjectNode) story.xrd().deepCopy();
    ((ObjectNode) xrd.path("spec")).set("conversion", handWrittenWebhook());
    handedOver(xrd);
    createClientSide(XRDS, xrd);
    Crds.apply(
        client, Serialization.unmarshal(story.crd().toString(), CustomResourceDefinition.class));
    CrossplaneStandIn.reportEstablished(client, target);
    var config = Serialization.unmarshal(story.configYaml(), GenericKubernetesResource.class);
    client.resource(unsafeDeletable(config)).create();
    var name = config.getMetadata().getName();
    awaitConfig(client, XRDConversionConfig.class, name, phase("Applied"));
    assertThat(webhookOwners(xrd(target))).contains(CLIENT_SIDE_APPLY);

    client.resources(XRDConversionConfig.class).withName(name).delete();

    awaitGone(XRDConversionConfig.class, name);
    var reverted = json(xrd(target));
    assertThat(reverted.path("spec").path("conversion").path("strategy").asText())
        .isEqualTo("None");
    assertThat(reverted.path("spec").path("conversion").has("webhook")).isFalse();
    assertThat(reverted.path("metadata").path("annotations").has("versio.dev/managed-by"))
        .isFalse();
    // so Crossplane can copy it onto the CRD it generated: None without a webhook is valid there
    CrossplaneStandIn.propagateConversion(client, target);
    assertReverted(crd(target));
  }

  /** Its owner hands the target's own webhook over to Versio (without it, it stays theirs). */
  private static void handedOver(ObjectNode manifest) {
    var metadata = (ObjectNode) manifest.path("metadata");
    var annotations =
        metadata.path("annotations").isObject()
            ? (ObjectNode) metadata.get("annotations")
            : metadata.putObject("annotations");
    annotations.put(dev.versio.operator.config.TargetConsent.TAKEOVER_ANNOTATION, "true");
  }

  /** A conversion webhook the target had before Versio (a hand-written one, say). */
  private static JsonNode handWrittenWebhook() {
    var conversion = EngineJson.nodes().objectNode().put("strategy", "Webhook");
    var webhook = conversion.putObject("webhook");
    webhook.putObject("clientConfig").put("url", "https://old-webhook.example.test/convert");
    webhook.putArray("conversionReviewVersions").add("v1");
    return conversion;
  }

  /** The Widget CRD as {@code kubectl apply} (client-side) creates it: a POST by its manager. */
  private String createCrdClientSide(KubeTestScope scope) {
    var crd = OperatorFixture.widgetCrd(scope.apiGroup(), "widgets", "Widget");
    createClientSide(CRDS, json(crd));
    var name = crd.getMetadata().getName();
    Crds.awaitEstablished(client, name);
    return name;
  }

  /**
   * Creates {@code manifest} at {@code collection} as client-side {@code kubectl apply} does: the
   * manifest recorded in the last-applied annotation, one create by {@code
   * kubectl-client-side-apply}.
   */
  private void createClientSide(String collection, JsonNode manifest) {
    var object = (ObjectNode) manifest.deepCopy();
    var metadata = (ObjectNode) object.path("metadata");
    var annotations =
        metadata.path("annotations").isObject()
            ? (ObjectNode) metadata.get("annotations")
            : metadata.putObject("annotations");
    annotations.put(LAST_APPLIED, manifest.toString());
    client.raw(
        collection + "?fieldManager=" + CLIENT_SIDE_APPLY,
        "POST",
        Serialization.unmarshal(object.toString(), GenericKubernetesResource.class));
  }

  /**
   * The user re-applies the target client-side with the {@code spec.conversion} it has now (a
   * manifest saved from the cluster, or {@code kubectl edit}): a JSON merge patch by {@code
   * kubectl-client-side-apply} that also records it as last applied.
   */
  private void reapplyConversionClientSide(ResourceDefinitionContext type, HasMetadata live) {
    var conversion = json(live).path("spec").path("conversion");
    var manifest = EngineJson.nodes().objectNode();
    manifest.put("apiVersion", live.getApiVersion()).put("kind", live.getKind());
    manifest.putObject("metadata").put("name", live.getMetadata().getName());
    manifest.putObject("spec").set("conversion", conversion);
    var patch = EngineJson.nodes().objectNode();
    patch.putObject("metadata").putObject("annotations").put(LAST_APPLIED, manifest.toString());
    patch.putObject("spec").set("conversion", conversion);
    var context = PatchContext.of(PatchType.JSON_MERGE);
    context.setFieldManager(CLIENT_SIDE_APPLY);
    client
        .genericKubernetesResources(type)
        .withName(live.getMetadata().getName())
        .patch(context, patch.toString());
  }

  private void served(String target, int index, boolean served) {
    client
        .apiextensions()
        .v1()
        .customResourceDefinitions()
        .withName(target)
        .patch(
            PatchContext.of(PatchType.JSON),
            "[{\"op\":\"replace\",\"path\":\"/spec/versions/"
                + index
                + "/served\",\"value\":"
                + served
                + "}]");
  }

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

  private static void assertReverted(CustomResourceDefinition crd) {
    var conversion = crd.getSpec().getConversion();
    assertThat(conversion.getStrategy()).isEqualTo("None");
    assertThat(conversion.getWebhook()).isNull();
    var annotations = crd.getMetadata().getAnnotations();
    if (annotations != null) {
      assertThat(annotations).doesNotContainKeys("versio.dev/managed-by", "versio.dev/plan-hash");
    }
  }

  private <T extends HasMetadata> void awaitGone(Class<T> type, String name) {
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> client.resources(type).withName(name).get() == null);
  }

  private static <T extends HasMetadata> T unsafeDeletable(T config) {
    var annotations =
        new HashMap<>(
            config.getMetadata().getAnnotations() == null
                ? Map.<String, String>of()
                : config.getMetadata().getAnnotations());
    // the targets serve several versions: deleting the config must not wait on that here
    annotations.put("versio.dev/allow-unsafe-delete", "true");
    config.getMetadata().setAnnotations(annotations);
    return config;
  }

  /** The field managers (other than the operator's apply) owning part of spec.conversion. */
  private static List<String> conversionOwners(HasMetadata target) {
    return owners(target, "f:conversion");
  }

  /** The field managers (other than the operator's apply) owning part of the webhook. */
  private static List<String> webhookOwners(HasMetadata target) {
    return owners(target, "f:webhook");
  }

  private static List<String> owners(HasMetadata target, String field) {
    var owners = new ArrayList<String>();
    for (var entry : target.getMetadata().getManagedFields()) {
      if ("versio-operator".equals(entry.getManager()) && "Apply".equals(entry.getOperation())) {
        continue;
      }
      var fields = json(entry.getFieldsV1()).path("f:spec").path("f:conversion");
      if (field.equals("f:conversion") ? !fields.isMissingNode() : fields.has(field)) {
        owners.add(entry.getManager());
      }
    }
    return owners;
  }

  private double appliesSucceeded() {
    var prefix = "versio_operator_writes_total{kind=\"apply\",result=\"success\"} ";
    return operator
        .metrics()
        .scrape()
        .lines()
        .filter(l -> l.startsWith(prefix))
        .mapToDouble(l -> Double.parseDouble(l.substring(prefix.length()).trim()))
        .findFirst()
        .orElse(0);
  }

  private CustomResourceDefinition crd(String name) {
    return client.apiextensions().v1().customResourceDefinitions().withName(name).get();
  }

  private GenericKubernetesResource xrd(String name) {
    return client
        .genericKubernetesResources(dev.versio.api.crd.XrdApi.context("v2"))
        .withName(name)
        .get();
  }

  private static JsonNode json(Object value) {
    try {
      return EngineJson.newMapper().readTree(Serialization.asJson(value));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
