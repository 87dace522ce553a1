package dev.versio.operator;

import static dev.versio.operator.OperatorFixture.awaitConfig;
import static dev.versio.operator.OperatorFixture.phase;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.versio.api.server.ConversionWebhookServer;
import dev.versio.testkit.ControlPlane;
import dev.versio.testkit.Crds;
import dev.versio.testkit.KubeApiServerTest;
import dev.versio.testkit.process.LoopbackPorts;
import dev.versio.testkit.stories.ExampleStory;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.api.model.rbac.Subject;
import io.fabric8.kubernetes.api.model.rbac.SubjectBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The operator runs under exactly the RBAC the chart installs ({@code deploy/versio.yaml}, rendered
 * from {@code charts/versio}), bound to a user instead of the chart's ServiceAccount: admission
 * registers, a config is applied through a URL-mode server, a Service-mode server gets all its
 * children (autoscaler and disruption budget included) and loses the ones its spec drops, and
 * Events are written. A rule missing from the chart fails this test; a rule the code no longer
 * needs is found by reading the chart against docs/install.md.
 */
@KubeApiServerTest(dedicated = true)
class ChartRbacIT {
  private static final String USER = "versio-operator-chart-rbac";
  private static final String NAMESPACE = "versio-system";

  @Test
  void theOperatorDoesItsWholeJobWithTheChartsPermissionsAndNoMore(
      KubernetesClient admin, ControlPlane controlPlane, @TempDir Path certDir) throws Exception {
    OperatorFixture.installVersioCrds(admin);
    admin
        .namespaces()
        .resource(
            new NamespaceBuilder().withNewMetadata().withName(NAMESPACE).endMetadata().build())
        .serverSideApply();
    var granted = installChartRbacFor(admin);
    assertThat(granted).as("RBAC objects in deploy/versio.yaml").hasSizeGreaterThanOrEqualTo(7);

    var crd = OperatorFixture.widgetCrd("rbac.example.test", "widgets", "Widget");
    admin.resource(crd).serverSideApply();
    var target = crd.getMetadata().getName();
    Crds.awaitEstablished(admin, target);
    var caBundle = OperatorFixture.writeCertificate(certDir);
    int admissionPort = LoopbackPorts.free();
    // the chart's default: servers' children only in the operator's namespace, watched there
    var options =
        OperatorFixture.withUrlAdmission(
            OperatorFixture.options().toBuilder().serverNamespaces(List.of()).build(),
            admissionPort);

    try (var webhook =
            OperatorFixture.startWebhookServer(controlPlane.adminClient(), "rbac-url", certDir);
        var restricted = controlPlane.clientAs(USER);
        var operator = VersioOperator.start(restricted, options, Clock.systemUTC())) {
      // admission registered under the name the chart's rule allows, and it answers
      assertThat(
              admin
                  .admissionRegistration()
                  .v1()
                  .validatingWebhookConfigurations()
                  .withName("versio-operator-admission")
                  .get())
          .isNotNull();
      admin
          .resource(
              OperatorFixture.urlServer(
                  "rbac-url", "https://127.0.0.1:" + webhook.conversionPort(), caBundle))
          .create();

      // a config applied: CRD patch, status patches, finalizer, Events
      admin.resource(OperatorFixture.renameConfig("widgets", target, "rbac-url")).create();
      awaitConfig(admin, "widgets", phase("Applied"));
      assertThat(
              admin
                  .apiextensions()
                  .v1()
                  .customResourceDefinitions()
                  .withName(target)
                  .get()
                  .getSpec()
                  .getConversion()
                  .getStrategy())
          .isEqualTo("Webhook");
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> !admin.v1().events().inNamespace("default").list().getItems().isEmpty());

      // a Service-mode server: every child, with an autoscaler and a disruption budget
      var server = OperatorFixture.serviceModeServer("rbac-svc", NAMESPACE);
      server.getSpec().autoscaling =
          new dev.versio.api.server.ConversionWebhookServerSpec.Autoscaling();
      server.getSpec().autoscaling.minReplicas = 2;
      server.getSpec().autoscaling.maxReplicas = 3;
      server.getSpec().podDisruptionBudget =
          new dev.versio.api.server.ConversionWebhookServerSpec.PodDisruptionBudget();
      admin.resource(server).create();
      var child = "rbac-svc-webhook-server";
      await()
          .atMost(Duration.ofSeconds(60))
          .untilAsserted(
              () -> {
                assertThat(admin.secrets().inNamespace(NAMESPACE).withName(child + "-tls").get())
                    .as("TLS Secret")
                    .isNotNull();
                assertThat(admin.serviceAccounts().inNamespace(NAMESPACE).withName(child).get())
                    .isNotNull();
                assertThat(
                        admin
                            .rbac()
                            .roles()
                            .inNamespace(NAMESPACE)
                            .withName(child + "-leases")
                            .get())
                    .isNotNull();
                assertThat(
                        admin
                            .rbac()
                            .clusterRoleBindings()
                            .withName("versio-webhook-server-rbac-svc")
                            .get())
                    .isNotNull();
                assertThat(admin.services().inNamespace(NAMESPACE).withName(child).get())
                    .isNotNull();
                assertThat(admin.apps().deployments().inNamespace(NAMESPACE).withName(child).get())
                    .isNotNull();
                assertThat(exists(admin, "autoscaling/v2beta2", "HorizontalPodAutoscaler", child))
                    .isTrue();
                assertThat(exists(admin, "policy/v1beta1", "PodDisruptionBudget", child)).isTrue();
              });

      // and the ones the spec drops are deleted
      OperatorFixture.mergePatch(
          admin,
          ConversionWebhookServer.class,
          "rbac-svc",
          "{\"spec\":{\"autoscaling\":null,\"podDisruptionBudget\":null}}");
      await()
          .atMost(Duration.ofSeconds(60))
          .until(
              () ->
                  !exists(admin, "autoscaling/v2beta2", "HorizontalPodAutoscaler", child)
                      && !exists(admin, "policy/v1beta1", "PodDisruptionBudget", child));
    }
  }

  private static boolean exists(
      KubernetesClient client, String apiVersion, String kind, String name) {
    return client
            .genericKubernetesResources(apiVersion, kind)
            .inNamespace(NAMESPACE)
            .withName(name)
            .get()
        != null;
  }

  @Test
  void aConfigAuthorWritesConfigsButCannotWriteAServer(
      KubernetesClient admin, ControlPlane controlPlane) throws Exception {
    OperatorFixture.installVersioCrds(admin);
    // no operator runs here: an admission registration the other test left would refuse every write
    admin
        .admissionRegistration()
        .v1()
        .validatingWebhookConfigurations()
        .withName("versio-operator-admission")
        .delete();
    var rendered = ExampleStory.repositoryRoot().resolve("deploy/versio.yaml");
    List<HasMetadata> objects;
    try (var in = Files.newInputStream(rendered)) {
      objects = admin.load(in).items();
    }
    var role =
        objects.stream()
            .filter(o -> o.getMetadata().getName().equals("versio-operator-config-author"))
            .findFirst()
            .orElseThrow(() -> new AssertionError("deploy/versio.yaml has no config-author role"));
    admin.resource(role).serverSideApply();
    var author = "team-a-author";
    admin
        .resource(
            new io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder()
                .withNewMetadata()
                .withName(author)
                .endMetadata()
                .withNewRoleRef(
                    "rbac.authorization.k8s.io", "ClusterRole", role.getMetadata().getName())
                .withSubjects(
                    new SubjectBuilder()
                        .withKind("User")
                        .withName(author)
                        .withApiGroup("rbac.authorization.k8s.io")
                        .build())
                .build())
        .serverSideApply();

    try (var client = controlPlane.clientAs(author)) {
      await()
          .atMost(Duration.ofSeconds(10))
          .untilAsserted(
              () ->
                  assertThat(
                          client
                              .resource(
                                  OperatorFixture.renameConfig(
                                      "authored", "widgets.authored.example.test", "default"))
                              .create())
                      .isNotNull());
      assertThat(client.resources(ConversionWebhookServer.class).list().getItems()).isNotNull();
      assertThatThrownBy(
              () -> client.resource(OperatorFixture.serviceModeServer("mine", NAMESPACE)).create())
          .isInstanceOf(io.fabric8.kubernetes.client.KubernetesClientException.class)
          .satisfies(
              e ->
                  assertThat(((io.fabric8.kubernetes.client.KubernetesClientException) e).getCode())
                      .isEqualTo(403));
    }
  }

  /**
   * Creates the chart's ClusterRoles, Roles and their bindings from deploy/versio.yaml, with every
   * binding's subject replaced by the user this test runs the operator as.
   */
  private static List<HasMetadata> installChartRbacFor(KubernetesClient admin) throws Exception {
    var rendered = ExampleStory.repositoryRoot().resolve("deploy/versio.yaml");
    List<HasMetadata> objects;
    try (var in = Files.newInputStream(rendered)) {
      objects = admin.load(in).items();
    }
    Subject user =
        new SubjectBuilder()
            .withKind("User")
            .withName(USER)
            .withApiGroup("rbac.authorization.k8s.io")
            .build();
    var rbac =
        objects.stream()
            .filter(o -> o.getApiVersion().startsWith("rbac.authorization.k8s.io/"))
            .toList();
    for (var object : rbac) {
      switch (object) {
        case ClusterRoleBinding binding -> binding.setSubjects(List.of(user));
        case RoleBinding binding -> binding.setSubjects(List.of(user));
        default -> {}
      }
      admin.resource(object).serverSideApply();
    }
    return rbac;
  }
}
