package dev.versio.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.versio.testkit.ControlPlane;
import dev.versio.testkit.KubeApiServerTest;
import dev.versio.testkit.KubeTestScope;
import dev.versio.testkit.tls.CertificateAuthority;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The informers start listing before the ops listener binds; a replica whose ops port is taken must
 * still fail at once with the port in its message, and a later start must work.
 */
@KubeApiServerTest
class OpsPortTakenIT {

  @Test
  void aReplicaWhoseOpsPortIsTakenFailsNamingThePortAndTheNextStartWorks(
      KubernetesClient client,
      ControlPlane controlPlane,
      KubeTestScope scope,
      @TempDir Path certDir)
      throws Exception {
    WebhookFixture.installVersioCrds(client);
    var cert = CertificateAuthority.create("ops-port").issueServer("127.0.0.1");
    Files.writeString(certDir.resolve("tls.key"), cert.privateKeyPem());
    Files.writeString(certDir.resolve("tls.crt"), cert.certificatePem());
    var name = scope.name("taken");
    try (var taken = new ServerSocket(0, 50, InetAddress.getByName("127.0.0.1"));
        var replicaClient = controlPlane.adminClient()) {
      int port = taken.getLocalPort();
      assertThatThrownBy(() -> WebhookFixture.start(replicaClient, name, certDir, port))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("ops listener on port " + port);
    }
    try (var replicaClient = controlPlane.adminClient();
        var server = WebhookFixture.start(replicaClient, name, certDir, 0)) {
      assertThat(server.ready()).isTrue();
    }
  }
}
