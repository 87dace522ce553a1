package dev.versio.operator.chaos;

import dev.versio.api.config.CRDConversionConfig;
import dev.versio.operator.write.WriteStamp;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.ToIntFunction;

/**
 * Watches the operator's Leases, the CRDConversionConfigs and the CRDs of a chaos run and turns
 * what it sees into {@link StampAudit} entries: shard Lease holders, fenced members, and every
 * operator write — a config's status (status.writtenBy), a config's finalizer change and a target's
 * {@code spec.conversion} ({@code versio.dev/written-by}). Also keeps what the run measures: the
 * current holder of every shard and when each config's status last changed.
 */
public final class ChaosAudit implements AutoCloseable {
  private static final String SHARD = "versio-operator-shard-";
  private static final String MEMBER = "versio-operator-member-";

  /** The last status a config was seen with, and when (local nanos). */
  public record SeenStatus(long observedGeneration, String writtenBy, String phase, long nanos) {}

  private final ToIntFunction<String> shardOf;
  private final Map<String, String> configOfTarget;
  private final List<StampAudit.Entry> entries = new ArrayList<>();
  private final Map<Integer, String> holders = new TreeMap<>();
  private final Map<String, String> lastStatus = new HashMap<>();
  private final Map<String, String> lastStamp = new HashMap<>();
  private final Map<String, SeenStatus> seen = new HashMap<>();
  private final List<Watch> watches = new ArrayList<>();
  private final long[] lastRevision = new long[3];
  private volatile String broken;

  /**
   * @param configOfTarget the config of each target CRD, by CRD name
   */
  public ChaosAudit(
      KubernetesClient client,
      String namespace,
      ToIntFunction<String> shardOf,
      Map<String, String> configOfTarget) {
    this.shardOf = shardOf;
    this.configOfTarget = Map.copyOf(configOfTarget);
    watches.add(
        client
            .leases()
            .inNamespace(namespace)
            .withLabel("versio.dev/lease-group", "versio-operator")
            .watch(new Recorder<>(0)));
    watches.add(client.resources(CRDConversionConfig.class).watch(new Recorder<>(1)));
    watches.add(client.apiextensions().v1().customResourceDefinitions().watch(new Recorder<>(2)));
  }

  /** The violations so far (call {@link #sync} first). */
  public synchronized List<String> violations() {
    return new StampAudit(shardOf).violations(entries);
  }

  public synchronized long stampedWrites() {
    return entries.stream().filter(e -> e instanceof StampAudit.StampedWrite).count();
  }

  /** The holder of every shard now, as the shard Leases say ("" = released). */
  public synchronized Map<Integer, String> holders() {
    return new TreeMap<>(holders);
  }

  public synchronized Optional<SeenStatus> seen(String config) {
    return Optional.ofNullable(seen.get(config));
  }

  public Optional<String> broken() {
    return Optional.ofNullable(broken);
  }

  /**
   * Waits until every watch delivered everything up to {@code revision} (e.g. of a marker write
   * made after the replicas stopped).
   */
  public void awaitRevision(long leases, long configs, long crds) throws InterruptedException {
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (true) {
      synchronized (this) {
        if (lastRevision[0] >= leases && lastRevision[1] >= configs && lastRevision[2] >= crds) {
          return;
        }
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("the audit's watches did not catch up within 30 s");
      }
      Thread.sleep(20); // polling the watch streams
    }
  }

  @Override
  public void close() {
    watches.forEach(Watch::close);
  }

  private synchronized void record(int stream, Watcher.Action action, HasMetadata object) {
    long revision = Long.parseLong(object.getMetadata().getResourceVersion());
    lastRevision[stream] = Math.max(lastRevision[stream], revision);
    if (action == Watcher.Action.DELETED) {
      return;
    }
    var name = object.getMetadata().getName();
    switch (object) {
      case Lease lease -> {
        var spec = lease.getSpec();
        if (name.startsWith(SHARD)) {
          int shard = Integer.parseInt(name.substring(SHARD.length()));
          var holder = spec.getHolderIdentity() == null ? "" : spec.getHolderIdentity();
          long epoch = spec.getLeaseTransitions() == null ? 0 : spec.getLeaseTransitions();
          holders.put(shard, holder);
          entries.add(
              new StampAudit.ShardLease(
                  revision, shard, holder, epoch, annotation(lease, "versio.dev/incarnation")));
        } else if (name.startsWith(MEMBER)
            && !annotation(lease, "versio.dev/fenced-by").isEmpty()) {
          entries.add(
              new StampAudit.Fenced(
                  revision, spec.getHolderIdentity(), annotation(lease, "versio.dev/incarnation")));
        }
      }
      case CRDConversionConfig config -> {
        var status = config.getStatus();
        var statusJson = status == null ? null : Serialization.asJson(status);
        if (status != null && !Objects.equals(statusJson, lastStatus.put(name, statusJson))) {
          seen.put(
              name,
              new SeenStatus(
                  status.observedGeneration == null ? 0 : status.observedGeneration,
                  status.writtenBy,
                  status.phase,
                  System.nanoTime()));
          if (status.writtenBy != null) {
            entries.add(new StampAudit.StampedWrite(revision, name, "status", status.writtenBy));
          }
        }
        stamped(revision, "config/" + name, name, "finalizer", object);
      }
      case CustomResourceDefinition crd -> {
        var config = configOfTarget.get(name);
        if (config != null) {
          // only the operator points a target at a webhook: every such change is its write
          var conversion = crd.getSpec().getConversion();
          var json = conversion == null ? null : Serialization.asJson(conversion);
          boolean changed = !Objects.equals(json, lastStatus.put("crd/" + name, json));
          var stamp = annotation(object, WriteStamp.ANNOTATION);
          if (changed
              && conversion != null
              && "Webhook".equals(conversion.getStrategy())
              && !stamp.isEmpty()) {
            lastStamp.put("crd/" + name, stamp);
            entries.add(new StampAudit.StampedWrite(revision, config, "target", stamp));
          } else {
            stamped(revision, "crd/" + name, config, "target", object);
          }
        }
      }
      default -> {}
    }
  }

  /** A change of the written-by annotation is one stamped write. */
  private void stamped(long revision, String id, String key, String what, HasMetadata object) {
    var stamp = annotation(object, WriteStamp.ANNOTATION);
    if (!stamp.isEmpty() && !stamp.equals(lastStamp.put(id, stamp))) {
      entries.add(new StampAudit.StampedWrite(revision, key, what, stamp));
    }
  }

  private static String annotation(HasMetadata object, String key) {
    var annotations = object.getMetadata().getAnnotations();
    var value = annotations == null ? null : annotations.get(key);
    return value == null ? "" : value;
  }

  private final class Recorder<T extends HasMetadata> implements Watcher<T> {
    private final int stream;

    Recorder(int stream) {
      this.stream = stream;
    }

    @Override
    public void eventReceived(Action action, T resource) {
      record(stream, action, resource);
    }

    @Override
    public void onClose(WatcherException cause) {
      broken = "a watch of the audit closed: " + cause.getMessage();
    }
  }
}
