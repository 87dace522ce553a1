package dev.versio.coordination.gate;

import dev.versio.coordination.shard.ObjectKey;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.LongFunction;

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

  /**
   * Runs {@code write} with the current epoch if this replica may write {@code key} now, and keeps
   * the shard from being released while it runs: a planned hand-over waits for writes in flight, so
   * the next owner never sees a write of the previous one land after its takeover. Keep {@code
   * write} to one request with a timeout well below the renew deadline's margin.
   *
   * @return what {@code write} returned, or empty if this replica may not write {@code key}
   */
  <T> Optional<T> writeAsOwner(ObjectKey key, LongFunction<T> write);

  /** The shard of {@code key} (the same function on every replica). */
  int shardOf(ObjectKey key);

  /** Registers a listener; it is called on a notification thread, never on the lease loop. */
  void addListener(OwnershipListener listener);
}
