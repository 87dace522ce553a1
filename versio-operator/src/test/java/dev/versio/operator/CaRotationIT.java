package dev.versio.operator;

import static dev.versio.operator.OperatorFixture.awaitConfig;
import static dev.versio.operator.OperatorFixture.phase;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.versio.api.server.ConversionWebhookServer;
import dev.versio.api.server.ConversionWebhookServerSpec;
import dev.versio.testkit.ControlPlane;
import dev.versio.testkit.Crds;
import dev.versio.testkit.KubeApiServerTest;
import dev.versio.testkit.KubeTestScope;
import dev.versio.testkit.tls.CertificateAuthority;
import dev.versio.testkit.tls.PemMaterial;
import dev.versio.webhook.WebhookServer;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.WebhookClientConfig;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Rotating the CA a webhook server's certificate chains to, as the operator carries it to every
 * target: in URL mode through {@code spec.caBundle} (old and new CA, then the new certificate, then
 * the new CA only) without one failed conversion; in Service mode through the watch of the server's
 * TLS Secret, within seconds rather than at the next periodic resync.
 */
@KubeApiServerTest(dedicated = true)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CaRotationIT {
  private static final int TARGETS = 3;
  private static final Duration SECRET_PROPAGATION_LIMIT = Duration.ofSeconds(10);

  private KubernetesClient client;
  private ControlPlane controlPlane;
  private VersioOperator operator;
  private WebhookServer webhook;

  @BeforeAll
  void start(KubernetesClient client, ControlPlane controlPlane) throws IOException {
    this.client = client;
    this.controlPlane = controlPlane;
    OperatorFixture.installVersioCrds(client);
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

  @Test
  void urlModeRotationReachesEveryTargetWhileConversionsKeepWorking(
      KubeTestScope scope, @TempDir Path certDir) throws Exception {
    var oldCa = CertificateAuthority.create("versio-rotation-old");
    var newCa = CertificateAuthority.create("versio-rotation-new");
    var oldBundle = oldCa.material().certificateBase64();
    var bothBundle = base64(oldCa.certificatePem() + newCa.certificatePem());
    var newBundle = newCa.material().certificateBase64();
    var server = scope.name("url");
    mountServingCertificate(certDir, oldCa.issueServer("127.0.0.1", "localhost"), "old");
    webhook = OperatorFixture.startWebhookServer(controlPlane.adminClient(), server, certDir);
    var url = "https://127.0.0.1:" + webhook.conversionPort();
    client.resource(OperatorFixture.urlServer(server, url, oldBundle)).create();
    var targets = installTargetsConvertedBy(scope, server);
    for (var target : targets) {
      await()
          .atMost(Duration.ofSeconds(30))
          .untilAsserted(
              () ->
                  assertThat(webhook.registry().get(target.crd()))
                      .hasValueSatisfying(e -> assertThat(e.servable()).isTrue()));
      assertThat(caBundleOf(target.crd())).isEqualTo(oldBundle);
    }
    var namespace = scope.namespace();
    for (var target : targets) {
      createWidgetAtStorageVersion(target, namespace);
    }

    var reader = new NonStorageReader(targets, namespace, webhook.conversionPort());
    reader.start();
    try {
      await().atMost(Duration.ofSeconds(10)).until(() -> reader.reads.get() >= 20);

      // 1. trust old and new CA: the old certificate still serves
      var first = setServerCaBundle(server, bothBundle, targets);
      reportPropagation("URL mode, spec.caBundle old+new CA", first);

      // 2. the server switches to a certificate of the new CA (it re-reads its files)
      mountServingCertificate(certDir, newCa.issueServer("127.0.0.1", "localhost"), "new");
      awaitServedCertificateChainsTo(newCa, webhook.conversionPort());
      long readsBefore = reader.reads.get();
      await().atMost(Duration.ofSeconds(10)).until(() -> reader.reads.get() >= readsBefore + 20);

      // 3. trust only the new CA
      var second = setServerCaBundle(server, newBundle, targets);
      reportPropagation("URL mode, spec.caBundle new CA only", second);
      long readsAfter = reader.reads.get();
      await().atMost(Duration.ofSeconds(10)).until(() -> reader.reads.get() >= readsAfter + 50);
    } finally {
      reader.stop();
    }

    for (var target : targets) {
      assertThat(caBundleOf(target.crd())).as(target.crd()).isEqualTo(newBundle);
      awaitConfig(client, target.config(), phase("Applied"));
    }
    System.out.printf(
        "CA rotation (URL mode): %d reads at the non-storage version and %d new TLS connections"
            + " during the rotation, %d failed%n",
        reader.reads.get(), reader.handshakes.get(), reader.failures.size());
    assertThat(reader.reads.get()).isPositive();
    assertThat(reader.handshakes.get()).isPositive();
    assertThat(reader.failures).as("what failed during the rotation").isEmpty();
  }

  @Test
  void serviceModeSecretRotationReachesEveryTargetWithinSeconds(KubeTestScope scope) {
    var namespace = scope.namespace();
    var server = scope.name("svc");
    var child = server + "-webhook-server";
    var oldCa = CertificateAuthority.create("versio-secret-old");
    // the operator creates the Deployment and Service; no controller runs here to make the
    // Deployment ready, so the test writes its status as the Deployment controller would; the
    // server names a cert-manager issuer, so the TLS Secret is written as cert-manager would
    writeTlsSecretAsCertManagerWould(namespace, server, oldCa);
    client.resource(serviceModeServer(server, namespace)).create();
    OperatorFixture.makeServerReadyAsItsControllersWould(client, namespace, server);

    var targets = installTargetsConvertedBy(scope, server);

    // The apiserver would call the Service, but conversions cannot flow here: the test control
    // plane runs no kube-proxy (nor pods), so no Service is routable. This checks what the
    // operator writes, and how soon.
    for (var target : targets) {
      var clientConfig = clientConfigOf(target.crd());
      assertThat(clientConfig.getUrl()).isNull();
      assertThat(clientConfig.getService().getNamespace()).isEqualTo(namespace);
      assertThat(clientConfig.getService().getName()).isEqualTo(child);
      assertThat(clientConfig.getService().getPath()).isEqualTo("/convert/" + target.crd());
      assertThat(clientConfig.getService().getPort()).isEqualTo(443);
      assertThat(clientConfig.getCaBundle()).isEqualTo(oldCa.material().certificateBase64());
    }

    var newCa = CertificateAuthority.create("versio-secret-new");
    var newBundle = newCa.material().certificateBase64();
    long started = System.nanoTime();
    writeTlsSecretAsCertManagerWould(namespace, server, newCa);
    var took = awaitEveryCaBundle(targets, newBundle, SECRET_PROPAGATION_LIMIT, started);
    reportPropagation("Service mode, TLS Secret ca.crt replaced", took);
    // only the Secret watch does this: an Applied config is otherwise looked at again only at the
    // periodic resync (5 minutes)
    assertThat(took).isLessThan(SECRET_PROPAGATION_LIMIT);
    for (var target : targets) {
      awaitConfig(client, target.config(), phase("Applied"));
    }
  }

  /** One widget CRD and the config converting it through {@code server}. */
  private record Target(String crd, String group, String config) {}

  /** {@value #TARGETS} widget CRDs of their own groups, each with a config pinned to a server. */
  private List<Target> installTargetsConvertedBy(KubeTestScope scope, String server) {
    var targets = new ArrayList<Target>();
    for (int i = 1; i <= TARGETS; i++) {
      var group = server + "-" + i + "." + scope.apiGroup();
      CustomResourceDefinition crd = OperatorFixture.widgetCrd(group, "widgets", "Widget");
      Crds.apply(client, crd);
      var target = new Target(crd.getMetadata().getName(), group, server + "-" + i);
      client.resource(OperatorFixture.renameConfig(target.config(), target.crd(), server)).create();
      targets.add(target);
    }
    for (var target : targets) {
      awaitConfig(client, target.config(), phase("Applied"));
    }
    return targets;
  }

  private static ResourceDefinitionContext widgets(Target target, String version) {
    return OperatorFixture.widgets(target.group(), version);
  }

  private void createWidgetAtStorageVersion(Target target, String namespace) {
    client
        .genericKubernetesResources(widgets(target, "v2"))
        .inNamespace(namespace)
        .resource(
            new GenericKubernetesResourceBuilder()
                .withApiVersion(target.group() + "/v2")
                .withKind("Widget")
                .withNewMetadata()
                .withName("w1")
                .endMetadata()
                .withAdditionalProperties(Map.of("spec", Map.of("replicas", 3, "engine", "redis")))
                .build())
        .create();
  }

  /**
   * Reads every target's widget at v1, the version it is not stored at, in a loop: each read is a
   * conversion through the webhook server. The apiserver keeps its HTTP/2 connection to the server
   * for as long as a target's client config stays the same, so a switch of the served certificate
   * alone opens no new connection; each round therefore also opens a fresh TLS connection trusting
   * what the target's {@code caBundle} says now, as the apiserver would after a reconnect. Counts
   * both and keeps what failed.
   */
  private final class NonStorageReader {
    private final List<Target> targets;
    private final String namespace;
    private final int port;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final Map<String, SSLContext> trusting = new ConcurrentHashMap<>();
    final AtomicLong reads = new AtomicLong();
    final AtomicLong handshakes = new AtomicLong();
    final ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
    private Thread thread;

    NonStorageReader(List<Target> targets, String namespace, int port) {
      this.targets = targets;
      this.namespace = namespace;
      this.port = port;
    }

    void start() {
      thread = Thread.ofPlatform().name("non-storage-reader").daemon().start(this::run);
    }

    private void run() {
      while (running.get()) {
        for (var target : targets) {
          read(target);
          handshake(target);
        }
      }
    }

    private void read(Target target) {
      try {
        var widget =
            client
                .genericKubernetesResources(widgets(target, "v1"))
                .inNamespace(namespace)
                .withName("w1")
                .get();
        var spec = widget == null ? null : (Map<?, ?>) widget.getAdditionalProperties().get("spec");
        if (spec == null || !Integer.valueOf(3).equals(spec.get("size"))) {
          failures.add(Instant.now() + " read " + target.crd() + " at v1: " + spec);
        }
      } catch (RuntimeException e) {
        failures.add(Instant.now() + " read " + target.crd() + " at v1: " + e.getMessage());
      }
      reads.incrementAndGet();
    }

    private void handshake(Target target) {
      try {
        var context = trusting.computeIfAbsent(caBundleOf(target.crd()), CaRotationIT::trusting);
        try (var socket = (SSLSocket) context.getSocketFactory().createSocket("127.0.0.1", port)) {
          socket.startHandshake();
        }
      } catch (IOException | RuntimeException e) {
        failures.add(
            Instant.now()
                + " new TLS connection trusting the caBundle of "
                + target.crd()
                + ": "
                + e);
      }
      handshakes.incrementAndGet();
    }

    void stop() throws InterruptedException {
      running.set(false);
      thread.join(Duration.ofSeconds(30));
    }
  }

  /** A client TLS context trusting exactly the certificates of a base64 PEM bundle. */
  private static SSLContext trusting(String caBundle) {
    try {
      var certificates =
          CertificateFactory.getInstance("X.509")
              .generateCertificates(new ByteArrayInputStream(Base64.getDecoder().decode(caBundle)));
      var store = KeyStore.getInstance(KeyStore.getDefaultType());
      store.load(null, null);
      int i = 0;
      for (var certificate : certificates) {
        store.setCertificateEntry("ca-" + i++, certificate);
      }
      var trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      trust.init(store);
      var context = SSLContext.getInstance("TLS");
      context.init(null, trust.getTrustManagers(), null);
      return context;
    } catch (IOException | GeneralSecurityException e) {
      throw new IllegalStateException("caBundle is not a base64 PEM bundle", e);
    }
  }

  /**
   * Sets the URL-mode server's {@code spec.caBundle}; returns how long until every target has it.
   */
  private Duration setServerCaBundle(String server, String bundle, List<Target> targets) {
    long started = System.nanoTime();
    client
        .resources(ConversionWebhookServer.class)
        .withName(server)
        .patch(
            PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"caBundle\":\"" + bundle + "\"}}");
    return awaitEveryCaBundle(targets, bundle, Duration.ofSeconds(30), started);
  }

  private Duration awaitEveryCaBundle(
      List<Target> targets, String bundle, Duration limit, long startedNanos) {
    await()
        .atMost(limit)
        .pollInterval(Duration.ofMillis(20))
        .until(() -> targets.stream().allMatch(t -> bundle.equals(caBundleOf(t.crd()))));
    return Duration.ofNanos(System.nanoTime() - startedNanos);
  }

  private static void reportPropagation(String what, Duration took) {
    System.out.printf(
        "CA rotation (%s): %d targets updated in %d ms%n", what, TARGETS, took.toMillis());
  }

  private WebhookClientConfig clientConfigOf(String crd) {
    var conversion = OperatorFixture.conversionOf(client, crd);
    return conversion == null || conversion.getWebhook() == null
        ? null
        : conversion.getWebhook().getClientConfig();
  }

  private String caBundleOf(String crd) {
    var clientConfig = clientConfigOf(crd);
    return clientConfig == null ? null : clientConfig.getCaBundle();
  }

  /**
   * Puts {@code tls.crt} and {@code tls.key} into {@code dir} as the kubelet mounts a Secret: both
   * files link into {@code ..data}, which is swapped to a new folder in one rename, so both change
   * at once.
   */
  private static void mountServingCertificate(Path dir, PemMaterial certificate, String version)
      throws IOException {
    var folder = Files.createDirectory(dir.resolve("..cert-" + version));
    certificate.writeTo(folder, "tls");
    var next = dir.resolve("..data_tmp");
    Files.deleteIfExists(next);
    Files.createSymbolicLink(next, folder.getFileName());
    Files.move(
        next,
        dir.resolve("..data"),
        StandardCopyOption.ATOMIC_MOVE,
        StandardCopyOption.REPLACE_EXISTING);
    for (var file : List.of("tls.crt", "tls.key")) {
      if (!Files.isSymbolicLink(dir.resolve(file))) {
        Files.createSymbolicLink(dir.resolve(file), Path.of("..data", file));
      }
    }
  }

  /** Waits until the server at {@code port} presents a certificate that chains to {@code ca}. */
  private static void awaitServedCertificateChainsTo(CertificateAuthority ca, int port) {
    var factory = ca.trustingContext().getSocketFactory();
    await()
        .atMost(Duration.ofSeconds(10))
        .pollInterval(Duration.ofMillis(100))
        .ignoreExceptions()
        .untilAsserted(
            () -> {
              try (var socket = (SSLSocket) factory.createSocket("127.0.0.1", port)) {
                socket.startHandshake();
              }
            });
  }

  private static String base64(String text) {
    return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.US_ASCII));
  }

  private static ConversionWebhookServer serviceModeServer(String name, String namespace) {
    var server = OperatorFixture.serviceModeServer(name, namespace);
    // cert-manager mode: the Secret is cert-manager's to write (this test writes it as it would)
    server.getSpec().certificate = new ConversionWebhookServerSpec.Certificate();
    server.getSpec().certificate.issuerRef = new ConversionWebhookServerSpec.IssuerRef();
    server.getSpec().certificate.issuerRef.name = "selfsigned";
    return server;
  }

  /**
   * The TLS Secret {@code <n>-webhook-server-tls} with {@code ca}'s certificate as {@code ca.crt}
   * and a serving certificate it issued for the Service; created, or replaced on rotation.
   */
  private void writeTlsSecretAsCertManagerWould(
      String namespace, String server, CertificateAuthority ca) {
    var service = server + "-webhook-server." + namespace + ".svc";
    var serving = ca.issueServer(service, service + ".cluster.local");
    Secret secret =
        new SecretBuilder()
            .withNewMetadata()
            .withName(server + "-webhook-server-tls")
            .withNamespace(namespace)
            .withLabels(Map.of("app.kubernetes.io/managed-by", "versio-operator"))
            .endMetadata()
            .withType("kubernetes.io/tls")
            .withData(
                Map.of(
                    "ca.crt", ca.material().certificateBase64(),
                    "tls.crt", serving.certificateBase64(),
                    "tls.key", serving.privateKeyBase64()))
            .build();
    client.secrets().inNamespace(namespace).resource(secret).forceConflicts().serverSideApply();
  }
}
