package dev.versio.operator.tls;

import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * What a webhook server's TLS Secret must hold, given the installation CA: a serving certificate
 * signed by a CA of the bundle, for the server's names, valid for at least the renewal margin, and
 * {@code ca.crt} exactly the installation bundle — followed by any other CA the Secret trusted
 * before that is still valid (a server's own CA from before the installation CA, so that the
 * certificate it signed stays trusted until it ends). A certificate renews without changing {@code
 * ca.crt}, so renewals never reach the target CRDs. Pure.
 */
public final class ServerTls {
  private ServerTls() {}

  /**
   * The material the Secret must hold, or empty when {@code existing} already is it.
   *
   * @param existing what the Secret holds, or null when it is missing or unreadable
   */
  public static Optional<TlsMaterial> desired(
      TlsMaterial existing,
      InstallationCa ca,
      List<String> hosts,
      Instant now,
      Duration validity,
      Duration renewBefore) {
    var bundle = bundle(existing, ca, now);
    if (existing != null) {
      var kept = new TlsMaterial(bundle, existing.certificatePem(), existing.privateKeyPem());
      if (kept.problem(hosts, now, renewBefore).isEmpty()
          || asLongAsTheSigner(kept, ca, hosts, now)) {
        return kept.equals(existing) ? Optional.empty() : Optional.of(kept);
      }
    }
    var leaf = SelfSignedCa.leaf(ca.signer(), hosts, now, validity);
    return Optional.of(new TlsMaterial(bundle, leaf.certificatePem(), leaf.privateKeyPem()));
  }

  /**
   * Whether {@code material} is good now, signed by the signer, and ends when the signer does: a
   * new certificate could not live longer (certificates never outlive their CA), so renewing it
   * would only write the Secret again and again until the successor signs.
   */
  private static boolean asLongAsTheSigner(
      TlsMaterial material, InstallationCa ca, List<String> hosts, Instant now) {
    if (material.problem(hosts, now, Duration.ZERO).isPresent()) {
      return false;
    }
    var leaf = Pem.certificates(material.certificatePem()).getFirst();
    var signer = ca.signer().certificate();
    return signer.equals(TlsMaterial.signer(List.of(signer), leaf))
        && !leaf.getNotAfter().toInstant().isBefore(ca.signer().notAfter().minusSeconds(60));
  }

  /** The installation bundle, then the other CAs {@code existing} trusts that are still valid. */
  static String bundle(TlsMaterial existing, InstallationCa ca, Instant now) {
    var out = new StringBuilder(ca.bundlePem());
    if (existing == null) {
      return out.toString();
    }
    List<X509Certificate> before;
    try {
      before = Pem.certificates(existing.caBundlePem());
    } catch (IllegalArgumentException e) {
      return out.toString(); // unreadable: nothing worth keeping
    }
    var installation = ca.certificates();
    for (var certificate : before) {
      if (!installation.contains(certificate)
          && certificate.getNotAfter().toInstant().isAfter(now)) {
        out.append(Pem.certificate(certificate));
      }
    }
    return out.toString();
  }
}
