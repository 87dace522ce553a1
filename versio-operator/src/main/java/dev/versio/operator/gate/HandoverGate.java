package dev.versio.operator.gate;

import dev.versio.api.config.ConversionConfigStatus;
import dev.versio.api.server.ConversionWebhookServer;

/**
 * Holds a <em>move</em> of a target from one server to another until the destination is verified to
 * serve it. A first apply is never gated. {@link ServedHandoverGate} is the real one; {@link
 * #passThrough()} never holds (tests of other gates, and a switch-off).
 */
@FunctionalInterface
public interface HandoverGate {
  /**
   * Judges applying {@code config}'s {@code target} to {@code destination} at {@code
   * destinationUrl}, given the config's {@code previous} status.
   */
  HandoverVerdict judge(
      String kind,
      String config,
      String target,
      ConversionConfigStatus previous,
      ConversionWebhookServer destination,
      String destinationUrl);

  static HandoverGate passThrough() {
    return (kind, config, target, previous, destination, url) -> new HandoverVerdict.NotAMove();
  }
}
