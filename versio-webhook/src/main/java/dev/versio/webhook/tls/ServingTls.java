package dev.versio.webhook.tls;

import dev.versio.api.tls.TlsPolicy;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.KeyCertOptions;
import io.vertx.core.net.ServerSSLOptions;
import java.util.LinkedHashSet;

/**
 * Versio's TLS policy ({@link TlsPolicy}: TLS 1.2+, ECDHE with AEAD ciphers only) on a Vert.x
 * listener, both when it starts and when its certificate is swapped (a swap replaces every SSL
 * option, so the policy goes with each one).
 */
public final class ServingTls {
  private ServingTls() {}

  /** {@code options} serving HTTPS with {@code keyCert} under the policy. */
  public static HttpServerOptions apply(HttpServerOptions options, KeyCertOptions keyCert) {
    options
        .setSsl(true)
        .setKeyCertOptions(keyCert)
        .setEnabledSecureTransportProtocols(new LinkedHashSet<>(TlsPolicy.PROTOCOLS));
    TlsPolicy.CIPHER_SUITES.forEach(options::addEnabledCipherSuite);
    return options;
  }

  /** The SSL options of a certificate swap, under the policy. */
  public static ServerSSLOptions swap(KeyCertOptions keyCert) {
    var ssl =
        new ServerSSLOptions()
            .setKeyCertOptions(keyCert)
            .setEnabledSecureTransportProtocols(new LinkedHashSet<>(TlsPolicy.PROTOCOLS));
    TlsPolicy.CIPHER_SUITES.forEach(ssl::addEnabledCipherSuite);
    return ssl;
  }
}
