package dev.versio.webhook.served;

import java.time.Duration;
import java.util.Objects;

/**
 * Whether and how a replica publishes its served targets.
 *
 * @param identity the replica's Pod (or its stand-in in URL mode)
 * @param heartbeat how often the Lease is renewed (the operator counts a replica live for three)
 */
public record ServedTargetsPublication(ReplicaIdentity identity, Duration heartbeat) {
  /** The default heartbeat. */
  public static final Duration DEFAULT_HEARTBEAT = Duration.ofSeconds(30);

  public ServedTargetsPublication {
    Objects.requireNonNull(identity, "identity");
    Objects.requireNonNull(heartbeat, "heartbeat");
    if (heartbeat.isNegative() || heartbeat.isZero()) {
      throw new IllegalArgumentException("--served-targets-heartbeat must be positive");
    }
  }
}
