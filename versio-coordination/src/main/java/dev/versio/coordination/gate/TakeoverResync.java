package dev.versio.coordination.gate;

import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import java.util.function.ToIntFunction;

/**
 * Offers the objects of newly gained shards to a {@link ReconcileQueue}'s paced resync lane, and
 * drops queued work of lost shards. This closes the gap between two owners (a change the old owner
 * saw but did not act on) without starving live events; a resync of objects that need nothing makes
 * no writes if the reconciler compares before it writes.
 *
 * @param <K> the key type
 */
public final class TakeoverResync<K> implements OwnershipListener {
  private final ReconcileQueue<K> queue;
  private final Function<Set<Integer>, Iterable<K>> keysOfShards;
  private final ToIntFunction<K> shardOf;

  /**
   * @param queue where keys go
   * @param keysOfShards the keys currently known (e.g. in the informer cache) in the given shards
   * @param shardOf the shard of a key
   */
  public TakeoverResync(
      ReconcileQueue<K> queue,
      Function<Set<Integer>, Iterable<K>> keysOfShards,
      ToIntFunction<K> shardOf) {
    this.queue = Objects.requireNonNull(queue, "queue");
    this.keysOfShards = Objects.requireNonNull(keysOfShards, "keysOfShards");
    this.shardOf = Objects.requireNonNull(shardOf, "shardOf");
  }

  @Override
  public void gained(Map<Integer, Long> epochs) {
    queue.offerResync(keysOfShards.apply(epochs.keySet()));
  }

  @Override
  public void lost(Set<Integer> shards) {
    queue.removeIf(key -> shards.contains(shardOf.applyAsInt(key)));
  }
}
