package dev.versio.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.versio.testkit.ControlPlane;
import dev.versio.testkit.KubeApiServerTest;
import dev.versio.testkit.KubeTestScope;
import dev.versio.testkit.tls.CertificateAuthority;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A rotated certificate is served without a restart; a broken rotation keeps the last good one. */
@KubeApiServerTest
class CertificateReloadIT {

  @Test
  void aRotatedCertificateIsServedWithoutRestartAndABrokenOneIsIgnored(
      KubernetesClient client,
      ControlPlane controlPlane,
      KubeTestScope scope,
      @TempDir Path certDir)
      throws Exception {
    WebhookFixture.installVersioCrds(client);
    var first = CertificateAuthority.create("first");
    write(certDir, first);
    try (var server = WebhookFixture.start(controlPlane, scope.name("tls"), certDir)) {
      var uri = URI.create("https://127.0.0.1:" + server.conversionPort() + "/convert/none");
      assertThat(status(uri, first.trustingContext())).isEqualTo(200);

      var second = CertificateAuthority.create("second");
      write(certDir, second);
      await()
          .atMost(Duration.ofSeconds(15))
          .ignoreExceptions()
          .until(() -> status(uri, second.trustingContext()) == 200);
      assertThatThrownBy(() -> status(uri, first.trustingContext())).hasMessageContaining("PKIX");

      Files.writeString(certDir.resolve("tls.crt"), "not a certificate");
      server.reloadCertificate();
      assertThat(status(uri, second.trustingContext())).isEqualTo(200);
      var metrics =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(
                          URI.create("http://127.0.0.1:" + server.opsPort() + "/metrics"))
                      .build(),
                  HttpResponse.BodyHandlers.ofString())
              .body();
      assertThat(metrics)
          .contains("versio_webhook_tls_reloads_total{result=\"success\"}")
          .contains("versio_webhook_tls_reloads_total{result=\"error\"}");
    }
  }

  private static void write(Path dir, CertificateAuthority ca) throws Exception {
    var cert = ca.issueServer("127.0.0.1");
    Files.writeString(dir.resolve("tls.key"), cert.privateKeyPem());
    Files.writeString(dir.resolve("tls.crt"), cert.certificatePem());
  }

  private static int status(URI uri, SSLContext trust) throws Exception {
    try (var http =
        HttpClient.newBuilder().sslContext(trust).connectTimeout(Duration.ofSeconds(5)).build()) {
      var request =
          HttpRequest.newBuilder(uri)
              .header("Content-Type", "application/json")
              .POST(
                  HttpRequest.BodyPublishers.ofString(
                      "{\"apiVersion\":\"apiextensions.k8s.io/v1\",\"request\":{\"uid\":\"u\","
                          + "\"desiredAPIVersion\":\"a/v1\",\"objects\":[]}}"))
              .build();
      return http.send(request, HttpResponse.BodyHandlers.ofString()).statusCode();
    }
  }
}
