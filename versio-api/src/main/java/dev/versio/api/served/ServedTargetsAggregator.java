package dev.versio.api.served;

import dev.versio.api.served.ServedTargetsCodec.Decoded;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Folds the served-target Leases of every webhook-server replica into one {@link ServedView} per
 * server. A replica is live while this process has seen its part-0 Lease renewed within its {@code
 * leaseDurationSeconds} (three heartbeats): liveness is judged by when <em>this</em> process saw
 * {@code renewTime} change, never by comparing the remote timestamp with the local clock. Pure
 * apart from the injected clock; thread-safe.
 */
public final class ServedTargetsAggregator {
  /** The default when a Lease does not say how long it lasts: three 30 s heartbeats. */
  static final Duration DEFAULT_LEASE = Duration.ofSeconds(90);

  private final Clock clock;

  /** Every part by namespace/name. */
  private final Map<String, Lease> leases = new HashMap<>();

  /** Per replica (namespace/pod): the last part-0 renewTime seen, and when it was seen. */
  private final Map<String, Seen> renewals = new HashMap<>();

  private record Seen(String renewTime, Instant at) {}

  /** The last decode per replica, reused while its parts' contents are the same. */
  private final Map<String, Decodes> decodes = new HashMap<>();

  private record Decodes(List<String> fingerprint, Decoded decoded) {}

  /**
   * The last decode of each replica's report of reviews per version, reused while it is the same.
   */
  private final Map<String, SeenDecode> seenDecodes = new HashMap<>();

  private record SeenDecode(
      String text, String since, java.util.Optional<VersionsSeenCodec.Seen> seen) {}

