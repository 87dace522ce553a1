package dev.versio.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.versio.api.server.ConversionWebhookServer;
import dev.versio.testkit.Crds;
import dev.versio.testkit.KubeApiServerTest;
import dev.versio.testkit.KubeTestScope;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * cert-manager mode on a real apiserver: with cert-manager's Certificate API present (a stand-in
 * CRD, installed before the operator starts, as cert-manager would be), a server naming an issuer
 * gets a Certificate for its Service's names into the Secret its pods mount, owned by the server,
 * and loses it when the spec drops the issuer. On its own control plane: the stand-in API must not
 * leak into other classes' discovery.
 */
@KubeApiServerTest(dedicated = true)
class CertManagerCertificateIT {
  private static final String API = "cert-manager.io/v1";

  private static GenericKubernetesResource certificate(
      KubernetesClient client, String namespace, String name) {
    return client
        .genericKubernetesResources(API, "Certificate")
        .inNamespace(namespace)
        .withName(name)
        .get();
  }

  @Test
  void aServerNamingAnIssuerGetsACertificateAndLosesItWhenTheIssuerGoes(
      KubernetesClient client, KubeTestScope scope) throws Exception {
    OperatorFixture.installVersioCrds(client);
    installCertificateApi(client);
    var namespace = scope.namespace();
    var name = scope.name("cm");
    var child = name + "-webhook-server";
    try (var operator =
        OperatorFixture.start(client, OperatorFixture.options(), Clock.systemUTC())) {
      var server = OperatorFixture.serviceModeServer(name, namespace);
      server.getSpec().certificate =
          new dev.versio.api.server.ConversionWebhookServerSpec.Certificate();
      server.getSpec().certificate.issuerRef =
          new dev.versio.api.server.ConversionWebhookServerSpec.IssuerRef();
      server.getSpec().certificate.issuerRef.name = "internal-ca";
      server.getSpec().certificate.issuerRef.kind = "ClusterIssuer";
      client.resource(server).create();
      var uid =
          client
              .resources(ConversionWebhookServer.class)
              .withName(name)
              .get()
              .getMetadata()
              .getUid();

      var made =
          await()
              .atMost(Duration.ofSeconds(30))
              .until(() -> certificate(client, namespace, child), c -> c != null);
      assertThat(made.getMetadata().getOwnerReferences())
          .singleElement()
          .satisfies(o -> assertThat(o.getUid()).isEqualTo(uid));
      @SuppressWarnings("unchecked")
      var spec = (Map<String, Object>) made.getAdditionalProperties().get("spec");
      assertThat(spec).containsEntry("secretName", child + "-tls");
      assertThat(spec.get("issuerRef"))
          .isEqualTo(
              Map.of("name", "internal-ca", "kind", "ClusterIssuer", "group", "cert-manager.io"));
      @SuppressWarnings("unchecked")
      var dnsNames = (List<String>) spec.get("dnsNames");
      assertThat(dnsNames).contains(child + "." + namespace + ".svc");
      assertThat(client.secrets().inNamespace(namespace).withName(child + "-tls").get())
          .as("the Secret is cert-manager's to write: the operator does not issue one itself")
          .isNull();

      OperatorFixture.mergePatch(
          client, ConversionWebhookServer.class, name, "{\"spec\":{\"certificate\":null}}");
      await()
          .atMost(Duration.ofSeconds(60))
          .until(() -> certificate(client, namespace, child) == null);
      await()
          .atMost(Duration.ofSeconds(30))
          .until(
              () -> client.secrets().inNamespace(namespace).withName(child + "-tls").get() != null);
    }
  }

  @Test
  void aServerNamingASelfSignedIssuerIsWarnedThatEveryRenewalRewritesItsTargets(
      KubernetesClient client, KubeTestScope scope) throws Exception {
    OperatorFixture.installVersioCrds(client);
    installCertificateApi(client);
    var issuer = scope.name("quick");
    client
        .genericKubernetesResources(API, "ClusterIssuer")
        .resource(
            new io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder()
                .withApiVersion(API)
                .withKind("ClusterIssuer")
                .withNewMetadata()
                .withName(issuer)
                .endMetadata()
                .withAdditionalProperties(Map.of("spec", Map.of("selfSigned", Map.of())))
                .build())
        .create();
    var name = scope.name("selfsigned");
    try (var operator =
        OperatorFixture.start(client, OperatorFixture.options(), Clock.systemUTC())) {
      var server = OperatorFixture.serviceModeServer(name, scope.namespace());
      server.getSpec().certificate =
          new dev.versio.api.server.ConversionWebhookServerSpec.Certificate();
      server.getSpec().certificate.issuerRef =
          new dev.versio.api.server.ConversionWebhookServerSpec.IssuerRef();
      server.getSpec().certificate.issuerRef.name = issuer;
      client.resource(server).create();

      var event =
          await()
              .atMost(Duration.ofSeconds(30))
              .until(
                  () ->
                      client.v1().events().inAnyNamespace().list().getItems().stream()
                          .filter(e -> "SelfSignedIssuer".equals(e.getReason()))
                          .filter(e -> name.equals(e.getInvolvedObject().getName()))
                          .findFirst(),
                  java.util.Optional::isPresent)
              .orElseThrow();
      assertThat(event.getType()).isEqualTo("Warning");
      assertThat(event.getMessage()).contains("ClusterIssuer " + issuer, "self-signed", "spec.ca");
    }
  }

  /**
   * cert-manager's Certificate, Issuer and ClusterIssuer APIs as schemaless stand-ins (the real
   * ones are not installed).
   */
  private static void installCertificateApi(KubernetesClient client) {
    for (var kind : List.of("Certificate", "Issuer", "ClusterIssuer")) {
      var plural = kind.toLowerCase(java.util.Locale.ROOT) + "s";
      var crd =
          client
              .getKubernetesSerialization()
              .unmarshal(
                  """
                  apiVersion: apiextensions.k8s.io/v1
                  kind: CustomResourceDefinition
                  metadata: {name: PLURAL.cert-manager.io}
                  spec:
                    group: cert-manager.io
                    scope: SCOPE
                    names: {kind: KIND, listKind: KINDList, plural: PLURAL, singular: SINGULAR}
                    versions:
                    - name: v1
                      served: true
                      storage: true
                      schema:
                        openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}
                  """
                      .replace("PLURAL", plural)
                      .replace("SINGULAR", plural.substring(0, plural.length() - 1))
                      .replace("KIND", kind)
                      .replace("SCOPE", kind.equals("ClusterIssuer") ? "Cluster" : "Namespaced"),
                  CustomResourceDefinition.class);
      client.resource(crd).serverSideApply();
      Crds.awaitEstablished(client, crd.getMetadata().getName());
    }
    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () ->
                client.getApiGroups().getGroups().stream()
                    .anyMatch(g -> g.getName().equals("cert-manager.io")));
  }
}
