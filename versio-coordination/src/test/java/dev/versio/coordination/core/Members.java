package dev.versio.coordination.core;

import dev.versio.coordination.shard.ShardFunction;
import java.time.Duration;
import java.time.Instant;

/** Member records for tests. */
final class Members {
  private Members() {}

  static MemberRecord member(String id, String version) {
    return member(id, "inc-" + id, version, 64, Instant.parse("2026-01-01T00:00:00Z"));
  }

  static MemberRecord member(
      String id, String incarnation, String version, int shards, Instant created) {
    return new MemberRecord(
        id,
        incarnation,
        shards,
        ShardFunction.HASH_VERSION,
        "1.0.0",
        Duration.ofSeconds(15),
        created,
        version,
        "");
  }

  static MemberRecord fenced(MemberRecord m, String by, String version) {
    return new MemberRecord(
        m.id(),
        m.incarnation(),
        m.shardCount(),
        m.hashVersion(),
        m.buildVersion(),
        m.leaseDuration(),
        m.created(),
        version,
        by);
  }
}
