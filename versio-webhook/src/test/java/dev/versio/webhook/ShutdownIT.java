package dev.versio.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import dev.versio.testkit.ControlPlane;
import dev.versio.testkit.KubeApiServerTest;
import dev.versio.testkit.KubeTestScope;
import dev.versio.testkit.tls.CertificateAuthority;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A graceful stop first takes the replica out of its Service (readiness fails) while it still
 * answers conversions, so nothing the apiserver sends in the meantime is refused.
 */
@KubeApiServerTest
class ShutdownIT {
  @Test
  void afterStopAdvertisingReadinessFailsButConversionsAreStillAnswered(
      ControlPlane controlPlane, KubeTestScope scope, @TempDir Path certDir) throws Exception {
    WebhookFixture.installVersioCrds(controlPlane.adminClient());
    var ca = CertificateAuthority.create("versio-shutdown-it");
    var cert = ca.issueServer("127.0.0.1");
    Files.writeString(certDir.resolve("tls.crt"), cert.certificatePem());
    Files.writeString(certDir.resolve("tls.key"), cert.privateKeyPem());
    try (var server = WebhookFixture.start(controlPlane, scope.name("stopping"), certDir)) {
      var http = HttpClient.newBuilder().sslContext(ca.trustingContext()).build();
      var readyz =
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.opsPort() + "/readyz"))
              .build();
      assertThat(http.send(readyz, HttpResponse.BodyHandlers.ofString()).statusCode())
          .isEqualTo(200);

      server.stopAdvertising();

      assertThat(http.send(readyz, HttpResponse.BodyHandlers.ofString()).statusCode())
          .isEqualTo(503);
      var review =
          HttpRequest.newBuilder(
                  URI.create(
                      "https://127.0.0.1:"
                          + server.conversionPort()
                          + "/convert/unknown.example.com"))
              .header("Content-Type", "application/json")
              .POST(
                  HttpRequest.BodyPublishers.ofString(
                      "{\"apiVersion\":\"apiextensions.k8s.io/v1\",\"kind\":\"ConversionReview\","
                          + "\"request\":{\"uid\":\"u1\",\"desiredAPIVersion\":\"example.com/v1\","
                          + "\"objects\":[]}}"))
              .build();
      var answer = http.send(review, HttpResponse.BodyHandlers.ofString());
      assertThat(answer.statusCode()).as("the conversion listener still answers").isEqualTo(200);
      assertThat(answer.body()).contains("\"uid\":\"u1\"");

      server.close();
      assertThatCode(server::close)
          .as("closed again, as the CLI does when it leaves its try after the graceful stop")
          .doesNotThrowAnyException();
    }
  }
}
