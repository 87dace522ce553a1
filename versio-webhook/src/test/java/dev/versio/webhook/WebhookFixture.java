package dev.versio.webhook;

import dev.versio.api.server.ConversionWebhookServer;
import dev.versio.api.server.ConversionWebhookServerSpec;
import dev.versio.testkit.ControlPlane;
import dev.versio.testkit.Crds;
import dev.versio.testkit.tls.CertificateAuthority;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;

/**
 * Shared set-up for webhook ITs: Versio CRDs installed, a serving certificate, a started server.
 */
final class WebhookFixture {
  private WebhookFixture() {}

  /** Applies Versio's own CRDs (idempotent) and waits until they are served. */
  static void installVersioCrds(KubernetesClient client) throws IOException {
    Crds.applyVersioCrds(client);
  }

  /**
   * Writes a serving certificate for 127.0.0.1 into {@code dir}; returns the CA bundle (base64
   * PEM).
   */
  /** A short drain, so tests see a released target dropped soon. */
  static final Duration DRAIN = Duration.ofMillis(500);

  /**
   * Points the CRD's webhook at the same process under another address ({@code localhost} for
   * {@code 127.0.0.1}): the apiserver still reaches this replica, but the replica no longer finds
   * its server's endpoint named — as after a server's URL changed before the CRD followed.
   */
  static void nameAnotherAddress(KubernetesClient client, String crdName) {
    var crd = client.apiextensions().v1().customResourceDefinitions().withName(crdName).get();
    var clientConfig = crd.getSpec().getConversion().getWebhook().getClientConfig();
    clientConfig.setUrl(clientConfig.getUrl().replace("https://127.0.0.1:", "https://localhost:"));
    client.resource(crd).update();
  }

  static String writeCertificate(Path dir) throws IOException {
    var ca = CertificateAuthority.create("versio-webhook-it");
    var cert = ca.issueServer("127.0.0.1", "localhost");
    Files.writeString(dir.resolve("tls.crt"), cert.certificatePem());
    Files.writeString(dir.resolve("tls.key"), cert.privateKeyPem());
    return ca.material().certificateBase64();
  }

  static WebhookServer start(ControlPlane controlPlane, String serverName, Path certDir)
      throws InterruptedException {
    return start(controlPlane.adminClient(), serverName, certDir, 0, false);
  }

  /** The same with {@code /debug/registry} on. */
  static WebhookServer startWithDebugEndpoints(
      ControlPlane controlPlane, String serverName, Path certDir) throws InterruptedException {
    return start(controlPlane.adminClient(), serverName, certDir, 0, true);
  }

  static WebhookServer start(KubernetesClient client, String serverName, Path certDir, int opsPort)
      throws InterruptedException {
    return start(client, serverName, certDir, opsPort, false);
  }

  private static WebhookServer start(
      KubernetesClient client, String serverName, Path certDir, int opsPort, boolean debug)
      throws InterruptedException {
    var options =
        new WebhookServerOptions(
            serverName,
            certDir,
            "127.0.0.1",
            0,
            opsPort,
            Duration.ofMillis(500),
            WebhookServerOptions.DEFAULT_MAX_BODY_BYTES,
            4,
            null,
            DRAIN,
            debug,
            false);
    return WebhookServer.start(client, options, Clock.systemUTC());
  }

  /** A ConversionWebhookServer in URL mode pointing at a server started by the test. */
  static ConversionWebhookServer serverObject(String name, int port, String caBundle) {
    var cws = new ConversionWebhookServer();
    cws.setMetadata(new ObjectMetaBuilder().withName(name).build());
    cws.setSpec(new ConversionWebhookServerSpec());
    cws.getSpec().url = "https://127.0.0.1:" + port;
    cws.getSpec().caBundle = caBundle;
    return cws;
  }

  /** Waits until the CRD {@code name} is Established (served by the apiserver). */
  static void awaitEstablished(KubernetesClient client, String name) {
    Crds.awaitEstablished(client, name);
  }
}
