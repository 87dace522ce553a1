package dev.versio.webhook.forward;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * How a replica behind the pool's front passes on a review for a target it does not hold.
 *
 * @param advertiseAddress {@code host:port} at which the other replicas reach this replica's
 *     conversion listener (published in its served-target Lease)
 * @param peerCa PEM file of the CA whose certificates the peers present (the installation CA)
 * @param timeout the most one forwarded review may take, retry included: well inside the
 *     apiserver's webhook timeout, so a slow peer fails fast
 */
public record Forwarding(String advertiseAddress, Path peerCa, Duration timeout) {
  /** The default forwarding budget. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(5);

  public Forwarding {
    Objects.requireNonNull(advertiseAddress, "advertiseAddress");
    Objects.requireNonNull(peerCa, "peerCa");
    Objects.requireNonNull(timeout, "timeout");
    int colon = advertiseAddress.lastIndexOf(':');
    if (colon <= 0 || colon == advertiseAddress.length() - 1) {
      throw new IllegalArgumentException(
          "--advertise-address '" + advertiseAddress + "' must be host:port");
    }
    try {
      int port = Integer.parseInt(advertiseAddress.substring(colon + 1));
      if (port < 1 || port > 65535) {
        throw new NumberFormatException();
      }
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "--advertise-address '" + advertiseAddress + "' must end in a port from 1 to 65535");
    }
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("--forward-timeout must be positive");
    }
  }
}
