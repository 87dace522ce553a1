package dev.versio.webhook.http;

import dev.versio.testkit.tls.CertificateAuthority;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.PemKeyCertOptions;

/** Server options of a test listener on loopback: TLS with ALPN (HTTP/2), any free port. */
public final class LoopbackTls {
  private LoopbackTls() {}

  /** Serving {@code 127.0.0.1} with a certificate {@code ca} issues for it now. */
  public static HttpServerOptions serverOptions(CertificateAuthority ca) {
    var cert = ca.issueServer("127.0.0.1");
    return new HttpServerOptions()
        .setHost("127.0.0.1")
        .setPort(0)
        .setSsl(true)
        .setUseAlpn(true)
        .setKeyCertOptions(
            new PemKeyCertOptions()
                .setCertValue(Buffer.buffer(cert.certificatePem()))
                .setKeyValue(Buffer.buffer(cert.privateKeyPem())));
  }
}
