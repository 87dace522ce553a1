package dev.versio.coordination.kubernetes;

import dev.versio.coordination.core.CoordinationSettings;
import dev.versio.coordination.core.LeaseAction;
import dev.versio.coordination.core.MemberObservations;
import dev.versio.coordination.core.MemberRecord;
import dev.versio.coordination.core.OwnershipPlanner;
import dev.versio.coordination.core.OwnershipView;
import dev.versio.coordination.core.ReplicaOwnership;
import dev.versio.coordination.core.ShardLease;
import dev.versio.coordination.gate.OwnershipListener;
import dev.versio.coordination.gate.ShardGate;
import dev.versio.coordination.shard.ObjectKey;
import dev.versio.coordination.shard.ShardFunction;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Clock;
import java.time.Duration;
import java.time.InstantSource;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.LongFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lease-based shard ownership for one replica, on the Kubernetes Lease API.
 *
 * <p>Runs its own lease loop on its own thread with its own HTTP client (built from the given
 * {@link Config}), so that nothing else the process does (informer relists, reconciles) can delay a
 * renewal. A watch on the group's Leases wakes the loop at once when a member leaves or releases
 * shards; otherwise it wakes when a renewal is due or when another member would expire. Every Lease
 * write is a compare-and-swap on the Lease's resourceVersion. {@link #close()} releases the shards
 * and deletes the member Lease, so that the others take over at once.
 */
