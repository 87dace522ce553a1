package dev.versio.operator.write;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * The one seam in front of every write the operator makes: "may this replica write for this object
 * now, and under which stamp?". With several replicas the answer comes from lease-based shard
 * ownership ({@link dev.versio.operator.ha.ShardWriteGate}); a replica alone owns everything.
 */
public interface WriteGate {
  /** Whether this replica may write {@code owner} (or objects written for it) now. */
  boolean mayWrite(HasMetadata owner);

  /**
   * Runs {@code write} with this replica's stamp if it may write for {@code owner} now, and keeps
   * the ownership from being handed over while the write runs.
   *
   * @return what {@code write} returned (never null), or empty if this replica may not write now
   */
  <T> Optional<T> writeAsOwner(HasMetadata owner, Function<WriteStamp, T> write);

  /** The gate of a replica that runs alone: every write is allowed, under epoch 0. */
  static WriteGate single(String replica) {
    var stamp = new WriteStamp(replica, 0);
    return new WriteGate() {
      @Override
      public boolean mayWrite(HasMetadata owner) {
        return true;
      }

      @Override
      public <T> Optional<T> writeAsOwner(HasMetadata owner, Function<WriteStamp, T> write) {
        return Optional.of(Objects.requireNonNull(write.apply(stamp), "a write returns a value"));
      }
    };
  }
}
