package dev.versio.operator.chaos;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.function.ToIntFunction;

/**
 * Replays shard Leases and stamped writes in etcd revision order (resourceVersion: one sequence for
 * all objects) and reports every write whose stamp {@code <replica>/<epoch>} does not name the
 * holder and epoch of the written object's shard at that revision, or names a holder whose
 * incarnation had been fenced. Pure: the watches that feed it are {@link ChaosAudit}'s.
 */
public final class StampAudit {
  /** Something the audit replays. */
  public sealed interface Entry {
    long revision();
  }

  /** A shard Lease as written: its holder, epoch ({@code leaseTransitions}) and incarnation. */
  public record ShardLease(long revision, int shard, String holder, long epoch, String incarnation)
      implements Entry {}

  /** A member Lease fenced by another replica: that incarnation may never write again. */
  public record Fenced(long revision, String holder, String incarnation) implements Entry {}

  /** A write the operator stamped: {@code key} is the config or server it was made for. */
  public record StampedWrite(long revision, String key, String what, String stamp)
      implements Entry {}

  private record Holder(String id, long epoch, String incarnation) {}

  private final ToIntFunction<String> shardOf;

  public StampAudit(ToIntFunction<String> shardOf) {
    this.shardOf = shardOf;
  }

  /** Every write by a replica that did not own its object's shard at that epoch and revision. */
  public List<String> violations(List<Entry> entries) {
    var ordered = new ArrayList<>(entries);
    ordered.sort(Comparator.comparingLong(Entry::revision));
    var holders = new HashMap<Integer, Holder>();
    var fenced = new HashSet<String>();
    var violations = new ArrayList<String>();
    int writes = 0;
    for (var entry : ordered) {
      switch (entry) {
        case ShardLease lease ->
            holders.put(
                lease.shard(), new Holder(lease.holder(), lease.epoch(), lease.incarnation()));
        case Fenced f -> fenced.add(f.holder() + "/" + f.incarnation());
        case StampedWrite write -> {
          writes++;
          int slash = write.stamp().lastIndexOf('/');
          var replica = slash < 0 ? write.stamp() : write.stamp().substring(0, slash);
          var epoch = slash < 0 ? "" : write.stamp().substring(slash + 1);
          int shard = shardOf.applyAsInt(write.key());
          var holder = holders.get(shard);
          boolean ok =
              holder != null
                  && holder.id().equals(replica)
                  && Long.toString(holder.epoch()).equals(epoch)
                  && !fenced.contains(holder.id() + "/" + holder.incarnation());
          if (!ok) {
            violations.add(
                "revision "
                    + write.revision()
                    + ": "
                    + write.what()
                    + " of "
                    + write.key()
                    + " written as "
                    + write.stamp()
                    + " while shard "
                    + shard
                    + " was held by "
                    + (holder == null ? "nobody" : holder.id() + "/" + holder.epoch())
                    + (holder != null && fenced.contains(holder.id() + "/" + holder.incarnation())
                        ? " (fenced)"
                        : ""));
          }
        }
      }
    }
    if (writes == 0) {
      violations.add("no stamped write was observed at all: the audit saw nothing to check");
    }
    return violations;
  }
}
