package dev.versio.operator;

import static dev.versio.operator.OperatorFixture.awaitConfig;
import static dev.versio.operator.OperatorFixture.phase;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.versio.api.config.XRDConversionConfig;
import dev.versio.api.crd.XrdApi;
import dev.versio.testkit.ControlPlane;
import dev.versio.testkit.Crds;
import dev.versio.testkit.KubeApiServerTest;
import dev.versio.testkit.stories.CrossplaneStandIn;
import dev.versio.testkit.stories.CustomResourceType;
import dev.versio.testkit.stories.ExampleStory;
import dev.versio.testkit.stories.StoryRoundTrip;
import dev.versio.webhook.WebhookServer;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The XRD stories on Crossplane 1.x (1.12 to 1.20), whose XRD API serves {@code
 * apiextensions.crossplane.io/v1} only: the operator reads the XRD and writes its {@code
 * spec.conversion} at v1, the webhook server compiles it from v1, and once Crossplane has copied
 * the conversion onto the CRDs it generates — the composite's and the claim's — every sample reads
 * back at every other version through the apiserver, as a composite and as a claim. A dedicated
 * control plane: the XRD API here is Crossplane 1.x's.
 */
@KubeApiServerTest(dedicated = true)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CrossplaneOneIT {
  private static final String SERVER = "crossplane-one";
  private static final String NAMESPACE = "crossplane-one";

  private KubernetesClient client;
  private WebhookServer webhook;
  private VersioOperator operator;
  private String url;

  @BeforeAll
  void start(KubernetesClient client, ControlPlane controlPlane, @TempDir Path certDir)
      throws Exception {
    this.client = client;
    OperatorFixture.installVersioCrds(client);
    client
        .namespaces()
        .resource(
            new NamespaceBuilder().withNewMetadata().withName(NAMESPACE).endMetadata().build())
        .serverSideApply();
    CrossplaneStandIn.installXrdApiOfCrossplane1(client);
    var caBundle = OperatorFixture.writeCertificate(certDir);
    webhook = OperatorFixture.startWebhookServer(controlPlane.adminClient(), SERVER, certDir);
    url = "https://127.0.0.1:" + webhook.conversionPort();
    var server = OperatorFixture.urlServer(SERVER, url, caBundle);
    server.getSpec().isDefault = true;
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

  static List<ExampleStory> xrdStories() {
    return ExampleStory.all().stream().filter(ExampleStory::isXrd).toList();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("xrdStories")
  void theXrdAtV1GetsItsConversionAndCompositesAndClaimsConvert(ExampleStory story) {
    var target = story.crdName();
    // the XRD as Crossplane 1.x stores it: apiextensions.crossplane.io/v1, no scope (v2's field)
    var xrd = (ObjectNode) story.xrd().deepCopy();
    xrd.put("apiVersion", XrdApi.apiVersion("v1"));
    ((ObjectNode) xrd.path("spec")).remove("scope");
    client
        .resource(Serialization.unmarshal(xrd.toString(), GenericKubernetesResource.class))
        .serverSideApply();
    Crds.apply(
        client, Serialization.unmarshal(story.crd().toString(), CustomResourceDefinition.class));
    var claims = claimCrd(story);
    Crds.apply(client, Serialization.unmarshal(claims.toString(), CustomResourceDefinition.class));
    CrossplaneStandIn.reportEstablished(client, target);

    var config = Serialization.unmarshal(story.configYaml(), GenericKubernetesResource.class);
    client.resource(config).serverSideApply();
    awaitConfig(
        client, XRDConversionConfig.class, config.getMetadata().getName(), phase("Applied"));

    var atV1 = client.genericKubernetesResources(XrdApi.context("v1")).withName(target).get();
    @SuppressWarnings("unchecked")
    var spec = (Map<String, Object>) atV1.getAdditionalProperties().get("spec");
    assertThat(spec.get("conversion").toString())
        .as("the XRD's conversion, written at v1")
        .contains("strategy=Webhook")
        .contains(url + "/convert/" + target);
    // Crossplane 1.12+ copies it onto the composite's CRD and the claim's
    CrossplaneStandIn.propagateConversion(client, target);
    CrossplaneStandIn.propagateConversion(
        client, target, claims.path("metadata").path("name").asText());
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> webhook.registry().get(target).map(e -> e.servable()).orElse(false));

    assertThat(
            StoryRoundTrip.assertEverySampleReadsBackAtEveryOtherVersion(client, NAMESPACE, story))
        .isPositive();
    assertThat(
            StoryRoundTrip.assertEverySampleReadsBackAtEveryOtherVersion(
                client, NAMESPACE, story, CustomResourceType.of(claims)))
        .as("claims: the same conversion, through the composite's webhook path")
        .isPositive();
  }

  /**
   * The claim CRD Crossplane generates for {@code claimNames}: the XR's versions and schemas,
   * namespaced, named after the claim kind.
   */
  private static ObjectNode claimCrd(ExampleStory story) {
    var crd = story.crd().deepCopy();
    var spec = (ObjectNode) crd.path("spec");
    var names = (ObjectNode) spec.path("names");
    var kind = names.path("kind").asText() + "Claim";
    var plural = names.path("plural").asText() + "claims";
    names.removeAll();
    names.put("kind", kind).put("plural", plural);
    spec.put("scope", "Namespaced");
    ((ObjectNode) crd.path("metadata")).put("name", plural + "." + spec.path("group").asText());
    return crd;
  }
}