  public ServedTargetsAggregator(Clock clock) {
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** A Lease was added or updated. Returns the server it belongs to, or null if none. */
  public synchronized String observe(Lease lease) {
    var server = label(lease, ServedTargetsCodec.SERVER_LABEL);
    var replica = replicaKey(lease);
    if (server == null || replica == null) {
      return null;
    }
    leases.put(key(lease), lease);
    if (isPartZero(lease)) {
      var renewTime =
          lease.getSpec() == null ? null : String.valueOf(lease.getSpec().getRenewTime());
      var last = renewals.get(replica);
      if (last == null || !last.renewTime().equals(renewTime)) {
        renewals.put(replica, new Seen(renewTime, clock.instant()));
      }
    }
    return server;
  }

  /** A Lease was deleted. Returns the server it belonged to, or null. */
  public synchronized String forget(Lease lease) {
    leases.remove(key(lease));
    var replica = replicaKey(lease);
    if (replica != null && isPartZero(lease)) {
      renewals.remove(replica);
      decodes.remove(replica);
      seenDecodes.remove(replica);
    }
    return label(lease, ServedTargetsCodec.SERVER_LABEL);
  }

  /** Every server some Lease names. */
  public synchronized List<String> servers() {
    var out = new TreeSet<String>();
    for (var lease : leases.values()) {
      var server = label(lease, ServedTargetsCodec.SERVER_LABEL);
      if (server != null) {
        out.add(server);
      }
    }
    return List.copyOf(out);
  }

  /** The view of {@code server} now. */
  public synchronized ServedView view(String server) {
    var now = clock.instant();
    // the parts of each replica of this server
    var byReplica = new TreeMap<String, List<Lease>>();
    for (var lease : leases.values()) {
      if (server.equals(label(lease, ServedTargetsCodec.SERVER_LABEL))) {
        byReplica.computeIfAbsent(replicaKey(lease), k -> new ArrayList<>()).add(lease);
      }
    }
    TreeSet<String> intersection = null;
    int reporting = 0;
    var unreadable = new ArrayList<String>();
    for (var entry : byReplica.entrySet()) {
      var parts = entry.getValue();
      var zero = parts.stream().filter(ServedTargetsAggregator::isPartZero).findFirst();
      if (zero.isEmpty() || !live(entry.getKey(), zero.get(), now)) {
        continue; // not live: neither counted nor blocking
      }
      var decoded =
          ServedTargetsCodec.decode(
              parts.stream()
                  .map(
                      l ->
                          l.getMetadata().getAnnotations() == null
                              ? Map.<String, String>of()
                              : l.getMetadata().getAnnotations())
                  .toList());
      switch (decoded) {
        case Decoded.Readable readable -> {
          reporting++;
          if (intersection == null) {
            intersection = new TreeSet<>(readable.targets());
          } else {
            intersection.retainAll(readable.targets());
          }
        }
        case Decoded.Unreadable bad -> unreadable.add(entry.getKey() + ": " + bad.reason());
      }
    }
    return new ServedView(
        intersection == null ? List.of() : List.copyOf(intersection), reporting, unreadable);
  }

  /**
   * A live replica others may forward reviews to.
   *
   * @param replica namespace/pod
   * @param server the ConversionWebhookServer it belongs to
   * @param address {@code host:port} of its conversion listener
   */
  public record Peer(String replica, String server, String address) {
    public Peer {
      Objects.requireNonNull(replica, "replica");
      Objects.requireNonNull(server, "server");
      Objects.requireNonNull(address, "address");
    }
  }

  /**
   * Every target some live, readable replica with a {@linkplain ServedTargetsCodec#PEER_ADDRESS
   * peer address} serves, with those replicas (sorted by replica). Replicas whose report cannot be
   * read, or which publish no address, are left out: a review is never sent where no one knows it
   * will be converted.
   */
  public synchronized Map<String, List<Peer>> holders() {
    var now = clock.instant();
    var byReplica = partsByReplica();
    var out = new TreeMap<String, List<Peer>>();
    for (var entry : byReplica.entrySet()) {
      var zero = entry.getValue().stream().filter(ServedTargetsAggregator::isPartZero).findFirst();
      if (zero.isEmpty() || !live(entry.getKey(), zero.get(), now)) {
        continue;
      }
      var address = annotation(zero.get(), ServedTargetsCodec.PEER_ADDRESS);
      if (address == null || address.isBlank()) {
        continue;
      }
      if (decode(entry.getKey(), entry.getValue()) instanceof Decoded.Readable readable) {
        var peer =
            new Peer(
                entry.getKey(),
                label(zero.get(), ServedTargetsCodec.SERVER_LABEL),
                address.strip());
        for (var target : readable.targets()) {
          out.computeIfAbsent(target, t -> new ArrayList<>()).add(peer);
        }
      }
    }
    out.replaceAll((t, peers) -> List.copyOf(peers));
    return out;
  }

  /**
   * The live replicas (namespace/pod, sorted) of {@code servers} that publish no {@linkplain
   * ServedTargetsCodec#PEER_ADDRESS peer address}: behind a front, each of them would answer a
   * review for a target it does not hold instead of forwarding it.
   */
  public synchronized List<String> liveWithoutPeerAddress(java.util.Set<String> servers) {
    var now = clock.instant();
    var out = new TreeSet<String>();
    for (var lease : leases.values()) {
      var replica = replicaKey(lease);
      if (replica != null
          && servers.contains(label(lease, ServedTargetsCodec.SERVER_LABEL))
          && isPartZero(lease)
          && live(replica, lease, now)) {
        var address = annotation(lease, ServedTargetsCodec.PEER_ADDRESS);
        if (address == null || address.isBlank()) {
          out.add(replica);
        }
      }
    }
    return List.copyOf(out);
  }

  /** Every replica's Lease parts (namespace/pod, sorted), of replicas that name a server. */
  private TreeMap<String, List<Lease>> partsByReplica() {
    var byReplica = new TreeMap<String, List<Lease>>();
    for (var lease : leases.values()) {
      var replica = replicaKey(lease);
      if (replica != null && label(lease, ServedTargetsCodec.SERVER_LABEL) != null) {
        byReplica.computeIfAbsent(replica, k -> new ArrayList<>()).add(lease);
      }
    }
    return byReplica;
  }

  private static String annotation(Lease lease, String name) {
    var annotations = lease.getMetadata().getAnnotations();
    return annotations == null ? null : annotations.get(name);
  }

  /**
   * What the live replicas that serve {@code target} (readably) report of reviews per version;
   * empty when none publishes a {@linkplain VersionsSeenCodec report}, not complete unless every
   * one of them does and covers the target.
   */
  public synchronized java.util.Optional<VersionUse> versionUse(String target) {
    var now = clock.instant();
    var byReplica = partsByReplica();
    var reports = new ArrayList<VersionsSeenCodec.Seen>();
    int serving = 0;
    for (var entry : byReplica.entrySet()) {
      var zero = entry.getValue().stream().filter(ServedTargetsAggregator::isPartZero).findFirst();
      if (zero.isEmpty()
          || !live(entry.getKey(), zero.get(), now)
          || !(decode(entry.getKey(), entry.getValue()) instanceof Decoded.Readable readable)
          || !readable.targets().contains(target)) {
        continue;
      }
      serving++;
      seen(entry.getKey(), zero.get()).ifPresent(reports::add);
    }
    return VersionUse.of(target, reports, serving);
  }

  /** A replica's report of reviews per version, decoded once per change of its text. */
  private java.util.Optional<VersionsSeenCodec.Seen> seen(String replica, Lease zero) {
    var annotations = zero.getMetadata().getAnnotations();
    if (annotations == null || !annotations.containsKey(VersionsSeenCodec.SINCE)) {
      return java.util.Optional.empty();
    }
    var text = annotations.getOrDefault(VersionsSeenCodec.SEEN, "");
    var since = annotations.get(VersionsSeenCodec.SINCE);
    var last = seenDecodes.get(replica);
    if (last != null && last.text().equals(text) && last.since().equals(since)) {
      return last.seen();
    }
    var decoded = VersionsSeenCodec.decode(annotations);
    seenDecodes.put(replica, new SeenDecode(text, since, decoded));
    return decoded;
  }

  /** The names of the live replicas of {@code server} (namespace/pod), sorted. */
  public synchronized List<String> liveReplicas(String server) {
    var now = clock.instant();
    var out = new TreeSet<String>();
    for (var lease : leases.values()) {
      if (server.equals(label(lease, ServedTargetsCodec.SERVER_LABEL))
          && isPartZero(lease)
          && live(replicaKey(lease), lease, now)) {
        out.add(replicaKey(lease));
      }
    }
    return List.copyOf(out);
  }

  private Decoded decode(String replica, List<Lease> parts) {
    var annotations =
        parts.stream()
            .sorted(java.util.Comparator.comparing(l -> l.getMetadata().getName()))
            .map(
                l ->
                    l.getMetadata().getAnnotations() == null
                        ? Map.<String, String>of()
                        : l.getMetadata().getAnnotations())
            .toList();
    var fingerprint = new ArrayList<String>();
    for (var a : annotations) {
      var text = a.get(ServedTargetsCodec.TARGETS);
      fingerprint.add(
          a.get(ServedTargetsCodec.PART)
              + "|"
              + a.get(ServedTargetsCodec.DIGEST)
              + "|"
              + a.get(ServedTargetsCodec.COUNT)
              + "|"
              + (text == null ? "-" : text.length() + ":" + text.hashCode()));
    }
    var last = decodes.get(replica);
    if (last != null && last.fingerprint().equals(fingerprint)) {
      return last.decoded();
    }
    var decoded = ServedTargetsCodec.decode(annotations);
    decodes.put(replica, new Decodes(List.copyOf(fingerprint), decoded));
    return decoded;
  }

  private boolean live(String replica, Lease zero, Instant now) {
    var seen = renewals.get(replica);
    if (seen == null) {
      return false;
    }
    var seconds = zero.getSpec() == null ? null : zero.getSpec().getLeaseDurationSeconds();
    var duration = seconds == null || seconds < 1 ? DEFAULT_LEASE : Duration.ofSeconds(seconds);
    return !now.isAfter(seen.at().plus(duration));
  }

  /** The earliest moment a live replica of any server stops being live unless renewed. */
  public synchronized Duration untilNextExpiry() {
    var now = clock.instant();
    Duration soonest = DEFAULT_LEASE;
    for (var lease : leases.values()) {
      if (!isPartZero(lease)) {
        continue;
      }
      var seen = renewals.get(replicaKey(lease));
      if (seen == null) {
        continue;
      }
      var seconds = lease.getSpec() == null ? null : lease.getSpec().getLeaseDurationSeconds();
      var duration = seconds == null || seconds < 1 ? DEFAULT_LEASE : Duration.ofSeconds(seconds);
      var left = Duration.between(now, seen.at().plus(duration));
      if (!left.isNegative() && left.compareTo(soonest) < 0) {
        soonest = left;
      }
    }
    return soonest;
  }

  private static boolean isPartZero(Lease lease) {
    var part =
        lease.getMetadata().getAnnotations() == null
            ? null
            : lease.getMetadata().getAnnotations().get(ServedTargetsCodec.PART);
    return part == null || part.startsWith("0/");
  }

  private static String replicaKey(Lease lease) {
    var replica = label(lease, ServedTargetsCodec.REPLICA_LABEL);
    return replica == null ? null : lease.getMetadata().getNamespace() + "/" + replica;
  }

  private static String key(Lease lease) {
    return lease.getMetadata().getNamespace() + "/" + lease.getMetadata().getName();
  }

  private static String label(Lease lease, String name) {
    var labels = lease.getMetadata().getLabels();
    return labels == null ? null : labels.get(name);
  }
}
