package dev.versio.operator.write;

import io.fabric8.kubernetes.api.model.HasMetadata;

/**
 * The one seam in front of every write the operator makes: "may this replica write this object
 * now?". Today a single replica owns everything; the operator-HA work answers it from lease-based
 * shard ownership ({@code versio-coordination}) and changes nothing else.
 */
@FunctionalInterface
public interface WriteGate {
  /** Whether this replica may write {@code object} (or objects derived from it) now. */
  boolean mayWrite(HasMetadata object);

  /** The gate of a single replica: every write is allowed. */
  static WriteGate single() {
    return object -> true;
  }
}
