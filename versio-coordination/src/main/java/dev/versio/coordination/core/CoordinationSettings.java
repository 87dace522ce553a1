package dev.versio.coordination.core;

import dev.versio.coordination.shard.ShardFunction;
import java.time.Duration;
import java.util.Objects;

/**
 * The timing and sharding parameters every replica of one group must share.
 *
 * <p>A replica renews its member Lease every {@code renewInterval} and retries a failed renewal
 * every {@code retryInterval}. It writes for its shards only until {@code renewDeadline} after the
 * start of its last successful renewal. Another replica may take its shards only after it has seen
 * that Lease unchanged for {@code leaseDuration} on its own clock. The safety margin {@code
 * leaseDuration - renewDeadline} covers writes still in flight when the deadline passes, so it must
 * exceed the request timeout of the writer.
 *
 * @param group name shared by the replicas; prefixes every Lease name
 * @param shardCount number of shards {@code S}
 * @param leaseDuration how long a member Lease stays valid after the last renewal others saw
 * @param renewInterval how often a healthy replica renews
 * @param renewDeadline how long after its last successful renewal's start a replica keeps writing
 * @param retryInterval how soon a failed renewal is retried
 * @param buildVersion version of the binary, published for operators (not compared)
 */
public record CoordinationSettings(
    String group,
    int shardCount,
    Duration leaseDuration,
    Duration renewInterval,
    Duration renewDeadline,
    Duration retryInterval,
    String buildVersion) {

  public static final int DEFAULT_SHARDS = 256;
  public static final Duration DEFAULT_LEASE_DURATION = Duration.ofSeconds(15);
  public static final Duration DEFAULT_RENEW_INTERVAL = Duration.ofSeconds(5);
  public static final Duration DEFAULT_RENEW_DEADLINE = Duration.ofSeconds(10);
  public static final Duration DEFAULT_RETRY_INTERVAL = Duration.ofSeconds(1);

  public CoordinationSettings {
    Objects.requireNonNull(group, "group");
    Objects.requireNonNull(buildVersion, "buildVersion");
    if (!group.matches("[a-z0-9]([-a-z0-9]{0,38}[a-z0-9])?")) {
      throw new IllegalArgumentException(
          "group '" + group + "' must be a DNS label of at most 40 characters");
    }
    new ShardFunction(shardCount); // validates the range
    requirePositive("leaseDuration", leaseDuration);
    requirePositive("renewInterval", renewInterval);
    requirePositive("renewDeadline", renewDeadline);
    requirePositive("retryInterval", retryInterval);
    if (leaseDuration.toNanos() % 1_000_000_000L != 0) {
      throw new IllegalArgumentException(
          "leaseDuration ("
              + leaseDuration
              + ") must be whole seconds: Leases publish it as leaseDurationSeconds");
    }
    if (renewDeadline.compareTo(renewInterval.plus(retryInterval)) <= 0) {
      throw new IllegalArgumentException(
          "renewDeadline ("
              + renewDeadline
              + ") must exceed renewInterval + retryInterval ("
              + renewInterval.plus(retryInterval)
              + "), or a single failed renewal stops all writes; raise renewDeadline");
    }
    if (renewDeadline.compareTo(leaseDuration.minus(renewInterval)) > 0) {
      throw new IllegalArgumentException(
          "renewDeadline ("
              + renewDeadline
              + ") must be at most leaseDuration - renewInterval ("
              + leaseDuration.minus(renewInterval)
              + "): a replica must stop writing well before others may take its shards;"
              + " lower renewDeadline or raise leaseDuration");
    }
  }

  /** The defaults: 256 shards, 15 s lease, 5 s renew interval, 10 s renew deadline, 1 s retry. */
  public static CoordinationSettings defaults(String group, String buildVersion) {
    return new CoordinationSettings(
        group,
        DEFAULT_SHARDS,
        DEFAULT_LEASE_DURATION,
        DEFAULT_RENEW_INTERVAL,
        DEFAULT_RENEW_DEADLINE,
        DEFAULT_RETRY_INTERVAL,
        buildVersion);
  }

  public String hashVersion() {
    return ShardFunction.HASH_VERSION;
  }

  private static void requirePositive(String name, Duration value) {
    Objects.requireNonNull(value, name);
    if (value.isNegative() || value.isZero()) {
      throw new IllegalArgumentException(name + " must be positive, got " + value);
    }
  }
}
