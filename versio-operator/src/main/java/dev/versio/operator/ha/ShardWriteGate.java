package dev.versio.operator.ha;

import dev.versio.coordination.gate.ShardGate;
import dev.versio.coordination.shard.ObjectKey;
import dev.versio.operator.write.WriteGate;
import dev.versio.operator.write.WriteStamp;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * The write gate of a replica among several: it may write for a config or server only while it owns
 * the object's shard, and writes under that shard's ownership epoch. The shard key is the object's
 * name (configs and servers are cluster-scoped), so everything written for one config — its status,
 * finalizer, Events, its target's {@code spec.conversion} — and for one server — its status and
 * children — belongs to one shard.
 */
public final class ShardWriteGate implements WriteGate {
  private final ShardGate shards;
  private final String replica;

  public ShardWriteGate(ShardGate shards, String replica) {
    this.shards = Objects.requireNonNull(shards, "shards");
    this.replica = Objects.requireNonNull(replica, "replica");
  }

  /** The shard key of a config or server: {@code name}, or {@code namespace/name}. */
  public static ObjectKey keyOf(HasMetadata object) {
    var meta = object.getMetadata();
    return new ObjectKey(meta.getNamespace() == null ? "" : meta.getNamespace(), meta.getName());
  }

  @Override
  public boolean mayWrite(HasMetadata owner) {
    return shards.owns(keyOf(owner));
  }

  @Override
  public <T> Optional<T> writeAsOwner(HasMetadata owner, Function<WriteStamp, T> write) {
    return shards.writeAsOwner(
        keyOf(owner),
        epoch ->
            Objects.requireNonNull(
                write.apply(new WriteStamp(replica, epoch)), "a write returns a value"));
  }
}
