package dev.versio.coordination.core;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * An immutable copy of a replica's ownership that other threads may read: the shards held with
 * their epochs, and the instant after which none of them may be written.
 */
public record OwnershipView(Map<Integer, Long> epochs, Instant permittedUntil) {
  public static final OwnershipView NONE = new OwnershipView(Map.of(), Instant.MIN);

  public OwnershipView {
    epochs = Map.copyOf(epochs);
    Objects.requireNonNull(permittedUntil, "permittedUntil");
  }

  /** The epoch of {@code shard} if it is held and {@code now} is before the deadline. */
  public OptionalLong epochAt(int shard, Instant now) {
    var epoch = epochs.get(shard);
    if (epoch == null || !now.isBefore(permittedUntil)) {
      return OptionalLong.empty();
    }
    return OptionalLong.of(epoch);
  }
}
