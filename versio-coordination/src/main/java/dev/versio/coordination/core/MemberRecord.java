package dev.versio.coordination.core;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * What a member Lease says about one replica.
 *
 * @param id replica id (the Lease holder)
 * @param incarnation random token of this run of the replica; changes when it re-registers
 * @param shardCount the shard count the replica was started with
 * @param hashVersion the key hash it uses
 * @param buildVersion its binary's version (informational)
 * @param leaseDuration how long the Lease is valid after the last renewal others saw
 * @param created when the Lease was created, by the apiserver's clock (only orders members)
 * @param version the Lease's resourceVersion: any renewal changes it
 * @param fencedBy the replica that declared this incarnation expired, or empty
 */
public record MemberRecord(
    String id,
    String incarnation,
    int shardCount,
    String hashVersion,
    String buildVersion,
    Duration leaseDuration,
    Instant created,
    String version,
    String fencedBy) {
  public MemberRecord {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(incarnation, "incarnation");
    Objects.requireNonNull(hashVersion, "hashVersion");
    Objects.requireNonNull(buildVersion, "buildVersion");
    Objects.requireNonNull(leaseDuration, "leaseDuration");
    Objects.requireNonNull(created, "created");
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(fencedBy, "fencedBy");
  }

  public boolean fenced() {
    return !fencedBy.isEmpty();
  }

  /** Whether this member shards like {@code settings} (same shard count and key hash). */
  public boolean agreesWith(int shards, String hash) {
    return shardCount == shards && hashVersion.equals(hash);
  }
}
