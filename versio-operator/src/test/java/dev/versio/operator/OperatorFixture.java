package dev.versio.operator;

import static org.awaitility.Awaitility.await;

import dev.versio.api.config.CRDConversionConfig;
import dev.versio.api.config.ConversionConfigStatus;
import dev.versio.api.server.ConversionWebhookServer;
import dev.versio.testkit.Crds;
import dev.versio.testkit.fleet.Widgets;
import dev.versio.testkit.tls.CertificateAuthority;
import dev.versio.webhook.WebhookServer;
import dev.versio.webhook.WebhookServerOptions;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.function.Predicate;

/**
 * Shared set-up for operator ITs: Versio's CRDs, a webhook server in this JVM (the same code {@code
 * versio webhook-server} runs) reached in URL mode, a two-version "Widget" CRD whose v1 calls
 * {@code spec.replicas} {@code spec.size}, and a config renaming it.
 */
final class OperatorFixture {
  private OperatorFixture() {}

  /** Applies Versio's own CRDs and waits until they are served. */
  static void installVersioCrds(KubernetesClient client) throws IOException {
    Crds.applyVersioCrds(client);
  }

  /** A serving certificate for 127.0.0.1 in {@code dir}; returns the CA bundle (base64 PEM). */
  static String writeCertificate(Path dir) throws IOException {
    var ca = CertificateAuthority.create("versio-operator-it");
    var cert = ca.issueServer("127.0.0.1", "localhost");
    Files.writeString(dir.resolve("tls.crt"), cert.certificatePem());
    Files.writeString(dir.resolve("tls.key"), cert.privateKeyPem());
    return ca.material().certificateBase64();
  }

  static WebhookServer startWebhookServer(KubernetesClient client, String name, Path certDir)
      throws InterruptedException {
    return WebhookServer.start(
        client,
        new WebhookServerOptions(
            name,
            certDir,
            "127.0.0.1",
            0,
            0,
            Duration.ofMillis(500),
            WebhookServerOptions.DEFAULT_MAX_BODY_BYTES,
            2,
            null),
        Clock.systemUTC());
  }

  /** The Widget objects of the test CRD in API group {@code group}, at {@code version}. */
  static io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext widgets(
      String group, String version) {
    return new io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext.Builder()
        .withGroup(group)
        .withVersion(version)
        .withKind("Widget")
        .withPlural("widgets")
        .withNamespaced(true)
        .build();
  }

  /** A ConversionWebhookServer in URL mode. */
  static ConversionWebhookServer urlServer(String name, String url, String caBundle) {
    return Widgets.urlServer(name, url, caBundle);
  }

  /** The operator's namespace in these tests, where its Leases live. */
  static final String NAMESPACE = "versio-system";

  /** Starts an operator after making sure its namespace exists (a cluster always has it). */
  static VersioOperator start(
      KubernetesClient client, OperatorOptions options, java.time.Clock clock) {
    ensureNamespace(client, options.namespace());
    return VersioOperator.start(client, options, clock);
  }

  /** The {@code spec.conversion} of CRD {@code crd} as stored now. */
  static io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceConversion conversionOf(
      KubernetesClient client, String crd) {
    return crd(client, crd).getSpec().getConversion();
  }

  private static CustomResourceDefinition crd(KubernetesClient client, String name) {
    return client.apiextensions().v1().customResourceDefinitions().withName(name).get();
  }

  /** Creates {@code namespace} unless it exists. */
  static void ensureNamespace(KubernetesClient client, String namespace) {
    client
        .namespaces()
        .resource(
            new io.fabric8.kubernetes.api.model.NamespaceBuilder()
                .withNewMetadata()
                .withName(namespace)
                .endMetadata()
                .build())
        .serverSideApply();
  }

  /**
   * {@code options} with the admission webhook in URL mode on 127.0.0.1:{@code port}, under the
   * chart's Secret and ValidatingWebhookConfiguration names.
   */
  static OperatorOptions withUrlAdmission(OperatorOptions options, int port) {
    return options.withAdmission(
        new OperatorOptions.Admission(
            port,
            java.net.URI.create("https://127.0.0.1:" + port),
            null,
            443,
            "versio-operator-admission-tls",
            "versio-operator-admission"));
  }

  /**
   * Options for tests: ops on a free port, short gate requeues, servers' children in any namespace
   * (each test puts them in its own), every target consenting (each test makes its own CRDs), URL
   * mode on (replicas run as processes here).
   */
  static OperatorOptions options() {
    return OperatorOptions.defaults(NAMESPACE).toBuilder()
        .serverNamespaces(java.util.List.of(dev.versio.operator.server.ServerSpecPolicy.ANY))
        .targetGroups(java.util.List.of("*"))
        .allowUrlMode(true)
        .gateRequeue(Duration.ofSeconds(1))
        .deletionRequeue(Duration.ofSeconds(1))
        // a stopped URL-mode replica or a renewal due on the test's clock is seen within 2 s
        .serverRecheck(Duration.ofSeconds(2))
        .build();
  }

  /**
   * A two-version Widget CRD in group {@code <group>}: v1 (served) has {@code spec.size}, v2
   * (storage) has {@code spec.replicas}; both have {@code spec.engine}.
   */
  static CustomResourceDefinition widgetCrd(String group, String plural, String kind) {
    return Widgets.crd(group, plural, kind);
  }

  /** The config that renames {@code spec.replicas} (v2, hub) to {@code spec.size} (v1). */
  static CRDConversionConfig renameConfig(String name, String target, String server) {
    return Widgets.renameConfig(name, target, server);
  }

