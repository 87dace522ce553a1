package dev.versio.coordination.core;

import java.util.Objects;

/**
 * What a shard Lease says: who holds the shard and since which epoch.
 *
 * @param shard the shard number
 * @param holder replica id of the holder, or empty when the shard is free
 * @param incarnation incarnation of the holder that acquired it
 * @param epoch ownership epoch: incremented on every acquisition ({@code spec.leaseTransitions})
 * @param version the Lease's resourceVersion, for compare-and-swap; empty if it does not exist yet
 */
public record ShardLease(int shard, String holder, String incarnation, long epoch, String version) {
  public ShardLease {
    Objects.requireNonNull(holder, "holder");
    Objects.requireNonNull(incarnation, "incarnation");
    Objects.requireNonNull(version, "version");
    if (shard < 0 || epoch < 0) {
      throw new IllegalArgumentException("shard and epoch must not be negative");
    }
  }

  /** A shard whose Lease does not exist yet. */
  public static ShardLease absent(int shard) {
    return new ShardLease(shard, "", "", 0, "");
  }

  public boolean free() {
    return holder.isEmpty();
  }

  public boolean exists() {
    return !version.isEmpty();
  }

  public boolean heldBy(String id, String inc) {
    return holder.equals(id) && incarnation.equals(inc);
  }
}
