package dev.versio.operator;

import static dev.versio.operator.OperatorFixture.awaitConfig;
import static dev.versio.operator.OperatorFixture.phase;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.versio.api.config.CRDConversionConfig;
import dev.versio.api.config.ConversionConfigStatus;
import dev.versio.api.config.XRDConversionConfig;
import dev.versio.engine.json.EngineJson;
import dev.versio.testkit.ControlPlane;
import dev.versio.testkit.Crds;
import dev.versio.testkit.KubeApiServerTest;
import dev.versio.testkit.stories.CrossplaneStandIn;
import dev.versio.testkit.stories.ExampleStory;
import dev.versio.testkit.stories.StoryRoundTrip;
import dev.versio.webhook.WebhookServer;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every example story through the operator, as a user would run it: the story's CRD (or XRD and the
 * CRD Crossplane generates from it, at first without conversion), one webhook server in this JVM
 * reached in URL mode and declared the {@code default} ConversionWebhookServer, and the story's
 * config applied exactly as written — without {@code webhookServerRef}, so it must resolve to the
 * default. The operator must reach Applied and point the target at the server; then every sample
 * reads back at every other version with get, list and watch ({@link StoryRoundTrip}).
 *
 * <p>The control plane is the class's own, so the default server is the only one. The operator
 * starts before Crossplane's XRD API is installed: it must notice the API appearing.
 */
@KubeApiServerTest(dedicated = true)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OperatorStoriesIT {
  private static final String SERVER = "stories-default";
  private static final String NAMESPACE = "operator-stories";

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
    client
        .namespaces()
        .resource(
            new NamespaceBuilder().withNewMetadata().withName(NAMESPACE).endMetadata().build())
        .serverSideApply();
    operator = OperatorFixture.start(client, OperatorFixture.options(), Clock.systemUTC());
    // after the operator: it starts watching XRDs when their API appears
    CrossplaneStandIn.installXrdApi(client);
    caBundle = OperatorFixture.writeCertificate(certDir);
    // after the XRD API: the webhook server watches XRDs only if their API exists when it starts
    webhook = OperatorFixture.startWebhookServer(controlPlane.adminClient(), SERVER, certDir);
    url = "https://127.0.0.1:" + webhook.conversionPort();
    var server = OperatorFixture.urlServer(SERVER, url, caBundle);
    server.getSpec().isDefault = true;
    client.resource(server).serverSideApply();
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

  static List<ExampleStory> stories() {
    return ExampleStory.all();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("stories")
  void theConfigAsWrittenResolvesToTheDefaultServerAndEverySampleReadsBackAtEveryOtherVersion(
      ExampleStory story) {
    var target = story.crdName();
    installTarget(story);
    var config = Serialization.unmarshal(story.configYaml(), GenericKubernetesResource.class);
    assertThat(config.getAdditionalProperties().get("spec").toString())
        .as("the story's config names no server: it must resolve to the default")
        .doesNotContain("webhookServerRef");
    client.resource(config).serverSideApply();

    var name = config.getMetadata().getName();
    ConversionConfigStatus status =
        story.isXrd()
            ? awaitConfig(client, XRDConversionConfig.class, name, phase("Applied")).getStatus()
            : awaitConfig(client, CRDConversionConfig.class, name, phase("Applied")).getStatus();

    var webhookUrl = url + "/convert/" + target;
    assertThat(status.assignedWebhookServer).isEqualTo(SERVER);
    assertThat(status.webhookURL).isEqualTo(webhookUrl);
    if (story.isXrd()) {
      var clientConfig =
          xrd(target).path("spec").path("conversion").path("webhook").path("clientConfig");
      assertThat(clientConfig.path("url").asText()).as("the XRD's webhook").isEqualTo(webhookUrl);
      assertThat(clientConfig.path("caBundle").asText()).isEqualTo(caBundle);
      // Crossplane copies the XRD's conversion onto the CRD it generated
      CrossplaneStandIn.propagateConversion(client, target);
    }
    var conversion = crd(target).getSpec().getConversion();
    assertThat(conversion.getStrategy()).isEqualTo("Webhook");
    assertThat(conversion.getWebhook().getClientConfig().getUrl()).isEqualTo(webhookUrl);
    assertThat(conversion.getWebhook().getClientConfig().getCaBundle()).isEqualTo(caBundle);
    awaitServable(target);

    StoryRoundTrip.assertEverySampleReadsBackAtEveryOtherVersion(client, NAMESPACE, story);
  }

  /**
   * The story's CRD without conversion; for an XRD story the XRD, the CRD Crossplane generates from
   * it, and the XRD reported Established as Crossplane does once that CRD is served.
   */
  private void installTarget(ExampleStory story) {
    if (story.isXrd()) {
      client
          .resource(
              Serialization.unmarshal(story.xrd().toString(), GenericKubernetesResource.class))
          .serverSideApply();
    }
    var crd = story.crd();
    assertThat(crd.path("spec").has("conversion"))
        .as("%s: the CRD starts without conversion", story)
        .isFalse();
    Crds.apply(client, Serialization.unmarshal(crd.toString(), CustomResourceDefinition.class));
    if (story.isXrd()) {
      CrossplaneStandIn.reportEstablished(client, story.crdName());
    }
  }

  /** Waits until this JVM's webhook server has compiled {@code target} (it learns it by watch). */
  private void awaitServable(String target) {
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () ->
                assertThat(webhook.registry().get(target))
                    .as("registry entry of %s", target)
                    .hasValueSatisfying(
                        e -> assertThat(e.servable()).as("servable: %s", e.lastError()).isTrue()));
  }

  private CustomResourceDefinition crd(String name) {
    return client.apiextensions().v1().customResourceDefinitions().withName(name).get();
  }

  private JsonNode xrd(String name) {
    var xrd =
        client
            .genericKubernetesResources(
                "apiextensions.crossplane.io/v2", "CompositeResourceDefinition")
            .withName(name)
            .get();
    try {
      return EngineJson.newMapper().readTree(Serialization.asJson(xrd));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