  static CRDConversionConfig awaitConfig(
      KubernetesClient client, String name, Predicate<ConversionConfigStatus> condition) {
    return awaitConfig(client, CRDConversionConfig.class, name, condition);
  }

  /**
   * Waits (up to 60 s) until the config {@code name} of kind {@code type} meets {@code condition}.
   */
  static <C extends CustomResource<?, ConversionConfigStatus>> C awaitConfig(
      KubernetesClient client,
      Class<C> type,
      String name,
      Predicate<ConversionConfigStatus> condition) {
    return await()
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(100))
        .until(
            () -> client.resources(type).withName(name).get(),
            c -> c != null && c.getStatus() != null && condition.test(c.getStatus()));
  }

  /**
   * A JSON merge patch without resourceVersion: the operator writes the same objects (finalizers,
   * status), so an optimistic edit could lose the race.
   */
  static <T extends io.fabric8.kubernetes.api.model.HasMetadata> void mergePatch(
      KubernetesClient client, Class<T> type, String name, String json) {
    client
        .resources(type)
        .withName(name)
        .patch(
            io.fabric8.kubernetes.client.dsl.base.PatchContext.of(
                io.fabric8.kubernetes.client.dsl.base.PatchType.JSON_MERGE),
            json);
  }

  static Predicate<ConversionConfigStatus> phase(String phase) {
    return s -> phase.equals(s.phase);
  }

  /**
   * The status the Deployment controller would write once {@code replicas} pods are ready: counts
   * and {@code Available=True}, through the status subresource (no controller runs here).
   */
  static void writeDeploymentStatusAsTheControllerWould(
      KubernetesClient client, String namespace, String child, int replicas) {
    var deployments = client.apps().deployments().inNamespace(namespace);
    var deployment = deployments.withName(child).get();
    var now = java.time.Instant.now().toString();
    deployment.setStatus(
        new io.fabric8.kubernetes.api.model.apps.DeploymentStatusBuilder()
            .withObservedGeneration(deployment.getMetadata().getGeneration())
            .withReplicas(replicas)
            .withUpdatedReplicas(replicas)
            .withReadyReplicas(replicas)
            .withAvailableReplicas(replicas)
            .withConditions(
                new io.fabric8.kubernetes.api.model.apps.DeploymentConditionBuilder()
                    .withType("Available")
                    .withStatus("True")
                    .withReason("MinimumReplicasAvailable")
                    .withMessage("Deployment has minimum availability.")
                    .withLastTransitionTime(now)
                    .withLastUpdateTime(now)
                    .build(),
                new io.fabric8.kubernetes.api.model.apps.DeploymentConditionBuilder()
                    .withType("Progressing")
                    .withStatus("True")
                    .withReason("NewReplicaSetAvailable")
                    .withLastTransitionTime(now)
                    .withLastUpdateTime(now)
                    .build())
            .build());
    deployments.resource(deployment).updateStatus();
  }

  /**
   * Waits for the operator to create server {@code server}'s Deployment, then makes its two
   * replicas ready as the Deployment and endpoints controllers would (no controller runs here).
   */
  static void makeServerReadyAsItsControllersWould(
      KubernetesClient client, String namespace, String server) {
    var child = dev.versio.operator.server.children.WebhookServerChildren.childName(server);
    org.awaitility.Awaitility.await()
        .atMost(java.time.Duration.ofSeconds(30))
        .until(
            () -> client.apps().deployments().inNamespace(namespace).withName(child).get() != null);
    writeDeploymentStatusAsTheControllerWould(client, namespace, child, 2);
    writeEndpointsAsTheControllerWould(client, namespace, child);
  }

  /**
   * The {@code metadata.generation} of CRD {@code crd}: it changes with every write of its spec.
   */
  static long crdGeneration(KubernetesClient client, String crd) {
    return crd(client, crd).getMetadata().getGeneration();
  }

  /**
   * The TLS Secret the operator issues for the Service-mode server {@code server} (the one its pods
   * mount), once it holds the pair and the CA.
   */
  static io.fabric8.kubernetes.api.model.Secret awaitServerTlsSecret(
      KubernetesClient client, String namespace, String server) {
    return org.awaitility.Awaitility.await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () ->
                client
                    .secrets()
                    .inNamespace(namespace)
                    .withName(
                        dev.versio.operator.server.children.WebhookServerChildren.childName(server)
                            + "-tls")
                    .get(),
            s -> s != null && s.getData() != null && s.getData().containsKey("ca.crt"));
  }

  /** A ConversionWebhookServer in Service mode whose children live in {@code namespace}. */
  static ConversionWebhookServer serviceModeServer(String name, String namespace) {
    var server = new ConversionWebhookServer();
    server.setMetadata(
        new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName(name).build());
    server.setSpec(new dev.versio.api.server.ConversionWebhookServerSpec());
    server.getSpec().namespace = namespace;
    return server;
  }

  /**
   * The Endpoints the endpoints controller would write for a Service whose pods are ready (no
   * controller nor pod runs here): one ready address on the conversion port.
   */
  static void writeEndpointsAsTheControllerWould(
      KubernetesClient client, String namespace, String service) {
    client
        .endpoints()
        .inNamespace(namespace)
        .resource(
            new io.fabric8.kubernetes.api.model.EndpointsBuilder()
                .withNewMetadata()
                .withName(service)
                .withNamespace(namespace)
                .endMetadata()
                .addNewSubset()
                .addNewAddress()
                .withIp("10.0.0.10")
                .endAddress()
                .addNewPort()
                .withName("conversion")
                .withPort(9443)
                .endPort()
                .endSubset()
                .build())
        .serverSideApply();
  }
}
