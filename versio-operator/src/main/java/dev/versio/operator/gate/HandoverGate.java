package dev.versio.operator.gate;

import dev.versio.api.config.ConversionConfigStatus;
import dev.versio.api.server.ConversionWebhookServer;
import java.util.Optional;

/**
 * Holds a <em>move</em> of a target from one server to another until the destination is verified to
 * serve it. A first apply is never gated. Today a pass-through: the handover work plugs the
 * served-targets check in here.
 */
@FunctionalInterface
public interface HandoverGate {
  /** Empty to proceed, or why the move must wait. */
  Optional<String> holds(
      String target, ConversionConfigStatus previous, ConversionWebhookServer destination);

  static HandoverGate passThrough() {
    return (target, previous, destination) -> Optional.empty();
  }
}
