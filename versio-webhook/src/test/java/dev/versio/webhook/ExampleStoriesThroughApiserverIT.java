package dev.versio.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.versio.api.config.CRDConversionConfig;
import dev.versio.api.config.NameRef;
import dev.versio.api.config.XRDConversionConfig;
import dev.versio.testkit.ControlPlane;
import dev.versio.testkit.Crds;
import dev.versio.testkit.KubeApiServerTest;
import dev.versio.testkit.stories.CrossplaneStandIn;
import dev.versio.testkit.stories.ExampleStory;
import dev.versio.testkit.stories.StoryPartialApply;
import dev.versio.testkit.stories.StoryRoundTrip;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every example story, end to end through a real kube-apiserver: the story's CRD points its
 * conversion webhook at a Versio webhook server (in this JVM: the same code {@code versio
 * webhook-server} runs, started in a second instead of a process, and debuggable), the config is
 * applied as a custom resource, and every sample is created at its version and read back at every
 * other version with get, list and watch ({@link StoryRoundTrip}), and applied server-side in part
 * at a second version, which sends partial objects through the webhook ({@link StoryPartialApply}).
 */
@KubeApiServerTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ExampleStoriesThroughApiserverIT {
  private static final String SERVER = "stories-it";
  private static final String NAMESPACE = "stories-it";

  private KubernetesClient client;
  private WebhookServer server;

  @BeforeAll
  void startServerAndApplyStories(
      KubernetesClient client, ControlPlane controlPlane, @TempDir Path certDir) throws Exception {
    this.client = client;
    WebhookFixture.installVersioCrds(client);
    client
        .namespaces()
        .resource(
            new NamespaceBuilder().withNewMetadata().withName(NAMESPACE).endMetadata().build())
        .serverSideApply();
    // Crossplane's XRD API must exist before the server starts for it to watch XRDs
    CrossplaneStandIn.installXrdApi(client);
    var caBundle = WebhookFixture.writeCertificate(certDir);
    server = WebhookFixture.start(controlPlane, SERVER, certDir);
    client
        .resource(WebhookFixture.serverObject(SERVER, server.conversionPort(), caBundle))
        .serverSideApply();
    for (var story : stories()) {
      if (story.isXrd()) {
        client
            .resource(
                Serialization.unmarshal(story.xrd().toString(), GenericKubernetesResource.class))
            .serverSideApply();
      }
      var crd = story.crd();
      var webhook =
          ((ObjectNode) crd.path("spec"))
              .putObject("conversion")
              .put("strategy", "Webhook")
              .putObject("webhook");
      webhook.putArray("conversionReviewVersions").add("v1");
      webhook
          .putObject("clientConfig")
          .put(
              "url", "https://127.0.0.1:" + server.conversionPort() + "/convert/" + story.crdName())
          .put("caBundle", caBundle);
      Crds.apply(client, Serialization.unmarshal(crd.toString(), CustomResourceDefinition.class));
      if (story.isXrd()) {
        var config = Serialization.unmarshal(story.configYaml(), XRDConversionConfig.class);
        config.getSpec().webhookServerRef = new NameRef(SERVER);
        client.resource(config).serverSideApply();
      } else {
        var config = Serialization.unmarshal(story.configYaml(), CRDConversionConfig.class);
        config.getSpec().webhookServerRef = new NameRef(SERVER);
        client.resource(config).serverSideApply();
      }
    }
    await()
        .atMost(Duration.ofSeconds(60))
        .untilAsserted(
            () -> {
              for (var story : stories()) {
                var target = story.crdName();
                assertThat(server.registry().get(target))
                    .as("registry entry of %s", target)
                    .hasValueSatisfying(
                        e -> assertThat(e.servable()).as("servable: %s", e.lastError()).isTrue());
              }
            });
  }

  @AfterAll
  void stopServer() {
    if (server != null) {
      server.close();
    }
  }

  static List<ExampleStory> stories() {
    return ExampleStory.all();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("stories")
  void everySampleCreatedAtItsVersionReadsBackAtEveryOtherVersion(ExampleStory story) {
    StoryRoundTrip.assertEverySampleReadsBackAtEveryOtherVersion(client, NAMESPACE, story);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("stories")
  void partialObjectsAppliedServerSideAtAnotherVersionConvert(ExampleStory story) {
    assertThat(StoryPartialApply.assertPartialObjectsApplyServerSide(client, NAMESPACE, story))
        .as("server-side applies of %s", story)
        .isPositive();
  }
}
