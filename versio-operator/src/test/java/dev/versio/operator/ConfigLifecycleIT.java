package dev.versio.operator;

import static dev.versio.operator.OperatorFixture.awaitConfig;
import static dev.versio.operator.OperatorFixture.phase;
import static org.assertj.core.api.Assertions.assertThat;

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
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.nio.file.Path;
import java.time.Clock;
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

  @BeforeAll
  void start(KubernetesClient client, ControlPlane controlPlane, @TempDir Path certDir)
      throws Exception {
    this.client = client;
    OperatorFixture.installVersioCrds(client);
    caBundle = OperatorFixture.writeCertificate(certDir);
    webhook = OperatorFixture.startWebhookServer(controlPlane.adminClient(), SERVER, certDir);
    url = "https://127.0.0.1:" + webhook.conversionPort();
    client.resource(OperatorFixture.urlServer(SERVER, url, caBundle)).serverSideApply();
    operator = VersioOperator.start(client, OperatorFixture.options(), Clock.systemUTC());
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
    return new ResourceDefinitionContext.Builder()
        .withGroup(scope.apiGroup())
        .withVersion(version)
        .withKind("Widget")
        .withPlural("widgets")
        .withNamespaced(true)
        .build();
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
}