public final class LeaseCoordinator implements ShardGate, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(LeaseCoordinator.class);
  private static final Duration SOON = Duration.ofMillis(50);

  private final CoordinationSettings settings;
  private final String namespace;
  private final String replicaId;
  private final Clock wallClock;
  private final InstantSource clock;
  private final CoordinationMetrics metrics;
  private final LeaseNames names;
  private final LeaseCodec codec;
  private final ShardFunction shards;
  private final OwnershipPlanner planner;
  private final ReplicaOwnership ownership;
  private final MemberObservations observations;
  private final KubernetesClient client;
  private final Semaphore wake = new Semaphore(0);
  private final OwnershipNotifier notifier = new OwnershipNotifier();
  private final Thread loop;
  private final ReentrantReadWriteLock writes = new ReentrantReadWriteLock();
  private final CoordinationEvents events;
  private final LeaseWriter writer;
  private final UnownedShards unowned;
  private final MemberLeaseKeeper member;

  private volatile OwnershipView view = OwnershipView.NONE;
  private volatile boolean stopping;
  private volatile Optional<String> refusal = Optional.empty();
  private SharedIndexInformer<Lease> informer;

  /**
   * @param config where the apiserver is; a dedicated client is built from it
   * @param namespace namespace of the Leases
   * @param replicaId unique id of this replica (the pod name)
   * @param settings group parameters, equal on every replica
   * @param wallClock the clock written into {@code renewTime} (informational only)
   * @param clock monotonic time for liveness and deadlines
   * @param metrics where to report
   */
  public LeaseCoordinator(
      Config config,
      String namespace,
      String replicaId,
      CoordinationSettings settings,
      Clock wallClock,
      InstantSource clock,
      CoordinationMetrics metrics) {
    this.settings = settings;
    this.namespace = namespace;
    this.replicaId = LeaseNames.requireValidReplicaId(replicaId);
    this.wallClock = wallClock;
    this.clock = clock;
    this.metrics = metrics;
    this.names = new LeaseNames(settings.group());
    this.codec = new LeaseCodec(names, settings);
    this.shards = new ShardFunction(settings.shardCount());
    this.planner = new OwnershipPlanner(settings);
    this.ownership = new ReplicaOwnership(settings, clock, replicaId, newIncarnation());
    this.observations = new MemberObservations(clock);
    var own = new io.fabric8.kubernetes.client.ConfigBuilder(config).build();
    own.setRequestTimeout((int) Math.min(settings.renewInterval().toMillis(), 5_000));
    own.setRequestRetryBackoffLimit(0);
    this.client = new KubernetesClientBuilder().withConfig(own).build();
    this.events = new CoordinationEvents(client, namespace, replicaId, wallClock);
    this.writer = new LeaseWriter(client, namespace, metrics);
    this.member =
        new MemberLeaseKeeper(
            settings,
            namespace,
            replicaId,
            codec,
            writer,
            metrics,
            wallClock,
            clock,
            observations,
            ownership,
            reason -> {
              var lostShards = new TreeSet<Integer>();
              boolean quiet =
                  stopWriting(() -> lostShards.addAll(ownership.reincarnate(newIncarnation())));
              notifier.lost(lostShards, reason);
              return quiet;
            });
    this.unowned =
        new UnownedShards(
            settings,
            metrics,
            message -> {
              var lease = member.current();
              notifier.background(() -> events.warn(lease, "ShardUnowned", message));
            },
            clock.instant());
    this.loop = Thread.ofPlatform().name("versio-lease-loop").daemon().unstarted(this::run);
  }

  /** Starts watching the group's Leases and the lease loop. */
  public void start() {
    informer =
        client
            .leases()
            .inNamespace(namespace)
            .withLabel(LeaseNames.GROUP_LABEL, settings.group())
            .inform(new WakeOnChange(), 0);
    loop.start();
  }

  @Override
  public OptionalLong ownershipEpoch(ObjectKey key) {
    return view.epochAt(shards.shardOf(key), clock.instant());
  }

  @Override
  public <T> Optional<T> writeAsOwner(ObjectKey key, LongFunction<T> write) {
    var shared = writes.readLock();
    shared.lock();
    try {
      var epoch = ownershipEpoch(key);
      return epoch.isPresent()
          ? Optional.ofNullable(write.apply(epoch.getAsLong()))
          : Optional.empty();
    } finally {
      shared.unlock();
    }
  }

  @Override
  public int shardOf(ObjectKey key) {
    return shards.shardOf(key);
  }

  @Override
  public void addListener(OwnershipListener listener) {
    notifier.add(listener);
  }

  /**
   * Annotations (keys under {@code versio.dev/}) this replica publishes on its member Lease with
   * every renewal — no extra writes — e.g. its resync backlog, for {@code versio status
   * --operator}.
   */
  public void publishWithRenewals(java.util.function.Supplier<Map<String, String>> status) {
    codec.publishWithRenewals(status);
  }

  /** Shards held now with their epochs (for status pages and tests). */
  public Map<Integer, Long> ownedShards() {
    var current = view;
    return clock.instant().isBefore(current.permittedUntil()) ? current.epochs() : Map.of();
  }

  /** Why this replica takes no shards, if it disagrees with the group's sharding. */
  public Optional<String> refusal() {
    return refusal;
  }

  /** Planned stop: stop writing, release every shard and the member Lease, then stop the loop. */
  @Override
  public void close() {
    stopping = true;
    wake.release();
    try {
      loop.join(settings.leaseDuration().toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (loop.isAlive()) {
      LOG.warn(
          "the planned stop did not finish within {}; the others take over when the Leases expire",
          settings.leaseDuration());
    }
    if (informer != null) {
      informer.close();
    }
    notifier.close();
    writer.close();
    client.close();
  }

  private void run() {
    while (!stopping) {
      Duration next;
      try {
        next = tick();
      } catch (RuntimeException e) {
        LOG.warn("lease loop round failed; retrying in {}", settings.retryInterval(), e);
        next = settings.retryInterval();
      }
      try {
        wake.tryAcquire(Math.max(1, next.toMillis()), TimeUnit.MILLISECONDS);
        wake.drainPermits();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    releaseEverything();
  }

  private Duration tick() {
    var now = clock.instant();
    var expired = ownership.enforceDeadline();
    if (!expired.isEmpty()) {
      publish();
      notifier.lost(expired, "renewal not confirmed within the renew deadline");
    }
    var leases = informer.getStore().list();
    var members = new ArrayList<MemberRecord>();
    var shardLeases = new TreeMap<Integer, ShardLease>();
    var byName = new HashMap<String, Lease>();
    for (var lease : leases) {
      byName.put(lease.getMetadata().getName(), lease);
      if (LeaseCodec.isMember(lease)) {
        codec.member(lease).ifPresent(members::add);
      } else if (LeaseCodec.isShard(lease)) {
        codec.shard(lease).ifPresent(s -> shardLeases.put(s.shard(), s));
      }
    }
    observations.observe(members);
    if (member.due()) {
      member.renew();
      if (ownership.takeResumed()) {
        publish(); // the gate must answer yes before the listeners resync, or it refuses again
        notifier.resumed(ownership.owned());
      }
    }
    Duration next = member.untilDue();
    if (member.current() != null) {
      var self = codec.member(member.current()).orElseThrow();
      var plan = planner.plan(self, ownership, observations, shardLeases);
      reportRefusal(plan.refusal());
      var dropped = new TreeSet<Integer>();
      for (int shard : Set.copyOf(ownership.owned().keySet())) {
        if (!plan.desired().contains(shard)) {
          dropped.add(shard);
        }
      }
      if (!dropped.isEmpty()) {
        stopWriting(() -> dropped.forEach(ownership::drop));
      }
      notifier.lost(dropped, "reassigned to another member");
      boolean retrySoon = false;
      retrySoon |= !execute(plan.actions(), byName);
      publish();
      unowned.observe(
          now,
          plan.unowned(),
          view.epochs().size(),
          plan.agreeingMembers(),
          plan.refusal().isPresent());
      if (retrySoon) {
        next = min(next, settings.retryInterval()); // a watch event wakes the loop earlier
      } else if (!plan.actions().isEmpty()) {
        next = SOON;
      }
    }
    var expiry = observations.untilNextExpiry(replicaId);
    if (expiry.isPresent() && expiry.get().compareTo(next) < 0) {
      next = expiry.get().plusMillis(10);
    }
    return next;
  }

  /**
   * Deletes this replica's member Lease, conditionally on its resourceVersion, so that a Lease
   * re-registered or fenced meanwhile is never removed by mistake.
   */
  private static Duration min(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }

  /**
   * Releases, then fences, then acquisitions; the writes of one kind run in parallel (a transfer of
   * a hundred shards takes one round trip, not a hundred), their results are applied here.
   *
   * @return whether every write succeeded
   */
  private boolean execute(List<LeaseAction> actions, Map<String, Lease> byName) {
    var releases = new ArrayList<ShardLease>();
    var fences = new ArrayList<MemberRecord>();
    var acquisitions = new ArrayList<ShardLease>();
    var forgotten = new ArrayList<MemberRecord>();
    boolean ok = true;
    for (var action : actions) {
      switch (action) {
        case LeaseAction.Release release -> releases.add(release.lease());
        case LeaseAction.Fence fence -> fences.add(fence.member());
        case LeaseAction.Acquire acquire -> acquisitions.add(acquire.lease());
        case LeaseAction.Forget forget -> forgotten.add(forget.member());
      }
    }
    for (var member : forgotten) {
      ok &= forget(member);
    }
    if (!releases.isEmpty()) {
      var stop = releases.stream().map(ShardLease::shard).toList();
      if (!stopWriting(() -> stop.forEach(ownership::drop))) {
        return false;
      }
      var results =
          writer.inParallel(
              releases,
              lease ->
                  writer.write(
                      "release",
                      () -> writer.update(codec.release(byName.get(names.shard(lease.shard()))))));
      ok &= results.stream().allMatch(Optional::isPresent);
      LeaseWriter.reportFailures("release", results);
    }
    for (var member : fences) {
      ok &= fence(member, byName);
    }
    if (!acquisitions.isEmpty() && ownership.permitted()) {
      var incarnation = ownership.incarnation();
      var now = ZonedDateTime.now(wallClock);
      var results =
          writer.inParallel(
              acquisitions,
              lease ->
                  writer.write(
                      "acquire",
                      () -> {
                        var current = byName.get(names.shard(lease.shard()));
                        if (current == null) {
                          current = writer.create(codec.newShard(lease.shard()));
                        }
                        return writer.update(codec.acquire(current, replicaId, incarnation, now));
                      }));
      LeaseWriter.reportFailures("acquire", results);
      var gained = new TreeMap<Integer, Long>();
      for (int i = 0; i < acquisitions.size(); i++) {
        var written = results.get(i);
        if (written.isPresent() && ownership.permitted()) {
          long epoch = written.get().getSpec().getLeaseTransitions();
          ownership.acquired(acquisitions.get(i).shard(), epoch);
          gained.put(acquisitions.get(i).shard(), epoch);
        } else {
          ok = false;
        }
      }
      publish();
      notifier.gained(gained, ownership.owned().size());
    } else if (!acquisitions.isEmpty()) {
      ok = false;
    }
    return ok;
  }

  /** Deletes the Lease of a member fenced long ago, unless it changed since (compare-and-swap). */
  private boolean forget(MemberRecord member) {
    boolean deleted = writer.deleteIfUnchanged(names.member(member.id()), member.version());
    if (deleted) {
      LOG.info("deleted the Lease of member {}, fenced and silent since", member.id());
    }
    return deleted;
  }

  private boolean fence(MemberRecord member, Map<String, Lease> byName) {
    var current = byName.get(names.member(member.id()));
    var fenced = writer.write("fence", () -> writer.update(codec.fence(current, replicaId)));
    fenced.ifPresent(
        l ->
            LOG.info(
                "member {} (incarnation {}) did not renew for {}; fenced it to take its shards",
                member.id(),
                member.incarnation(),
                member.leaseDuration()));
    return fenced.isPresent();
  }

  private void releaseEverything() {
    var held = new TreeSet<>(ownership.owned().keySet());
    var incarnation = ownership.incarnation();
    var lostShards = new TreeSet<Integer>();
    boolean quiet = stopWriting(() -> lostShards.addAll(ownership.reincarnate(newIncarnation())));
    notifier.lost(lostShards, "planned stop");
    long released = 0;
    if (quiet && member.current() != null) {
      // the shards this run holds: those it acquired (maybe not in the cache yet) and any Lease
      // the cache shows naming this incarnation
      var mine = new TreeSet<>(held);
      for (var lease : informer.getStore().list()) {
        if (LeaseCodec.isShard(lease)) {
          codec
              .shard(lease)
              .filter(s -> s.heldBy(replicaId, incarnation))
              .ifPresent(s -> mine.add(s.shard()));
        }
      }
      var results =
          writer.inParallel(
              List.copyOf(mine),
              shard -> {
                var name = names.shard(shard);
                var cached = informer.getStore().getByKey(namespace + "/" + name);
                var ok =
                    cached != null && isHeldByThisRun(cached, incarnation)
                        ? writer.write("release", () -> writer.update(codec.release(cached)))
                        : Optional.<Lease>empty();
                if (ok.isEmpty()) {
                  // the cache may be a moment behind this run's own acquisition: read it
                  var fresh = client.leases().inNamespace(namespace).withName(name).get();
                  if (fresh != null && isHeldByThisRun(fresh, incarnation)) {
                    ok = writer.write("release", () -> writer.update(codec.release(fresh)));
                  }
                }
                return ok;
              });
      released = results.stream().filter(Optional::isPresent).count();
    }
    member.delete();
    LOG.info("planned stop: released {} shard(s) and the member Lease of {}", released, replicaId);
  }

  private boolean isHeldByThisRun(Lease lease, String incarnation) {
    return codec.shard(lease).map(s -> s.heldBy(replicaId, incarnation)).orElse(false);
  }

  private void reportRefusal(Optional<String> now) {
    if (!now.equals(refusal)) {
      var lease = member.current();
      now.ifPresentOrElse(
          r -> {
            LOG.error("ShardConfigMismatch: {}", r);
            notifier.background(() -> events.warn(lease, "ShardConfigMismatch", r));
          },
          () -> LOG.info("sharding agrees with the group again; taking shards"));
      refusal = now;
    }
  }

  /**
   * Applies a change that removes shards and publishes it once no write runs under the old view.
   * Waits at most the retry interval; returns false if a write was still running then, in which
   * case the caller must not hand the shards over explicitly.
   */
  private boolean stopWriting(Runnable change) {
    var exclusive = writes.writeLock();
    boolean locked = false;
    try {
      locked = exclusive.tryLock(settings.retryInterval().toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    try {
      change.run();
      publish();
    } finally {
      if (locked) {
        exclusive.unlock();
      }
    }
    if (!locked) {
      LOG.warn(
          "a write under the old ownership did not finish within {}; not releasing, so others"
              + " take over only after a lease duration",
          settings.retryInterval());
    }
    return locked;
  }

  private void publish() {
    view = ownership.view();
  }

  private static String newIncarnation() {
    return HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong());
  }

  private final class WakeOnChange implements ResourceEventHandler<Lease> {
    @Override
    public void onAdd(Lease lease) {
      wake.release();
    }

    @Override
    public void onUpdate(Lease before, Lease after) {
      wake.release();
    }

    @Override
    public void onDelete(Lease lease, boolean unknownFinalState) {
      wake.release();
    }
  }
}
