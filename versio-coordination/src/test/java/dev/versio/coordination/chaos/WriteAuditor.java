package dev.versio.coordination.chaos;

import dev.versio.coordination.shard.ObjectKey;
import dev.versio.coordination.shard.ShardFunction;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Watches every Lease and ConfigMap write of the harness and checks, in the apiserver's own order
 * (resourceVersion is the etcd revision, one sequence for all objects), that every owner annotation
 * written to a ConfigMap names the replica and epoch that held the key's shard at that revision,
 * and that the holder had not been fenced.
 */
final class WriteAuditor implements AutoCloseable {
  private static final String PREFIX = DemoWorker.GROUP + "-shard-";
  private static final String MEMBER_PREFIX = DemoWorker.GROUP + "-member-";

  /** One observed event, stamped with the local receive time. */
  record Event(long revision, long receivedNanos, Watcher.Action action, HasMetadata object) {}

  /** A holder as a shard Lease names it. */
  record Holder(String id, long epoch, String incarnation) {}

  /** The last owner annotation written to a key, and when it was seen. */
  record OwnerWrite(String owner, long epoch, long receivedNanos) {}

  private final ShardFunction shards;
  private final List<Event> events = new ArrayList<>();
  private final Map<Integer, Holder> holders = new TreeMap<>();
  private final Map<Integer, Long> heldSince = new HashMap<>();
  private final Map<String, OwnerWrite> lastWrite = new HashMap<>();
  private final List<Watch> watches = new ArrayList<>();
  private volatile String broken;
  private long leaseUpdates;
  private long lastLeaseRevision;
  private long lastConfigMapRevision;

  WriteAuditor(KubernetesClient client, String namespace, ShardFunction shards) {
    this.shards = shards;
    watches.add(
        client
            .leases()
            .inNamespace(namespace)
            .withLabel("versio.dev/lease-group", DemoWorker.GROUP)
            .watch(new Recorder<>()));
    watches.add(
        client
            .configMaps()
            .inNamespace(namespace)
            .withLabel(DemoWorker.LABEL)
            .watch(new Recorder<>()));
  }

  synchronized Map<Integer, Holder> holders() {
    return new TreeMap<>(holders);
  }

  /** When the current holder of {@code shard} was first seen holding it (local nanos). */
  synchronized long heldSince(int shard) {
    return heldSince.getOrDefault(shard, Long.MAX_VALUE);
  }

  synchronized Optional<OwnerWrite> lastWrite(ObjectKey key) {
    return Optional.ofNullable(lastWrite.get(key.text()));
  }

  synchronized long leaseUpdates() {
    return leaseUpdates;
  }

  Optional<String> broken() {
    return Optional.ofNullable(broken);
  }

  /** Every write that did not come from the holder of the key's shard at that revision. */
  synchronized List<String> violations() {
    var ordered = new ArrayList<>(events);
    ordered.sort(Comparator.comparingLong(Event::revision));
    var replayHolders = new HashMap<Integer, Holder>();
    var fenced = new java.util.HashSet<String>(); // "<id>/<incarnation>" ever fenced
    long cutoff = Math.min(lastLeaseRevision, lastConfigMapRevision);
    var owners = new HashMap<String, String>();
    var violations = new ArrayList<String>();
    int writes = 0;
    for (var event : ordered) {
      if (event.revision() > cutoff) {
        break; // the other stream may not have delivered everything before this revision yet
      }
      switch (event.object()) {
        case Lease lease -> {
          var name = lease.getMetadata().getName();
          if (name.startsWith(PREFIX)) {
            replayHolders.put(Integer.parseInt(name.substring(PREFIX.length())), holderOf(lease));
          } else if (name.startsWith(MEMBER_PREFIX)) {
            if (!annotation(lease, "versio.dev/fenced-by").isEmpty()) {
              fenced.add(
                  lease.getSpec().getHolderIdentity()
                      + "/"
                      + annotation(lease, "versio.dev/incarnation"));
            }
          }
        }
        case ConfigMap cm -> {
          if (event.action() == Watcher.Action.DELETED) {
            continue;
          }
          var key = DemoWorker.keyOf(cm);
          var owner = DemoWorker.annotations(cm).get(DemoWorker.OWNER);
          var before = owners.put(key.text(), owner);
          if (owner == null || owner.equals(before)) {
            continue;
          }
          writes++;
          var parts = owner.split("/");
          var shard = shards.shardOf(key);
          var holder = replayHolders.get(shard);
          boolean ok =
              holder != null
                  && holder.id().equals(parts[0])
                  && holder.epoch() == Long.parseLong(parts[1])
                  && !fenced.contains(holder.id() + "/" + holder.incarnation());
          if (!ok) {
            violations.add(
                "revision "
                    + event.revision()
                    + ": "
                    + key
                    + " written by "
                    + owner
                    + " while shard "
                    + shard
                    + " was held by "
                    + holder
                    + (holder != null && fenced.contains(holder.id() + "/" + holder.incarnation())
                        ? " (fenced)"
                        : ""));
          }
        }
        default -> {}
      }
    }
    if (writes == 0) {
      violations.add("no owner write was observed at all: the audit saw nothing to check");
    }
    return violations;
  }

