package dev.versio.webhook.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.versio.testkit.tls.CertificateAuthority;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.PemKeyCertOptions;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The TLS policy on a real Vert.x listener, through real handshakes with the JDK's client: TLS 1.3
 * and TLS 1.2 with an ECDHE-AEAD suite are accepted, a CBC suite is refused — also after the
 * certificate was swapped, since a swap replaces every SSL option.
 */
class ServingTlsTest {
  private final CertificateAuthority ca = CertificateAuthority.create("serving-tls-test");
  private Vertx vertx;
  private HttpServer server;

  private static PemKeyCertOptions keyCert(dev.versio.testkit.tls.PemMaterial pair) {
    return new PemKeyCertOptions()
        .setCertValue(Buffer.buffer(pair.certificatePem()))
        .setKeyValue(Buffer.buffer(pair.privateKeyPem()));
  }

  @BeforeEach
  void listen() throws Exception {
    vertx = Vertx.vertx();
    server =
        vertx
            .createHttpServer(
                ServingTls.apply(
                    new HttpServerOptions().setHost("127.0.0.1").setPort(0),
                    keyCert(ca.issueServer("127.0.0.1"))))
            .requestHandler(req -> req.response().end("ok"))
            .listen()
            .toCompletionStage()
            .toCompletableFuture()
            .get(10, TimeUnit.SECONDS);
  }

  @AfterEach
  void stop() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  /** Handshakes offering only {@code protocol} and {@code suite}; returns the suite agreed. */
  private String handshake(String protocol, String suite) throws Exception {
    try (var socket =
        (SSLSocket)
            ca.trustingContext()
                .getSocketFactory()
                .createSocket("127.0.0.1", server.actualPort())) {
      socket.setEnabledProtocols(new String[] {protocol});
      socket.setEnabledCipherSuites(new String[] {suite});
      socket.startHandshake();
      return socket.getSession().getCipherSuite();
    }
  }

  private void assertPolicy() throws Exception {
    assertThat(handshake("TLSv1.3", "TLS_AES_128_GCM_SHA256")).isEqualTo("TLS_AES_128_GCM_SHA256");
    assertThat(handshake("TLSv1.2", "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256"))
        .isEqualTo("TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256");
    assertThatThrownBy(() -> handshake("TLSv1.2", "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256"))
        .as("a CBC suite")
        .isInstanceOf(SSLHandshakeException.class);
  }

  @Test
  void onlyTls12And13WithAeadSuitesAreAccepted() throws Exception {
    assertPolicy();
  }

  @Test
  void theSamePolicyHoldsAfterTheCertificateIsSwapped() throws Exception {
    var swapped =
        server
            .updateSSLOptions(ServingTls.swap(keyCert(ca.issueServer("127.0.0.1"))))
            .toCompletionStage()
            .toCompletableFuture()
            .get(10, TimeUnit.SECONDS);
    assertThat(swapped).isTrue();

    assertPolicy();
  }
}
