package dev.versio.coordination.gate;

import dev.versio.coordination.shard.ObjectKey;
import java.util.OptionalLong;

/**
 * What a reconciler asks before it writes: "may I write this object now, and at which ownership
 * epoch?". Answers turn "no" on their own at the must-stop deadline, without waiting for the lease
 * loop, so a stalled loop can never extend a replica's right to write.
 */
public interface ShardGate {
  /** The epoch under which this replica may write {@code key} now, or empty if it may not. */
  OptionalLong ownershipEpoch(ObjectKey key);

  default boolean owns(ObjectKey key) {
    return ownershipEpoch(key).isPresent();
  }

  /** The shard of {@code key} (the same function on every replica). */
  int shardOf(ObjectKey key);

  /** Registers a listener; it is called on a notification thread, never on the lease loop. */
  void addListener(OwnershipListener listener);
}
