package dev.versio.webhook.served;

import dev.versio.api.served.ServedTargetsCodec;
import dev.versio.webhook.registry.RegistryEntry;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes the targets this replica holds a servable plan for (not error placeholders) into its
 * Leases, so the operator can see which replicas are ready to take a target before pointing the
 * target at them. Republished at once on every change of the set, renewed every heartbeat, deleted
 * on a clean stop. Needs only get, create, update and delete on Leases in its namespace. A failed
 * write is logged and retried at the next heartbeat; conversions never wait for it.
 */
public final class ServedTargetsPublisher implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ServedTargetsPublisher.class);

  private final KubernetesClient client;
  private final ReplicaIdentity identity;
  private final String server;
  private final Clock clock;
  private final Duration heartbeat;
  private final ScheduledExecutorService executor;
  private final String peerAddress;
  private final java.util.function.Supplier<Map<String, String>> report;
  private final Object lock = new Object();
  private SortedSet<String> desired = new TreeSet<>();
  private SortedSet<String> written;
  private int writtenParts;
  private boolean closed;
  private boolean started;

  public ServedTargetsPublisher(
      KubernetesClient client,
      ReplicaIdentity identity,
      String server,
      Clock clock,
      Duration heartbeat) {
    this(client, identity, server, clock, heartbeat, null);
  }

  /**
   * As above; {@code peerAddress} (null: none) is published on part 0 for the replicas behind the
   * front to forward reviews to.
   */
  public ServedTargetsPublisher(
      KubernetesClient client,
      ReplicaIdentity identity,
      String server,
      Clock clock,
      Duration heartbeat,
      String peerAddress) {
    this(client, identity, server, clock, heartbeat, peerAddress, Map::of);
  }

  /**
   * As above; {@code report} gives annotations published on part 0 with every write and renewal
   * (what reviews this replica saw, {@link dev.versio.api.served.VersionsSeenCodec}).
   */
  public ServedTargetsPublisher(
      KubernetesClient client,
      ReplicaIdentity identity,
      String server,
      Clock clock,
      Duration heartbeat,
      String peerAddress,
      java.util.function.Supplier<Map<String, String>> report) {
    this.report = Objects.requireNonNull(report, "report");
    this.peerAddress = peerAddress;
    this.client = Objects.requireNonNull(client, "client");
    this.identity = Objects.requireNonNull(identity, "identity");
    this.server = Objects.requireNonNull(server, "server");
    this.clock = Objects.requireNonNull(clock, "clock");
    if (heartbeat.isNegative() || heartbeat.isZero()) {
      throw new IllegalArgumentException("the served-targets heartbeat must be positive");
    }
    this.heartbeat = heartbeat;
    this.executor =
        Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().name("served-targets").daemon().factory());
  }

  /** Publishes the current set now and renews it every heartbeat. */
  public void start(Map<String, RegistryEntry> snapshot) {
    synchronized (lock) {
      desired = servable(snapshot);
      started = true;
    }
    executor.execute(this::removeStaleParts);
    executor.execute(this::publish);
    executor.scheduleAtFixedRate(
        this::renew, heartbeat.toMillis(), heartbeat.toMillis(), TimeUnit.MILLISECONDS);
  }

  /**
   * The registry changed: republish at once when the servable set did. Ignored before {@link
   * #start} (a replica that is not serving yet reports nothing). Never blocks.
   */
  public void changed(Map<String, RegistryEntry> snapshot) {
    var next = servable(snapshot);
    synchronized (lock) {
      if (!started || closed || next.equals(desired)) {
        return;
      }
      desired = next;
    }
    executor.execute(this::publish);
  }

  /** The targets a snapshot can serve, sorted. */
  static SortedSet<String> servable(Map<String, RegistryEntry> snapshot) {
    var out = new TreeSet<String>();
    snapshot.forEach(
        (target, entry) -> {
          if (entry.servable()) {
            out.add(target);
          }
        });
    return out;
  }

  private void publish() {
    SortedSet<String> set;
    synchronized (lock) {
      if (closed || desired.equals(written)) {
        return;
      }
      set = desired;
    }
    try {
      var parts = ServedTargetsCodec.encode(set);
      var now =
          ZonedDateTime.now(clock)
              .withZoneSameInstant(ZoneOffset.UTC)
              .truncatedTo(ChronoUnit.MICROS);
      // the numbered parts first, part 0 (the one the operator times) last: a reader that sees the
      // new part 0 also finds the parts it names
      for (int i = parts.size() - 1; i >= 0; i--) {
        var annotations = parts.get(i);
        if (i == 0) {
          annotations = new java.util.LinkedHashMap<>(annotations);
          if (peerAddress != null) {
            annotations.put(ServedTargetsCodec.PEER_ADDRESS, peerAddress);
          }
          annotations.putAll(report.get());
        }
        write(identity.leaseName(i), annotations, now);
      }
      for (int i = parts.size(); i < writtenParts; i++) {
        delete(identity.leaseName(i));
      }
      synchronized (lock) {
        written = set;
        writtenParts = parts.size();
      }
      LOG.info(
          "published {} served target(s) in {} Lease(s) {} for server {}",
          set.size(),
          parts.size(),
          identity.leaseName(0),
          server);
    } catch (KubernetesClientException e) {
      LOG.warn(
          "cannot publish the served targets to Lease {}/{} (retried at the next heartbeat): {}",
          identity.namespace(),
          identity.leaseName(0),
          e.getMessage());
    }
  }

  /** The heartbeat: a changed set is published whole, an unchanged one only renews part 0. */
  private void renew() {
    boolean unchanged;
    synchronized (lock) {
      if (closed) {
        return;
      }
      unchanged = desired.equals(written);
    }
    if (!unchanged) {
      publish();
      return;
    }
    try {
      var leases = client.leases().inNamespace(identity.namespace());
      var current = leases.withName(identity.leaseName(0)).get();
      if (current == null) {
        synchronized (lock) {
          written = null; // someone deleted it: write everything again
        }
        publish();
        return;
      }
      var now =
          ZonedDateTime.now(clock)
              .withZoneSameInstant(ZoneOffset.UTC)
              .truncatedTo(ChronoUnit.MICROS);
      leases
          .resource(
              new LeaseBuilder(current)
                  .editMetadata()
                  .removeFromAnnotations(dev.versio.api.served.VersionsSeenCodec.TRUNCATED)
                  .addToAnnotations(report.get())
                  .endMetadata()
                  .editSpec()
                  .withRenewTime(now)
                  .endSpec()
                  .build())
          .update();
    } catch (KubernetesClientException e) {
      LOG.warn(
          "cannot renew Lease {}/{}: {}",
          identity.namespace(),
          identity.leaseName(0),
          e.getMessage());
    }
  }

  private void write(String name, Map<String, String> annotations, ZonedDateTime now) {
    var leases = client.leases().inNamespace(identity.namespace());
    var current = leases.withName(name).get();
    var metadata =
        new io.fabric8.kubernetes.api.model.ObjectMetaBuilder()
            .withName(name)
            .withNamespace(identity.namespace())
            .withLabels(
                Map.of(
                    ServedTargetsCodec.SERVER_LABEL,
                    server,
                    ServedTargetsCodec.REPLICA_LABEL,
                    identity.podName()))
            .withAnnotations(annotations)
            .withOwnerReferences(ownerReferences());
    if (current != null) {
      metadata.withResourceVersion(current.getMetadata().getResourceVersion());
    }
    var lease =
        new LeaseBuilder()
            .withMetadata(metadata.build())
            .withNewSpec()
            .withHolderIdentity(identity.podName())
            .withLeaseDurationSeconds((int) Math.max(1, heartbeat.toSeconds() * 3))
            .withRenewTime(now)
            .endSpec()
            .build();
    if (current == null) {
      leases.resource(lease).create();
    } else {
      leases.resource(lease).update();
    }
  }

  private List<io.fabric8.kubernetes.api.model.OwnerReference> ownerReferences() {
    if (identity.podUid() == null) {
      return List.of();
    }
    return List.of(
        new OwnerReferenceBuilder()
            .withApiVersion("v1")
            .withKind("Pod")
            .withName(identity.podName())
            .withUid(identity.podUid())
            .build());
  }

  /** Parts a previous run of this pod name left beyond part 0 (found without the list verb). */
  private void removeStaleParts() {
    try {
      var leases = client.leases().inNamespace(identity.namespace());
      for (int i = 1; leases.withName(identity.leaseName(i)).get() != null; i++) {
        synchronized (lock) {
          writtenParts = Math.max(writtenParts, i + 1);
        }
      }
    } catch (KubernetesClientException e) {
      LOG.debug("cannot look for stale served-target Leases: {}", e.getMessage());
    }
  }

  private void delete(String name) {
    client.leases().inNamespace(identity.namespace()).withName(name).delete();
  }

  /** Stops renewing and deletes every part, so the operator stops counting this replica at once. */
  @Override
  public void close() {
    int parts;
    synchronized (lock) {
      if (closed) {
        return;
      }
      closed = true;
      parts = Math.max(writtenParts, 1);
    }
    executor.shutdownNow();
    try {
      executor.awaitTermination(5, TimeUnit.SECONDS);
      for (int i = 0; i < parts; i++) {
        delete(identity.leaseName(i));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (KubernetesClientException e) {
      LOG.warn(
          "cannot delete the served-target Leases of {}: {}", identity.podName(), e.getMessage());
    }
  }

  /** The parts as written last, for tests and /debug. */
  List<String> leaseNames() {
    var names = new ArrayList<String>();
    synchronized (lock) {
      for (int i = 0; i < Math.max(writtenParts, 1); i++) {
        names.add(identity.leaseName(i));
      }
    }
    return names;
  }
}
