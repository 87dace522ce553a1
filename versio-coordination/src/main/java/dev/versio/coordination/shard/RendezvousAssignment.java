package dev.versio.coordination.shard;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Rendezvous (highest random weight) assignment of shards to members: every shard goes to the
 * member with the highest score {@code mix64(fnv1a64(member) ^ mix64(shard * golden))}, ties to the
 * smaller id. Adding a member moves only the shards it now wins (about 1/(N+1) of them) and never
 * moves a shard between two members that were there before; removing one moves only its shards.
 */
public final class RendezvousAssignment {
  private static final long GOLDEN = 0x9e3779b97f4a7c15L;

  private RendezvousAssignment() {}

  /** Owner of every shard {@code 0..shardCount-1}; empty when there are no members. */
  public static Map<Integer, String> assign(Collection<String> members, int shardCount) {
    var sorted = List.copyOf(new TreeSet<>(members));
    var hashes = new long[sorted.size()];
    for (int i = 0; i < hashes.length; i++) {
      hashes[i] = ShardFunction.fnv1a64(sorted.get(i));
    }
    var owners = new TreeMap<Integer, String>();
    if (sorted.isEmpty()) {
      return owners;
    }
    for (int shard = 0; shard < shardCount; shard++) {
      long shardHash = ShardFunction.mix64(shard * GOLDEN);
      int best = 0;
      long bestScore = Long.MIN_VALUE;
      for (int i = 0; i < hashes.length; i++) {
        long score = ShardFunction.mix64(hashes[i] ^ shardHash);
        if (Long.compareUnsigned(score, bestScore) > 0 || i == 0) {
          best = i;
          bestScore = score;
        }
      }
      owners.put(shard, sorted.get(best));
    }
    return owners;
  }
}
