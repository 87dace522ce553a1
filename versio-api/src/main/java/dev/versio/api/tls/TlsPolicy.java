package dev.versio.api.tls;

import java.util.List;

/**
 * What Versio's HTTPS listeners (conversion and admission webhooks) accept: TLS 1.2 and 1.3 only,
 * and in TLS 1.2 only ECDHE key exchange with an AEAD cipher (forward secrecy, no CBC, no RSA key
 * exchange) — the suites Go's TLS stack, and so the kube-apiserver as a client, prefers. TLS 1.3
 * suites are all AEAD. Documented in docs/webhook-server.md ("TLS").
 */
public final class TlsPolicy {
  /** Protocol versions, oldest first. */
  public static final List<String> PROTOCOLS = List.of("TLSv1.2", "TLSv1.3");

  /** Cipher suites (IANA names, as the JDK spells them), TLS 1.3 first. */
  public static final List<String> CIPHER_SUITES =
      List.of(
          "TLS_AES_128_GCM_SHA256",
          "TLS_AES_256_GCM_SHA384",
          "TLS_CHACHA20_POLY1305_SHA256",
          "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256",
          "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256",
          "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384",
          "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384",
          "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256",
          "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256");

  private TlsPolicy() {}
}
