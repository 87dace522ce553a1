package dev.versio.coordination.shard;

import java.nio.charset.StandardCharsets;

/**
 * Maps an object key to one of {@code shardCount} shards.
 *
 * <p>Hash version {@value #HASH_VERSION}: FNV-1a 64 over the UTF-8 bytes of {@link
 * ObjectKey#text()}, then the splitmix64 finaliser (so that every input bit reaches the low bits
 * that a power-of-two shard count keeps), then the unsigned remainder by the shard count. The
 * golden vectors in the tests pin it: changing any step is a new hash version, and replicas that
 * disagree on the hash version refuse to take shards.
 */
public final class ShardFunction {
  public static final String HASH_VERSION = "fnv1a64-splitmix64-v1";

  private static final long FNV_OFFSET = 0xcbf29ce484222325L;
  private static final long FNV_PRIME = 0x100000001b3L;

  private final int shardCount;

  public ShardFunction(int shardCount) {
    if (shardCount < 1 || shardCount > 4096) {
      throw new IllegalArgumentException(
          "shard count must be between 1 and 4096, got " + shardCount);
    }
    this.shardCount = shardCount;
  }

  public int shardCount() {
    return shardCount;
  }

  public int shardOf(ObjectKey key) {
    return (int) Long.remainderUnsigned(mix64(fnv1a64(key.text())), shardCount);
  }

  /** FNV-1a, 64 bit, over the UTF-8 bytes of {@code text}. */
  public static long fnv1a64(String text) {
    long hash = FNV_OFFSET;
    for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
      hash ^= b & 0xff;
      hash *= FNV_PRIME;
    }
    return hash;
  }

  /** The splitmix64 finaliser: a bijection that spreads every input bit over the output. */
  public static long mix64(long z) {
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 31);
  }
}
