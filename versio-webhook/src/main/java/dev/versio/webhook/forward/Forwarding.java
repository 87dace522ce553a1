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
 * @param hedgeAfter how long a holder may take before the review is also sent to another holder
 *     (the first answer wins; a conversion is the same whoever computes it), so that a frozen or
 *     starved peer costs its reviews this long instead of the whole budget; zero: never
 */
public record Forwarding(
    String advertiseAddress, Path peerCa, Duration timeout, Duration hedgeAfter) {
  /** The default forwarding budget. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(5);

  /**
   * The default hedge: far above a forward's normal time (well under 1 ms on a kept-alive
   * connection; p99 under 25 ms on the loaded 2-core lab at 60 requests/s), well below the budget.
   */
  public static final Duration DEFAULT_HEDGE_AFTER = Duration.ofMillis(250);

  /** With the default hedge, or none when the budget is not longer than it. */
  public Forwarding(String advertiseAddress, Path peerCa, Duration timeout) {
    this(advertiseAddress, peerCa, timeout, defaultHedge(timeout));
  }

  /** {@link #DEFAULT_HEDGE_AFTER} when it fits inside {@code timeout}, else none. */
  public static Duration defaultHedge(Duration timeout) {
    return timeout != null && timeout.compareTo(DEFAULT_HEDGE_AFTER) > 0
        ? DEFAULT_HEDGE_AFTER
        : Duration.ZERO;
  }

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
    Objects.requireNonNull(hedgeAfter, "hedgeAfter");
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("--forward-timeout must be positive");
    }
    if (hedgeAfter.isNegative()
        || hedgeAfter.compareTo(timeout) >= 0
        || hedgeAfter.isPositive() && hedgeAfter.toMillis() < 1) {
      throw new IllegalArgumentException(
          "--forward-hedge-after must be shorter than --forward-timeout ("
              + timeout.toMillis()
              + " ms) and at least 1ms, or 0s to never ask a second holder before the first has"
              + " failed");
    }
  }
}
