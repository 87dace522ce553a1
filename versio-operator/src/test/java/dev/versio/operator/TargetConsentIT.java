package dev.versio.operator;

import static dev.versio.operator.OperatorFixture.awaitConfig;
import static dev.versio.operator.OperatorFixture.phase;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.versio.api.server.ConversionWebhookServer;
import dev.versio.operator.config.TargetConsent;
import dev.versio.operator.status.Conditions;
import dev.versio.testkit.ControlPlane;
import dev.versio.testkit.Crds;
import dev.versio.testkit.KubeApiServerTest;
import dev.versio.testkit.KubeTestScope;
import dev.versio.webhook.WebhookServer;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
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
 * A config cannot take over a CRD whose owner did not consent, nor one whose conversion webhook
 * someone else manages until it is handed over; a URL-mode server is refused without probing when
 * URL mode is off. The operator runs with the production defaults for targets (no group allowed
 * without the annotation); URL mode is on for the first two, since the replica here is a process.
 */
@KubeApiServerTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TargetConsentIT {
  private static final String SERVER = "consent";

  private KubernetesClient client;
  private WebhookServer webhook;
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
  }

  @AfterAll
  void stop() {
    if (webhook != null) {
      webhook.close();
    }
  }

  private static OperatorOptions targetsByAnnotationOnly() {
    return OperatorFixture.options().toBuilder().targetGroups(List.of()).build();
  }

  private CustomResourceDefinition crd(String name) {
    return client.apiextensions().v1().customResourceDefinitions().withName(name).get();
  }

  private String strategy(String target) {
    var conversion = crd(target).getSpec().getConversion();
    return conversion == null ? "None" : conversion.getStrategy();
  }

  private void annotate(String target, String key, String value) {
    client
        .apiextensions()
        .v1()
        .customResourceDefinitions()
        .withName(target)
        .edit(
            c -> {
              if (c.getMetadata().getAnnotations() == null) {
                c.getMetadata().setAnnotations(new java.util.HashMap<>());
              }
              c.getMetadata().getAnnotations().put(key, value);
              return c;
            });
  }

  private String validated(dev.versio.api.config.CRDConversionConfig config) {
    return Conditions.find(config.getStatus().conditions, Conditions.VALIDATED)
        .map(c -> c.getStatus() + "/" + c.getReason() + ": " + c.getMessage())
        .orElse("absent");
  }

  @Test
  void aConfigWaitsInvalidUntilTheTargetsOwnerConsentsAndTheTargetIsUntouchedMeanwhile(
      KubeTestScope scope) {
    var crd = OperatorFixture.widgetCrd(scope.apiGroup(), "widgets", "Widget");
    crd.getMetadata().setAnnotations(new java.util.HashMap<>(Map.of("team", "b")));
    client.resource(crd).serverSideApply();
    var target = crd.getMetadata().getName();
    Crds.awaitEstablished(client, target);
    var name = scope.name("intruder");
    try (var operator =
        OperatorFixture.start(client, targetsByAnnotationOnly(), Clock.systemUTC())) {
      client.resource(OperatorFixture.renameConfig(name, target, SERVER)).create();

      var refused = awaitConfig(client, name, phase("Invalid"));
      assertThat(validated(refused))
          .contains("False/Invalid")
          .contains("does not consent to conversion by CRDConversionConfig/" + name)
          .contains("versio.dev/conversion-config=" + name);
      assertThat(refused.getStatus().phase).isEqualTo("Invalid");
      await()
          .during(Duration.ofSeconds(2))
          .atMost(Duration.ofSeconds(10))
          .until(() -> !"Webhook".equals(strategy(target)));

      annotate(target, TargetConsent.CONSENT_ANNOTATION, name);
      awaitConfig(client, name, phase("Applied"));
      assertThat(strategy(target)).isEqualTo("Webhook");
    }
  }

  @Test
  void aWebhookSomeoneElseManagesIsKeptUntilItsOwnerHandsItOver(KubeTestScope scope) {
    var crd = OperatorFixture.widgetCrd(scope.apiGroup(), "widgets", "Widget");
    crd.getMetadata()
        .setAnnotations(new java.util.HashMap<>(Map.of(TargetConsent.CONSENT_ANNOTATION, "*")));
    var theirs =
        new io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceConversionBuilder()
            .withStrategy("Webhook")
            .withNewWebhook()
            .withConversionReviewVersions("v1")
            .withNewClientConfig()
            .withNewService()
            .withNamespace("team-b")
            .withName("their-converter")
            .withPath("/convert")
            .withPort(443)
            .endService()
            .endClientConfig()
            .endWebhook()
            .build();
    crd.getSpec().setConversion(theirs);
    client.resource(crd).create();
    var target = crd.getMetadata().getName();
    Crds.awaitEstablished(client, target);
    var name = scope.name("widgets");
    try (var operator =
        OperatorFixture.start(client, targetsByAnnotationOnly(), Clock.systemUTC())) {
      client.resource(OperatorFixture.renameConfig(name, target, SERVER)).create();

      var refused = awaitConfig(client, name, phase("Invalid"));
      assertThat(validated(refused))
          .contains("already converts through a webhook Versio does not manage")
          .contains("Service team-b/their-converter");
      assertThat(
              crd(target)
                  .getSpec()
                  .getConversion()
                  .getWebhook()
                  .getClientConfig()
                  .getService()
                  .getName())
          .isEqualTo("their-converter");

      annotate(target, TargetConsent.TAKEOVER_ANNOTATION, "true");
      awaitConfig(client, name, phase("Applied"));
      assertThat(crd(target).getSpec().getConversion().getWebhook().getClientConfig().getUrl())
          .startsWith(url);
    }
  }

  @Test
  void aUrlModeServerIsRefusedWithoutBeingProbedWhenUrlModeIsOff(KubeTestScope scope) {
    var name = scope.name("url");
    try (var operator =
        OperatorFixture.start(
            client,
            targetsByAnnotationOnly().toBuilder().allowUrlMode(false).build(),
            Clock.systemUTC())) {
      // the address of the running replica: were it probed, it would answer and be Available
      client.resource(OperatorFixture.urlServer(name, url, caBundle)).create();

      await()
          .atMost(Duration.ofSeconds(30))
          .untilAsserted(
              () -> {
                var server = client.resources(ConversionWebhookServer.class).withName(name).get();
                assertThat(server.getStatus()).isNotNull();
                assertThat(Conditions.find(server.getStatus().conditions, "Available"))
                    .hasValueSatisfying(
                        c -> {
                          assertThat(c.getReason()).isEqualTo("SpecRefused");
                          assertThat(c.getMessage())
                              .contains("URL mode is off on this operator")
                              .contains("--allow-url-mode");
                        });
                assertThat(Conditions.find(server.getStatus().conditions, "CertificateReady"))
                    .hasValueSatisfying(c -> assertThat(c.getReason()).isEqualTo("NotProbed"));
              });
      client.resources(ConversionWebhookServer.class).withName(name).delete();
    }
  }
}
