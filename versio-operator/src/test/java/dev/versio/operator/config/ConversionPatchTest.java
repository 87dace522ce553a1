package dev.versio.operator.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.flipkart.zjsonpatch.JsonPatch;
import com.flipkart.zjsonpatch.JsonPatchApplicationException;
import dev.versio.engine.json.EngineJson;
import dev.versio.operator.config.ConversionPatch.Endpoint;
import dev.versio.testkit.stories.ExampleStory;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class ConversionPatchTest {
  private static final YAMLMapper YAML = EngineJson.configure(YAMLMapper.builder()).build();
  private static final String CRD_API = "apiextensions.k8s.io/v1";
  private static final String CRD_KIND = "CustomResourceDefinition";
  private static final String TARGET = "caches.example.com";
  private static final String CA = "Q0EgYnVuZGxl";
  private static final String STORY_CRD = "examples/field-rename/crd.yaml";

  private static JsonNode yaml(String text) {
    try {
      return YAML.readTree(text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Equal as JSON values (a number is a number, whatever node type holds it). */
  private static void assertSameJson(JsonNode actual, JsonNode expected) {
    assertThat(EngineJson.sameValue(actual, expected))
        .as("%s%nis the same JSON as%n%s", actual, expected)
        .isTrue();
  }

  private static ObjectNode applyService(String planHash) {
    return ConversionPatch.apply(
        CRD_API,
        CRD_KIND,
        TARGET,
        "caches-config",
        planHash,
        Endpoint.service("versio-system", "primary-webhook-server", 443, TARGET),
        CA,
        List.of("v1", "v1beta1"));
  }

  private static ObjectNode applyUrl(String planHash) {
    return ConversionPatch.apply(
        CRD_API,
        CRD_KIND,
        TARGET,
        "caches-config",
        planHash,
        Endpoint.url("https://versio.example:8443/", TARGET),
        CA,
        null);
  }

  /**
   * The story's CRD as the apiserver would return it after {@code applied} was applied by {@code
   * manager} through {@code operation}.
   */
  private static TargetView targetAfter(ObjectNode applied, String manager, String operation) {
    var crd = (ObjectNode) read(ExampleStory.repositoryRoot().resolve(STORY_CRD));
    var metadata = (ObjectNode) crd.get("metadata");
    metadata.set("annotations", applied.path("metadata").path("annotations").deepCopy());
    metadata
        .putArray("managedFields")
        .addObject()
        .put("manager", manager)
        .put("operation", operation)
        .put("apiVersion", CRD_API)
        .put("fieldsType", "FieldsV1");
    ((ObjectNode) crd.get("spec")).set("conversion", applied.path("spec").path("conversion"));
    return TargetView.of(Serialization.unmarshal(crd.toString(), GenericKubernetesResource.class));
  }

  private static JsonNode read(Path file) {
    try {
      return YAML.readTree(file.toFile());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  void aUrlModeApplyBodyCarriesOnlyTheNameTheTwoAnnotationsAndTheWebhookConversion() {
    var body = applyUrl("sha256:plan");

    assertThat(body)
        .isEqualTo(
            yaml(
                """
                apiVersion: apiextensions.k8s.io/v1
                kind: CustomResourceDefinition
                metadata:
                  name: caches.example.com
                  annotations:
                    versio.dev/managed-by: caches-config
                    versio.dev/plan-hash: sha256:plan
                spec:
                  conversion:
                    strategy: Webhook
                    webhook:
                      clientConfig:
                        url: https://versio.example:8443/convert/caches.example.com
                        caBundle: Q0EgYnVuZGxl
                      conversionReviewVersions: [v1]
                """));
  }

  @Test
  void aServiceModeApplyBodyNamesTheServiceAndTheReviewVersionsAsked() {
    var body = applyService("sha256:plan");

    assertSameJson(
        body.path("spec"),
        yaml(
            """
                conversion:
                  strategy: Webhook
                  webhook:
                    clientConfig:
                      service:
                        namespace: versio-system
                        name: primary-webhook-server
                        path: /convert/caches.example.com
                        port: 443
                      caBundle: Q0EgYnVuZGxl
                    conversionReviewVersions: [v1, v1beta1]
                """));
  }

  @Test
  void noReviewVersionsMeansV1() {
    var body =
        ConversionPatch.apply(
            CRD_API, CRD_KIND, TARGET, "c", "h", Endpoint.url("https://x", TARGET), CA, List.of());

    assertThat(body.at("/spec/conversion/webhook/conversionReviewVersions"))
        .isEqualTo(yaml("[v1]"));
  }

  @Test
  void theEndpointOfAServiceIsItsClusterDnsNameAndPath() {
    var endpoint = Endpoint.service("versio-system", "primary-webhook-server", 8443, TARGET);

    assertThat(endpoint.url())
        .isEqualTo(
            "https://primary-webhook-server.versio-system.svc:8443/convert/caches.example.com");
    assertThat(endpoint.path()).isEqualTo("/convert/caches.example.com");
    assertThat(endpoint.clientConfig().has("caBundle")).isFalse();
  }

  @Test
  void theEndpointOfAUrlAppendsThePathOnceWithOrWithoutATrailingSlash() {
    var withSlash = Endpoint.url("https://versio.example/", TARGET);
    var without = Endpoint.url("https://versio.example", TARGET);

    assertThat(withSlash.url()).isEqualTo("https://versio.example/convert/caches.example.com");
    assertThat(without).isEqualTo(withSlash);
    assertThat(withSlash.clientConfig()).isEqualTo(yaml("url: " + withSlash.url()));
  }

  @Test
  void applyingDoesNotChangeTheEndpoint() {
    var endpoint = Endpoint.url("https://versio.example", TARGET);

    ConversionPatch.apply(CRD_API, CRD_KIND, TARGET, "c", "h", endpoint, CA, null);

    assertThat(endpoint.clientConfig().has("caBundle")).isFalse();
  }

  @Test
  void theRevertBodySaysOnlyStrategyNone() {
    var body = ConversionPatch.revert(CRD_API, CRD_KIND, TARGET);

    assertThat(body)
        .isEqualTo(
            yaml(
                """
                apiVersion: apiextensions.k8s.io/v1
                kind: CustomResourceDefinition
                metadata: {name: caches.example.com}
                spec:
                  conversion: {strategy: None}
                """));
  }

  /** A CRD the operator pointed at its webhook, as a GET returns it (the parts that matter). */
  private static JsonNode pointedTarget(String managedBy) {
    return yaml(
        """
        apiVersion: apiextensions.k8s.io/v1
        kind: CustomResourceDefinition
        metadata:
          name: caches.example.com
          annotations:
            versio.dev/managed-by: MANAGED_BY
            versio.dev/plan-hash: sha256:plan
            team: caches
          managedFields:
          - manager: versio-operator
            operation: Apply
            fieldsV1:
              f:spec: {f:conversion: {f:strategy: {}, f:webhook: {f:clientConfig: {f:url: {}}}}}
          - manager: kubectl-client-side-apply
            operation: Update
            fieldsV1:
              f:spec: {f:conversion: {.: {}, f:webhook: {f:conversionReviewVersions: {}}}}
          - manager: kube-apiserver
            operation: Update
            fieldsV1:
              f:status: {f:conditions: {}}
        spec:
          group: example.com
          conversion:
            strategy: Webhook
            webhook:
              clientConfig: {url: "https://versio.example/convert/caches.example.com", caBundle: Q0E=}
              conversionReviewVersions: [v1]
        """
            .replace("MANAGED_BY", managedBy));
  }

  @Test
  void aWebhookLeftBehindIsRemovedByOneGuardedPatchWithTheConfigsAnnotations() {
    var patch =
        ConversionPatch.webhookRemoval(
                pointedTarget("CRDConversionConfig/caches"), "CRDConversionConfig/caches")
            .orElseThrow();

    assertSameJson(
        patch,
        yaml(
            """
            - {op: test, path: /spec/conversion/strategy, value: Webhook}
            - {op: replace, path: /spec/conversion/strategy, value: None}
            - op: test
              path: /spec/conversion/webhook
              value:
                clientConfig: {url: "https://versio.example/convert/caches.example.com", caBundle: Q0E=}
                conversionReviewVersions: [v1]
            - {op: remove, path: /spec/conversion/webhook}
            - {op: test, path: /metadata/annotations/versio.dev~1managed-by, value: CRDConversionConfig/caches}
            - {op: remove, path: /metadata/annotations/versio.dev~1managed-by}
            - {op: test, path: /metadata/annotations/versio.dev~1plan-hash, value: "sha256:plan"}
            - {op: remove, path: /metadata/annotations/versio.dev~1plan-hash}
            """));
  }

  @Test
  void thePatchLeavesStrategyNoneWithoutAWebhookAndEverythingElseAsItWas() {
    var target = pointedTarget("CRDConversionConfig/caches");
    var patch = ConversionPatch.webhookRemoval(target, "CRDConversionConfig/caches").orElseThrow();

    var patched = JsonPatch.apply(patch, target);

    assertSameJson(patched.at("/spec/conversion"), yaml("strategy: None"));
    assertSameJson(patched.at("/metadata/annotations"), yaml("team: caches"));
    assertSameJson(patched.at("/spec/group"), target.at("/spec/group"));
    assertThat(ConversionPatch.webhookRemoval(patched, "CRDConversionConfig/caches")).isEmpty();
  }

  @Test
  void thePatchFailsOnATargetSomeoneChangedMeanwhile() {
    var target = pointedTarget("CRDConversionConfig/caches");
    var patch = ConversionPatch.webhookRemoval(target, "CRDConversionConfig/caches").orElseThrow();
    var repointed = target.deepCopy();
    ((ObjectNode) repointed.at("/spec/conversion/webhook/clientConfig"))
        .put("url", "https://elsewhere.example/convert");

    assertThatThrownBy(() -> JsonPatch.apply(patch, repointed))
        .isInstanceOf(JsonPatchApplicationException.class);
  }

  @Test
  void theAnnotationsOfAnotherConfigAreLeftAlone() {
    var patch =
        ConversionPatch.webhookRemoval(
                pointedTarget("CRDConversionConfig/other"), "CRDConversionConfig/caches")
            .orElseThrow();

    assertThat(patch.toString()).doesNotContain("/metadata/annotations");
  }

  @Test
  void aTargetWithoutAWebhookNeedsNoPatch() {
    var reverted = pointedTarget("CRDConversionConfig/caches").deepCopy();
    ((ObjectNode) reverted.get("spec")).set("conversion", yaml("strategy: None"));

    assertThat(ConversionPatch.webhookRemoval(reverted, "CRDConversionConfig/caches")).isEmpty();
  }

  @Test
  void aWebhookWithoutAStrategyGetsStrategyNoneAdded() {
    var xrd = yaml("spec: {conversion: {webhook: {conversionReviewVersions: [v1]}}}");

    var patched =
        JsonPatch.apply(
            ConversionPatch.webhookRemoval(xrd, "XRDConversionConfig/x").orElseThrow(), xrd);

    assertSameJson(patched, yaml("spec: {conversion: {strategy: None}}"));
  }

  @Test
  void theOtherOwnersOfTheConversionAreNamedButNotTheOperatorsApply() {
    assertThat(ConversionPatch.otherConversionOwners(pointedTarget("CRDConversionConfig/caches")))
        .containsExactly("kubectl-client-side-apply/Update");
  }

  @Test
  void aTargetCarryingTheBodyThroughTheOperatorsApplyIsAlreadyApplied() {
    var desired = applyUrl("sha256:plan");
    var target = targetAfter(desired, ConversionPatch.FIELD_MANAGER, "Apply");

    assertThat(target.managedByOperator()).isTrue();
    assertThat(ConversionPatch.alreadyApplied(target, desired)).isTrue();
  }

  @Test
  void aServiceModeTargetIsAlreadyAppliedToo() {
    var desired = applyService("sha256:plan");
    var target = targetAfter(desired, ConversionPatch.FIELD_MANAGER, "Apply");

    assertThat(ConversionPatch.alreadyApplied(target, desired)).isTrue();
  }

  @Test
  void theSameConversionWrittenBySomeoneElseIsNotAlreadyApplied() {
    var desired = applyUrl("sha256:plan");

    var byKubectl = targetAfter(desired, "kubectl", "Apply");
    var byOperatorUpdate = targetAfter(desired, ConversionPatch.FIELD_MANAGER, "Update");

    assertThat(ConversionPatch.alreadyApplied(byKubectl, desired)).isFalse();
    assertThat(ConversionPatch.alreadyApplied(byOperatorUpdate, desired)).isFalse();
  }

  @Test
  void anotherPlanHashIsNotAlreadyApplied() {
    var target = targetAfter(applyUrl("sha256:old"), ConversionPatch.FIELD_MANAGER, "Apply");

    assertThat(ConversionPatch.alreadyApplied(target, applyUrl("sha256:new"))).isFalse();
  }

  @Test
  void anotherManagedByIsNotAlreadyApplied() {
    var desired = applyUrl("sha256:plan");
    var other = desired.deepCopy();
    ((ObjectNode) other.at("/metadata/annotations"))
        .put(ConversionPatch.MANAGED_BY, "another-config");

    var target = targetAfter(other, ConversionPatch.FIELD_MANAGER, "Apply");

    assertThat(ConversionPatch.alreadyApplied(target, desired)).isFalse();
  }

  @Test
  void aDifferentConversionIsNotAlreadyApplied() {
    var desired = applyUrl("sha256:plan");
    var rotated = desired.deepCopy();
    ((ObjectNode) rotated.at("/spec/conversion/webhook/clientConfig")).put("caBundle", "b2xk");
    var reverted = desired.deepCopy();
    ((ObjectNode) reverted.get("spec")).set("conversion", yaml("strategy: None"));

    assertThat(
            ConversionPatch.alreadyApplied(
                targetAfter(rotated, ConversionPatch.FIELD_MANAGER, "Apply"), desired))
        .isFalse();
    assertThat(
            ConversionPatch.alreadyApplied(
                targetAfter(reverted, ConversionPatch.FIELD_MANAGER, "Apply"), desired))
        .isFalse();
  }
}
