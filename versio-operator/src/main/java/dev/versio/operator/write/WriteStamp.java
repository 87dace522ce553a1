package dev.versio.operator.write;

import java.util.Objects;

/**
 * Who wrote an object, recorded on every object the operator writes: the replica and the ownership
 * epoch of the shard under which it wrote, as {@code <replica>/<epoch>} — in the annotation {@value
 * #ANNOTATION} of targets, children, Events and finalizer changes, and in {@code status.writtenBy}
 * of configs and servers. An audit replays these against the shard Leases in etcd revision order.
 *
 * @param replica the replica id (the pod name)
 * @param epoch the shard's ownership epoch ({@code leaseTransitions} of its shard Lease)
 */
public record WriteStamp(String replica, long epoch) {
  /** The annotation that carries the stamp on objects without a status of Versio's. */
  public static final String ANNOTATION = "versio.dev/written-by";

  public WriteStamp {
    Objects.requireNonNull(replica, "replica");
    if (replica.isBlank() || replica.contains("/")) {
      throw new IllegalArgumentException("a replica id is a non-empty name without '/'");
    }
    if (epoch < 0) {
      throw new IllegalArgumentException("an ownership epoch is never negative, got " + epoch);
    }
  }

  /** {@code <replica>/<epoch>}. */
  public String text() {
    return replica + "/" + epoch;
  }

  /** Reads {@code <replica>/<epoch>}. */
  public static WriteStamp parse(String text) {
    int slash = text == null ? -1 : text.lastIndexOf('/');
    if (slash <= 0) {
      throw new IllegalArgumentException("not a write stamp <replica>/<epoch>: " + text);
    }
    return new WriteStamp(text.substring(0, slash), Long.parseLong(text.substring(slash + 1)));
  }

  @Override
  public String toString() {
    return text();
  }
}
