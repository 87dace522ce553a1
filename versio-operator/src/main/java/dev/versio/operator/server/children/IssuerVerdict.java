package dev.versio.operator.server.children;

import java.util.Map;
import java.util.Optional;

/**
 * Whether the cert-manager issuer a server names keeps the CA its certificates are signed by: a
 * {@code selfSigned} issuer makes every renewed certificate its own CA, so every renewal changes
 * {@code ca.crt} — and with it the {@code caBundle} of every target of the server, a write to each
 * target CRD that ends every watch on its resources. A {@code ca} issuer (backed by a long-lived
 * CA) keeps it. Pure.
 */
public final class IssuerVerdict {
  private IssuerVerdict() {}

  /**
   * The warning for an issuer whose {@code spec} is {@code issuerSpec} (as read from the cluster),
   * or empty when it keeps its CA or cannot be told.
   */
  public static Optional<String> warning(String kind, String name, Map<String, Object> issuerSpec) {
    if (issuerSpec == null || !issuerSpec.containsKey("selfSigned")) {
      return Optional.empty();
    }
    return Optional.of(
        kind
            + " "
            + name
            + " is self-signed: each renewed certificate is its own CA, so every renewal rewrites"
            + " the caBundle of every target of this server (a CRD write that ends every watch on"
            + " its resources). Use a CA issuer (spec.ca with a long-lived CA Secret) instead, or"
            + " let the operator issue the certificate (no spec.certificate.issuerRef)");
  }
}
