package dev.versio.operator.tls;

import dev.versio.api.tls.KeyPairs;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A CA bundle, a serving certificate signed by the bundle's first CA, and the certificate's key;
 * all PEM, the key as PKCS#8. This is what a TLS Secret holds under {@value #CA_CRT}, {@value
 * #TLS_CRT} and {@value #TLS_KEY}.
 *
 * @param caBundlePem the current CA first, then at most one previous CA still in its validity
 * @param certificatePem the serving certificate
 * @param privateKeyPem its key
 */
public record TlsMaterial(String caBundlePem, String certificatePem, String privateKeyPem) {
  public static final String CA_CRT = "ca.crt";
  public static final String TLS_CRT = "tls.crt";
  public static final String TLS_KEY = "tls.key";

  public TlsMaterial {
    Objects.requireNonNull(caBundlePem, "caBundlePem");
    Objects.requireNonNull(certificatePem, "certificatePem");
    Objects.requireNonNull(privateKeyPem, "privateKeyPem");
  }

  /** Reads a Secret's {@code data} (base64 values); fails naming the missing key. */
  public static TlsMaterial fromSecretData(Map<String, String> data) {
    return new TlsMaterial(decode(data, CA_CRT), decode(data, TLS_CRT), decode(data, TLS_KEY));
  }

  /** The Secret {@code data} for this material (base64 values). */
  public Map<String, String> secretData() {
    return Map.of(
        CA_CRT,
        base64(caBundlePem),
        TLS_CRT,
        base64(certificatePem),
        TLS_KEY,
        base64(privateKeyPem));
  }

  /** Base64 of the CA bundle PEM: the form of a webhook's {@code caBundle}. */
  public String caBundleBase64() {
    return base64(caBundlePem);
  }

  /**
   * This material with {@code previous}'s current CA appended to the bundle, when that CA is still
   * valid at {@code now}: certificates it signed (served by replicas that have not reloaded yet)
   * stay trusted through a rollover. {@code previous} may be unreadable; then nothing is kept.
   */
  public TlsMaterial keepingPreviousCa(TlsMaterial previous, Instant now) {
    try {
      var old = Pem.certificates(previous.caBundlePem()).getFirst();
      if (old.getNotAfter().toInstant().isAfter(now)
          && !Pem.certificates(caBundlePem).contains(old)) {
        return new TlsMaterial(caBundlePem + Pem.certificate(old), certificatePem, privateKeyPem);
      }
    } catch (IllegalArgumentException e) {
      // an unreadable previous bundle has nothing worth keeping
    }
    return this;
  }

  /**
   * Why this material cannot serve {@code hosts} from {@code now} for at least {@code
   * minRemaining}, or empty when it can: everything parses, the key belongs to the certificate, a
   * CA of the bundle signed it (during a CA rotation the signer need not be the first), both are
   * valid long enough, and the SANs cover every host.
   */
  public Optional<String> problem(List<String> hosts, Instant now, Duration minRemaining) {
    List<X509Certificate> bundle;
    X509Certificate certificate;
    PrivateKey key;
    try {
      bundle = Pem.certificates(caBundlePem);
    } catch (IllegalArgumentException e) {
      return Optional.of(CA_CRT + " is unreadable: " + e.getMessage());
    }
    try {
      certificate = Pem.certificates(certificatePem).getFirst();
    } catch (IllegalArgumentException e) {
      return Optional.of(TLS_CRT + " is unreadable: " + e.getMessage());
    }
    try {
      key = KeyPairs.privateKey(privateKeyPem);
    } catch (IllegalArgumentException e) {
      return Optional.of(TLS_KEY + " is unreadable: " + e.getMessage());
    }
    if (!KeyPairs.belongTogether(key, certificate)) {
      return Optional.of(TLS_KEY + " does not belong to " + TLS_CRT);
    }
    var ca = signer(bundle, certificate);
    if (ca == null) {
      return Optional.of(TLS_CRT + " is not signed by a CA of " + CA_CRT);
    }
    var validity = validity(ca, CA_CRT, now, minRemaining);
    if (validity.isPresent()) {
      return validity;
    }
    validity = validity(certificate, TLS_CRT, now, minRemaining);
    if (validity.isPresent()) {
      return validity;
    }
    var missing = new ArrayList<String>();
    var sans = subjectAltNames(certificate);
    for (var host : hosts) {
      var wanted =
          Hosts.ipLiteral(host)
              .map(ip -> "ip:" + ip.getHostAddress())
              .orElse("dns:" + host.toLowerCase(Locale.ROOT));
      if (!sans.contains(wanted)) {
        missing.add(host);
      }
    }
    if (!missing.isEmpty()) {
      return Optional.of(TLS_CRT + " does not name " + String.join(", ", missing));
    }
    return Optional.empty();
  }

  private static Optional<String> validity(
      X509Certificate certificate, String what, Instant now, Duration minRemaining) {
    var notBefore = certificate.getNotBefore().toInstant();
    var notAfter = certificate.getNotAfter().toInstant();
    if (now.isBefore(notBefore)) {
      return Optional.of(what + " is not valid before " + notBefore);
    }
    if (!now.plus(minRemaining).isBefore(notAfter)) {
      return Optional.of(
          what + " expires at " + notAfter + ", within " + minRemaining.toDays() + " days");
    }
    return Optional.empty();
  }

  /** The CA of {@code bundle} that signed {@code certificate}, or null. */
  static X509Certificate signer(List<X509Certificate> bundle, X509Certificate certificate) {
    for (var ca : bundle) {
      try {
        certificate.verify(ca.getPublicKey());
        return ca;
      } catch (GeneralSecurityException e) {
        // not this one
      }
    }
    return null;
  }

  /** When the serving certificate ends. */
  public Instant certificateNotAfter() {
    return Pem.certificates(certificatePem).getFirst().getNotAfter().toInstant();
  }

  /** SANs as {@code dns:<lower-case name>} and {@code ip:<address>}. */
  private static HashSet<String> subjectAltNames(X509Certificate certificate) {
    var out = new HashSet<String>();
    try {
      var names = certificate.getSubjectAlternativeNames();
      if (names == null) {
        return out;
      }
      for (var name : names) {
        var type = (Integer) name.get(0);
        var value = String.valueOf(name.get(1));
        if (type == 2) {
          out.add("dns:" + value.toLowerCase(Locale.ROOT));
        } else if (type == 7) {
          Hosts.ipLiteral(value).ifPresent(ip -> out.add("ip:" + ip.getHostAddress()));
        }
      }
    } catch (CertificateParsingException e) {
      // no readable SANs: every host is missing
    }
    return out;
  }

  private static String decode(Map<String, String> data, String key) {
    var value = data == null ? null : data.get(key);
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException("the Secret has no " + key);
    }
    try {
      return new String(Base64.getDecoder().decode(value), StandardCharsets.US_ASCII);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(key + " is not base64: " + e.getMessage(), e);
    }
  }

  private static String base64(String pem) {
    return Base64.getEncoder().encodeToString(pem.getBytes(StandardCharsets.US_ASCII));
  }
}
