package dev.versio.coordination.shard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ShardFunctionTest {

  @Test
  void fnv1aMatchesThePublishedTestVectors() {
    assertThat(ShardFunction.fnv1a64("")).isEqualTo(0xcbf29ce484222325L);
    assertThat(ShardFunction.fnv1a64("a")).isEqualTo(0xaf63dc4c8601ec8cL);
    assertThat(ShardFunction.fnv1a64("foobar")).isEqualTo(0x85944171f73967e8L);
  }

  @Test
  void shardsOfKnownKeysArePinnedSoThatEveryReplicaAndReleaseAgree() {
    var s64 = new ShardFunction(64);
    assertThat(s64.shardOf(new ObjectKey("default", "my-config"))).isEqualTo(GOLDEN_DEFAULT);
    assertThat(s64.shardOf(ObjectKey.clusterScoped("widgets.example.com")))
        .isEqualTo(GOLDEN_CLUSTER);
    assertThat(s64.shardOf(new ObjectKey("team-a", "ünïcode"))).isEqualTo(GOLDEN_UNICODE);
    assertThat(new ShardFunction(7).shardOf(new ObjectKey("default", "my-config")))
        .isEqualTo(GOLDEN_SEVEN);
    assertThat(ShardFunction.HASH_VERSION).isEqualTo("fnv1a64-splitmix64-v1");
  }

  @Test
  void aClusterScopedKeyHashesItsNameAlone() {
    assertThat(ObjectKey.clusterScoped("x").text()).isEqualTo("x");
    assertThat(new ObjectKey("ns", "x").text()).isEqualTo("ns/x");
  }

  @Test
  void keysSpreadEvenlyOverShardsEvenWhenTheyDifferOnlyInTheirLastCharacters() {
    var function = new ShardFunction(64);
    int[] counts = new int[64];
    int keys = 64_000;
    for (int i = 0; i < keys; i++) {
      counts[function.shardOf(new ObjectKey("ns", "cm-" + i))]++;
    }
    double expected = keys / 64.0;
    double chiSquare = 0;
    for (int c : counts) {
      chiSquare += (c - expected) * (c - expected) / expected;
    }
    // 63 degrees of freedom: the 99.9th percentile is about 103
    assertThat(chiSquare).isLessThan(103);
  }

  @Test
  void aShardCountOutsideOneTo4096IsRefused() {
    assertThatThrownBy(() -> new ShardFunction(0)).hasMessageContaining("between 1 and 4096");
    assertThatThrownBy(() -> new ShardFunction(4097)).hasMessageContaining("between 1 and 4096");
  }

  @Test
  void aKeyWithASlashIsRefused() {
    assertThatThrownBy(() -> new ObjectKey("a/b", "c")).hasMessageContaining("'/'");
  }

  private static final int GOLDEN_DEFAULT = 20;
  private static final int GOLDEN_CLUSTER = 56;
  private static final int GOLDEN_UNICODE = 16;
  private static final int GOLDEN_SEVEN = 0;
}
