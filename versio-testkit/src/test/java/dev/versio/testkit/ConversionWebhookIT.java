package dev.versio.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersionBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaPropsBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Proves the whole conversion path through a real kube-apiserver: a CRD whose {@code
 * spec.conversion} points by URL (with {@code caBundle}) at an HTTPS handler on loopback.
 */
@KubeApiServerTest
class ConversionWebhookIT {
  private final KubernetesClient client;
  private final KubeTestScope scope;
  private RenamingConversionWebhook webhook;
  private String group;

  ConversionWebhookIT(KubernetesClient client, KubeTestScope scope) {
    this.client = client;
    this.scope = scope;
  }

  @BeforeEach
  void installCrdWithWebhookConversion() throws Exception {
    webhook = new RenamingConversionWebhook();
    group = scope.apiGroup();
    var crd = twoVersionCrd(group, webhook);
    client.apiextensions().v1().customResourceDefinitions().resource(crd).create();
    Crds.awaitEstablished(client, crd.getMetadata().getName());
  }

  @AfterEach
  void stopWebhook() {
    webhook.close();
  }

  @Test
  void anObjectCreatedAtV1ReadsBackAtV2WithTheRenamedFieldThroughTheWebhook() {
    var namespace = scope.namespace();
    widgets("v1").inNamespace(namespace).resource(widgetV1("alpha", 3)).create();

    var atV2 = awaitV2(namespace, "alpha");

    assertThat(atV2.getApiVersion()).isEqualTo(group + "/v2");
    assertThat(spec(atV2)).containsEntry("replicas", 3).doesNotContainKey("size");
    var review =
        webhook.reviews().stream()
            .filter(r -> r.path("request").path("desiredAPIVersion").asText().equals(group + "/v2"))
            .findFirst()
            .orElseThrow(() -> new AssertionError("the webhook never saw a review towards v2"));
    assertThat(review.path("apiVersion").asText()).isEqualTo("apiextensions.k8s.io/v1");
    assertThat(review.path("request").path("uid").asText()).isNotBlank();
    var sent = review.path("request").path("objects").get(0);
    assertThat(sent.path("apiVersion").asText()).isEqualTo(group + "/v1");
    assertThat(sent.path("metadata").path("name").asText()).isEqualTo("alpha");
    assertThat(sent.path("spec").path("size").asInt()).isEqualTo(3);
  }

  @Test
  void anObjectWrittenAtV2IsStoredAtV1AndReadsBackAtV1WithTheOldFieldName() {
    var namespace = scope.namespace();
    widgets("v2")
        .inNamespace(namespace)
        .resource(widget("v2", "beta", Map.of("replicas", 5)))
        .create();

    var atV1 = widgets("v1").inNamespace(namespace).withName("beta").get();

    assertThat(spec(atV1)).containsEntry("size", 5).doesNotContainKey("replicas");
    assertThat(webhook.reviews())
        .anySatisfy(
            r ->
                assertThat(r.path("request").path("desiredAPIVersion").asText())
                    .isEqualTo(group + "/v1"));
  }

  @Test
  void aFailureResultFromTheWebhookFailsTheClientRequestWithTheWebhookMessage() {
    var namespace = scope.namespace();
    widgets("v1").inNamespace(namespace).resource(widgetV1("gamma", 1)).create();
    awaitV2(namespace, "gamma");

    webhook.failFromNowOn();

    assertThatThrownBy(() -> widgets("v2").inNamespace(namespace).withName("gamma").get())
        .isInstanceOf(KubernetesClientException.class)
        .hasMessageContaining(RenamingConversionWebhook.FAILURE_MESSAGE);
  }

  private GenericKubernetesResource awaitV2(String namespace, String name) {
    // The apiserver may still be wiring the conversion webhook right after the CRD is Established.
    return await()
        .atMost(Duration.ofSeconds(20))
        .ignoreException(KubernetesClientException.class)
        .until(() -> widgets("v2").inNamespace(namespace).withName(name).get(), r -> r != null);
  }

  private MixedOperation<
          GenericKubernetesResource,
          GenericKubernetesResourceList,
          Resource<GenericKubernetesResource>>
      widgets(String version) {
    return client.genericKubernetesResources(
        new ResourceDefinitionContext.Builder()
            .withGroup(group)
            .withVersion(version)
            .withKind("Widget")
            .withPlural("widgets")
            .withNamespaced(true)
            .build());
  }

  private GenericKubernetesResource widgetV1(String name, int size) {
    return widget("v1", name, Map.of("size", size));
  }

  private GenericKubernetesResource widget(String version, String name, Map<String, Object> spec) {
    return new GenericKubernetesResourceBuilder()
        .withApiVersion(group + "/" + version)
        .withKind("Widget")
        .withNewMetadata()
        .withName(name)
        .endMetadata()
        .withAdditionalProperties(Map.of("spec", spec))
        .build();
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> spec(GenericKubernetesResource resource) {
    return (Map<String, Object>) resource.getAdditionalProperties().get("spec");
  }

  private static CustomResourceDefinition twoVersionCrd(
      String group, RenamingConversionWebhook webhook) {
    return new CustomResourceDefinitionBuilder()
        .withNewMetadata()
        .withName("widgets." + group)
        .endMetadata()
        .withNewSpec()
        .withGroup(group)
        .withScope("Namespaced")
        .withNewNames()
        .withKind("Widget")
        .withPlural("widgets")
        .withSingular("widget")
        .withListKind("WidgetList")
        .endNames()
        .withVersions(version("v1", "size", true), version("v2", "replicas", false))
        .withNewConversion()
        .withStrategy("Webhook")
        .withNewWebhook()
        .withConversionReviewVersions("v1")
        .withNewClientConfig()
        .withUrl(webhook.url().toString())
        .withCaBundle(webhook.caBundle())
        .endClientConfig()
        .endWebhook()
        .endConversion()
        .endSpec()
        .build();
  }

  private static CustomResourceDefinitionVersion version(
      String name, String field, boolean storage) {
    var integer = new JSONSchemaPropsBuilder().withType("integer").build();
    var spec =
        new JSONSchemaPropsBuilder().withType("object").addToProperties(field, integer).build();
    return new CustomResourceDefinitionVersionBuilder()
        .withName(name)
        .withServed(true)
        .withStorage(storage)
        .withNewSchema()
        .withNewOpenAPIV3Schema()
        .withType("object")
        .addToProperties("spec", spec)
        .endOpenAPIV3Schema()
        .endSchema()
        .build();
  }
}
