package dev.versio.operator.tls;

import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The CA every operator-issued webhook-server certificate chains to: long-lived, so that serving
 * certificates renew without changing the CA bundle the target CRDs carry (a CRD {@code spec} write
 * ends every watch on its resources). Its own rotation changes the bundle twice per CA lifetime:
 * the next CA is added to the bundle {@code overlap} before it signs anything, and the old CA is
 * dropped once it has expired (every certificate it signed ends with it). Pure: {@link #next} says
 * what the state becomes at an instant.
 *
 * @param trusted the bundle, in a fixed order (the targets' {@code caBundle}): certificates are
 *     appended and dropped, never reordered, so an unchanged set is an unchanged bundle
 * @param signer the CA that signs serving certificates now
 * @param next the CA that will sign once it has been trusted for {@code overlap}, or null
 * @param nextTrustedSince when {@code next} joined the bundle, or null
 */
public record InstallationCa(
    List<String> trusted,
    SelfSignedCa.CaPair signer,
    SelfSignedCa.CaPair next,
    Instant nextTrustedSince) {

  /** How long the CA and its successors live, and when a successor is made. */
  public record Policy(Duration validity, Duration rotateBefore, Duration overlap) {
    /**
     * Ten years; the successor made one year before the end and trusted 30 days before it signs.
     */
    public static final Policy DEFAULT =
        new Policy(Duration.ofDays(3650), Duration.ofDays(365), Duration.ofDays(30));

    public Policy {
      if (!rotateBefore.isPositive()
          || !overlap.isPositive()
          || overlap.compareTo(rotateBefore) >= 0
          || rotateBefore.compareTo(validity) >= 0) {
        throw new IllegalArgumentException(
            "a CA policy needs 0 < overlap < rotateBefore < validity, found "
                + overlap
                + ", "
                + rotateBefore
                + ", "
                + validity);
      }
    }
  }

  public InstallationCa {
    trusted = List.copyOf(trusted);
    Objects.requireNonNull(signer, "signer");
    if ((next == null) != (nextTrustedSince == null)) {
      throw new IllegalArgumentException("a next CA and the time it joined the bundle go together");
    }
  }

  /**
   * Why this state cannot be used as it is, or null: the signer's key must belong to its
   * certificate, and the signer and any successor must be in the bundle (a certificate they sign
   * would otherwise be trusted by no target).
   */
  public String problem() {
    var bundle = certificates();
    if (!bundle.contains(signer.certificate())) {
      return "signer.crt is not in ca.crt";
    }
    if (!dev.versio.api.tls.KeyPairs.belongTogether(
        dev.versio.api.tls.KeyPairs.privateKey(signer.privateKeyPem()), signer.certificate())) {
      return "signer.key does not belong to signer.crt";
    }
    if (next != null && !bundle.contains(next.certificate())) {
      return "next.crt is not in ca.crt";
    }
    return null;
  }

  static final String COMMON_NAME = "versio-webhook-servers";

  /** A signer this close to its end hands over to its successor whatever the overlap. */
  static final Duration LAST_DAY = Duration.ofDays(1);

  /** A new installation's CA, valid from {@code now}. */
  public static InstallationCa create(Instant now, Policy policy) {
    var ca = SelfSignedCa.newCa(COMMON_NAME, now, policy.validity());
    return new InstallationCa(List.of(ca.certificatePem()), ca, null, null);
  }

  /**
   * The state at {@code now}: the successor made and trusted when the signer is within {@code
   * rotateBefore} of its end; the successor signing once it has been trusted for {@code overlap};
   * expired CAs dropped from the bundle. Returns this state when nothing is due.
   */
  public InstallationCa next(Instant now, Policy policy) {
    var state = this;
    if (state.next == null && !now.isBefore(state.signer.notAfter().minus(policy.rotateBefore()))) {
      var successor = SelfSignedCa.newCa(COMMON_NAME, now, policy.validity());
      var bundle = new ArrayList<>(state.trusted);
      bundle.add(successor.certificatePem());
      state = new InstallationCa(bundle, state.signer, successor, now);
    }
    // the successor signs once trusted for the overlap — or at once when the signer is about to
    // end (the operator was down through the whole window, or the clock jumped): a certificate
    // from a CA that has ended would be trusted by nobody
    boolean signerEnding = !now.isBefore(state.signer.notAfter().minus(LAST_DAY));
    if (state.next != null
        && (signerEnding || !now.isBefore(state.nextTrustedSince.plus(policy.overlap())))) {
      state = new InstallationCa(state.trusted, state.next, null, null);
    }
    var live =
        state.trusted.stream()
            .filter(pem -> Pem.certificates(pem).getFirst().getNotAfter().toInstant().isAfter(now))
            .toList();
    if (live.size() != state.trusted.size()) {
      state = new InstallationCa(live, state.signer, state.next, state.nextTrustedSince);
    }
    return state;
  }

  /** The bundle as one PEM text: what a server Secret's {@code ca.crt} starts with. */
  public String bundlePem() {
    return String.join("", trusted);
  }

  /** The bundle's certificates. */
  public List<X509Certificate> certificates() {
    return trusted.stream().map(pem -> Pem.certificates(pem).getFirst()).toList();
  }
}