  synchronized int ownerWrites() {
    return (int)
        events.stream()
            .filter(e -> e.object() instanceof ConfigMap && e.action() != Watcher.Action.DELETED)
            .count();
  }

  /**
   * Waits until both watches have delivered everything written so far: touches a marker Lease and a
   * marker ConfigMap and waits for both events. Call it with the workers stopped (they would
   * reconcile the marker ConfigMap).
   */
  void sync(KubernetesClient client, String namespace) throws InterruptedException {
    var lease =
        client
            .leases()
            .inNamespace(namespace)
            .resource(
                new io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder()
                    .withNewMetadata()
                    .withName("audit-marker")
                    .addToLabels("versio.dev/lease-group", DemoWorker.GROUP)
                    .addToLabels("versio.dev/lease-role", "marker")
                    .addToAnnotations("tick", Long.toString(System.nanoTime()))
                    .endMetadata()
                    .build())
            .serverSideApply();
    var cm =
        client
            .configMaps()
            .inNamespace(namespace)
            .resource(
                new io.fabric8.kubernetes.api.model.ConfigMapBuilder()
                    .withNewMetadata()
                    .withName("audit-marker")
                    .addToLabels(DemoWorker.LABEL, "marker")
                    .endMetadata()
                    .addToData("tick", Long.toString(System.nanoTime()))
                    .build())
            .serverSideApply();
    long leaseRevision = Long.parseLong(lease.getMetadata().getResourceVersion());
    long cmRevision = Long.parseLong(cm.getMetadata().getResourceVersion());
    long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(20);
    while (true) {
      synchronized (this) {
        if (lastLeaseRevision >= leaseRevision && lastConfigMapRevision >= cmRevision) {
          return;
        }
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("the audit's watches did not catch up within 20 s");
      }
      Thread.sleep(20); // polling the watch streams
    }
  }

  @Override
  public void close() {
    watches.forEach(Watch::close);
  }

  private synchronized void record(Watcher.Action action, HasMetadata object) {
    var event =
        new Event(
            Long.parseLong(object.getMetadata().getResourceVersion()),
            System.nanoTime(),
            action,
            object);
    events.add(event);
    switch (object) {
      case Lease lease -> {
        lastLeaseRevision = Math.max(lastLeaseRevision, event.revision());
        if (action == Watcher.Action.MODIFIED) {
          leaseUpdates++;
        }
        var name = lease.getMetadata().getName();
        if (name.startsWith(PREFIX)) {
          int shard = Integer.parseInt(name.substring(PREFIX.length()));
          var holder = holderOf(lease);
          var before = holders.put(shard, holder);
          if (before == null
              || before.epoch() != holder.epoch()
              || !before.id().equals(holder.id())) {
            heldSince.put(shard, event.receivedNanos());
          }
        }
      }
      case ConfigMap cm -> {
        lastConfigMapRevision = Math.max(lastConfigMapRevision, event.revision());
        var owner = DemoWorker.annotations(cm).get(DemoWorker.OWNER);
        var key = DemoWorker.keyOf(cm).text();
        var last = lastWrite.get(key);
        if (owner != null && (last == null || !(last.owner() + "/" + last.epoch()).equals(owner))) {
          var parts = owner.split("/");
          lastWrite.put(
              key, new OwnerWrite(parts[0], Long.parseLong(parts[1]), event.receivedNanos()));
        }
      }
      default -> {}
    }
  }

  private static Holder holderOf(Lease lease) {
    var spec = lease.getSpec();
    var id = spec.getHolderIdentity() == null ? "" : spec.getHolderIdentity();
    var epoch = spec.getLeaseTransitions() == null ? 0 : spec.getLeaseTransitions();
    return new Holder(id, epoch, annotation(lease, "versio.dev/incarnation"));
  }

  private static String annotation(HasMetadata object, String key) {
    var a = object.getMetadata().getAnnotations();
    var v = a == null ? null : a.get(key);
    return v == null ? "" : v;
  }

  private final class Recorder<T extends HasMetadata> implements Watcher<T> {
    @Override
    public void eventReceived(Action action, T resource) {
      record(action, resource);
    }

    @Override
    public void onClose(WatcherException cause) {
      broken = "a watch of the audit closed: " + cause.getMessage();
    }
  }
}
