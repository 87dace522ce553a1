package dev.versio.bench.handover;

import static org.assertj.core.api.Assertions.assertThat;

import dev.versio.testkit.tls.CertificateAuthority;
import dev.versio.testkit.tls.MountedSecret;
import dev.versio.testkit.tls.PemMaterial;
import dev.versio.testkit.tls.ServerTls;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The renewal check tells a server that re-read its files from one that never did. */
class LeafRenewalsTest {
  @Test
  void aServerStillPresentingTheFirstLeafAfterTheRenewalsIsNamedAndOneWithTheLastIsNot(
      @TempDir Path dir) throws Exception {
    var ca = CertificateAuthority.create("renewals");
    var first = LeafRenewals.leafFiles(ca);
    var secret = MountedSecret.create(dir, first);
    var renewals = LeafRenewals.start(ca, secret, Duration.ZERO, 3); // renewed by hand here
    try (var stale = serve(first)) { // read its certificate once, never again
      renewals.renewOnce();
      renewals.renewOnce();
      renewals.renewOnce();
      try (var fresh =
          serve(Map.of("tls.crt", read(dir, "tls.crt"), "tls.key", read(dir, "tls.key")))) {
        var result =
            renewals.finish(
                Map.of("stale-0", stale.getLocalPort(), "fresh-0", fresh.getLocalPort()),
                Duration.ZERO,
                List::of);

        assertThat(result.written()).isEqualTo(3);
        assertThat(read(dir, "tls.crt")).isNotEqualTo(first.get("tls.crt"));
        assertThat(result.notServingTheLast()).containsExactly("stale-0");
      }
    }
  }

  private static String read(Path dir, String file) throws IOException {
    return Files.readString(dir.resolve(file));
  }

  /** A TLS server presenting {@code files}' certificate, completing every handshake. */
  private static ServerSocket serve(Map<String, String> files) throws IOException {
    var context = ServerTls.context(new PemMaterial(files.get("tls.crt"), files.get("tls.key")));
    var server = context.getServerSocketFactory().createServerSocket(0);
    Thread.ofPlatform()
        .daemon()
        .start(
            () -> {
              while (!server.isClosed()) {
                try (var socket = (SSLSocket) server.accept()) {
                  socket.startHandshake();
                } catch (IOException e) {
                  // closed, or a client that went away: the next one
                }
              }
            });
    return server;
  }
}
