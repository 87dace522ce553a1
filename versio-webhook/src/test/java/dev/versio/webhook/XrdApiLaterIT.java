package dev.versio.webhook;

import static org.awaitility.Awaitility.await;

import dev.versio.api.config.NameRef;
import dev.versio.api.config.XRDConversionConfig;
import dev.versio.testkit.ControlPlane;
import dev.versio.testkit.KubeApiServerTest;
import dev.versio.testkit.stories.CrossplaneStandIn;
import dev.versio.testkit.stories.ExampleStory;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A replica started before Crossplane was installed serves XRD configs once Crossplane's XRD API
 * appears, without a restart, and reads XRDs at {@code v1} where that is all the API serves
 * (Crossplane 1.12 to 1.20). A dedicated control plane: the API must not exist at the start.
 */
@KubeApiServerTest(dedicated = true)
class XrdApiLaterIT {
  @Test
  void anXrdConfigIsServedOnceCrossplaneOnesApiAppearsAfterTheReplicaStarted(
      KubernetesClient client, ControlPlane controlPlane, @TempDir Path certDir) throws Exception {
    WebhookFixture.installVersioCrds(client);
    var caBundle = WebhookFixture.writeCertificate(certDir);
    var story = ExampleStory.all().stream().filter(ExampleStory::isXrd).findFirst().orElseThrow();
    try (var server = WebhookFixture.start(controlPlane, "later", certDir)) {
      client
          .resource(WebhookFixture.serverObject("later", server.conversionPort(), caBundle))
          .serverSideApply();
      // Crossplane 1.x (1.12 or later) is installed after the replica started: its XRD API serves
      // v1 only, and the XRD is written at v1, as a 1.x cluster has it
      CrossplaneStandIn.installXrdApiOfCrossplane1(client);
      var atV1 =
          story
              .xrd()
              .toString()
              .replace("apiextensions.crossplane.io/v2", "apiextensions.crossplane.io/v1");
      client
          .resource(Serialization.unmarshal(atV1, GenericKubernetesResource.class))
          .serverSideApply();
      var config = Serialization.unmarshal(story.configYaml(), XRDConversionConfig.class);
      config.getSpec().webhookServerRef = new NameRef("later");
      client.resource(config).serverSideApply();

      await()
          .atMost(Duration.ofSeconds(60))
          .until(() -> server.registry().get(story.crdName()).map(e -> e.servable()).orElse(false));
    }
  }
}
