package dev.versio.webhook.sync;

import dev.versio.api.server.EndpointMatch;
import dev.versio.webhook.metrics.WebhookMetrics;
import dev.versio.webhook.registry.Registry;
import dev.versio.webhook.registry.RegistryEntry;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps one replica's registry in step with the cluster. Three jobs, three classes: {@link
 * SyncInformers} watches configs, servers and targets; {@link ConfigCompilation} decides what this
 * replica should hold for one config (assignment by the shared resolver, then compile); this class
 * orders the work and updates the registry — the initial sync compiles everything on a bounded pool
 * and installs it at once, later changes are applied one config at a time on a single worker
 * thread, and a target that is no longer this server's keeps being served while it moves away.
 */
public final class RegistrySync implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(RegistrySync.class);

  private final String serverName;
  private final Registry registry;
  private final WebhookMetrics metrics;
  private final Clock clock;
  private final SyncInformers cluster;
  private final ConfigCompilation compilation;
  private final TargetClaims claims = new TargetClaims();
  private final DedupQueue<ConfigKey> queue = new DedupQueue<>();
  private Thread worker;
  private final Duration drain;

  /**
   * A target no config claims any more that this replica still serves: {@code key} is the config
   * that released it (re-enqueued to look again), {@code drainingSince} null while the live target
   * still names this server, else when the drain began; {@code handedOverTo} the server behind the
   * front whose live replicas all serve it now (its reviews go there while the drain lasts), or
   * null.
   */
  private record Release(ConfigKey key, Instant drainingSince, String handedOverTo) {
    Release(ConfigKey key, Instant drainingSince) {
      this(key, drainingSince, null);
    }
  }

  private final Map<String, Release> releasing = new ConcurrentHashMap<>();
  private volatile dev.versio.webhook.forward.PeerRoutes peers;
  private volatile String namespace;
  private final ScheduledExecutorService rechecks =
      Executors.newSingleThreadScheduledExecutor(
          r -> Thread.ofPlatform().name("versio-drain").daemon().unstarted(r));

  public RegistrySync(
      KubernetesClient client,
      String serverName,
      Registry registry,
      WebhookMetrics metrics,
      Clock clock,
      String configSelector) {
    this(
        client,
        serverName,
        registry,
        metrics,
        clock,
        configSelector,
        dev.versio.webhook.WebhookServerOptions.DEFAULT_DRAIN);
  }

  /**
   * @param drain how long this replica keeps serving a target after it is neither assigned to its
   *     server nor named by the live target's {@code spec.conversion}
   */
  public RegistrySync(
      KubernetesClient client,
      String serverName,
      Registry registry,
      WebhookMetrics metrics,
      Clock clock,
      String configSelector,
      Duration drain) {
    this.drain = Objects.requireNonNull(drain, "drain");
    this.serverName = serverName;
    this.registry = registry;
    this.metrics = metrics;
    this.clock = clock;
    this.cluster =
        new SyncInformers(
            client,
            configSelector,
            new SyncInformers.Listener() {
              @Override
              public void configChanged(ConfigKey key) {
                queue.add(key);
              }

              @Override
              public void serversChanged() {
                enqueueAll();
              }

              @Override
              public void targetChanged(String target) {
                enqueueTarget(target);
              }

              @Override
              public void xrdApiAppeared() {
                enqueueAll();
              }
            });
    this.compilation = new ConfigCompilation(cluster, serverName, registry, metrics, clock);
  }

  /** Creates and starts the informers (once); they retry listing until it succeeds. */
  public void startInformers() {
    cluster.start();
  }

  /** Waits until every informer cache is filled; false when {@code timeout} passed first. */
  public boolean awaitSynced(Duration timeout) throws InterruptedException {
    return cluster.awaitSynced(timeout);
  }

  /** How long one config's compile may take in the initial sync before it is given up on. */
  public static final Duration INITIAL_COMPILE_BUDGET = Duration.ofSeconds(30);

  /**
   * Compiles every config assigned to this server on {@code workers} threads and installs the
   * result at once. The outcome equals compiling them one by one.
   *
   * @return the number of targets compiled (servable or not)
   */
  public int initialSync(int workers) throws InterruptedException {
    return initialSync(workers, INITIAL_COMPILE_BUDGET);
  }

  /**
   * As {@link #initialSync(int)}; a config whose compile runs longer than {@code budget} gets an
   * error-only entry for its target (reported, never served) instead of holding readiness for all
   * the others, and is compiled again once changes are watched.
   */
  public int initialSync(int workers, Duration budget) throws InterruptedException {
    var keys = cluster.configKeys();
    var outcomes = BoundedCompiles.run(keys, workers, budget, this::compile);
    var targets = new LinkedHashSet<String>();
    for (int i = 0; i < keys.size(); i++) {
      var key = keys.get(i);
      var entry =
          switch (outcomes.get(i)) {
            case BoundedCompiles.Outcome.Done<Optional<RegistryEntry>> done -> done.value();
            case BoundedCompiles.Outcome.TimedOut<Optional<RegistryEntry>> timedOut ->
                tooSlow(key, budget);
            case BoundedCompiles.Outcome.Failed<Optional<RegistryEntry>> failed ->
                throw new IllegalStateException(
                    "initial compile of " + key + " failed unexpectedly", failed.cause());
          };
      targets.addAll(claims.update(key, entry));
    }
    // the same winner rule as for later changes (TargetClaims), whatever the arrival order
    var entries = new HashMap<String, RegistryEntry>();
    for (var target : targets) {
      claims.winner(target).ifPresent(e -> entries.put(target, e));
    }
    registry.replaceAll(entries);
    return entries.size();
  }

  /** The error-only entry of a config whose initial compile ran over its budget. */
  private Optional<RegistryEntry> tooSlow(ConfigKey key, Duration budget) {
    var config = cluster.config(key);
    var spec = config == null ? null : SyncInformers.specOf(config);
    if (spec == null || spec.targetName() == null) {
      return Optional.empty();
    }
    var message =
        "compiling "
            + key
            + " did not finish within "
            + budget.toSeconds()
            + " s at start-up; the replica became ready without it and compiles it again in the"
            + " background";
    LOG.warn("{}", message);
    metrics.compile(spec.targetName(), "error", "CompileTimeout", budget.toNanos());
    return Optional.of(
        new RegistryEntry(
            spec.targetName(),
            Optional.empty(),
            key.toString(),
            null,
            null,
            message,
            clock.instant()));
  }

  /** The same as {@link #initialSync} but one config at a time (for comparison in tests). */
  public Map<String, RegistryEntry> serialWalk() {
    var walk = new TargetClaims();
    var targets = new LinkedHashSet<String>();
    for (var key : cluster.configKeys()) {
      targets.addAll(walk.update(key, compile(key)));
    }
    var entries = new HashMap<String, RegistryEntry>();
    for (var target : targets) {
      walk.winner(target).ifPresent(e -> entries.put(target, e));
    }
    return entries;
  }

  /** Starts applying changes as they arrive. */
  public void startWatching() {
    cluster.deliver();
    worker = Thread.ofPlatform().name("versio-registry-sync").daemon().start(this::work);
    enqueueAll(); // anything that changed between the initial sync and now
  }

  private void work() {
    while (!Thread.currentThread().isInterrupted()) {
      try {
        var key = queue.poll(Duration.ofSeconds(1));
        if (key != null) {
          apply(key);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (RuntimeException e) {
        metrics.unexpected("sync");
        LOG.error("registry sync failed unexpectedly; the next change retries", e);
      }
    }
  }

  private void apply(ConfigKey key) {
    var affected = new LinkedHashSet<>(claims.update(key, entryFor(key)));
    releasing.forEach(
        (target, release) -> {
          if (release.key().equals(key)) {
            affected.add(target); // the recheck of a release this key started
          }
        });
    for (var target : affected) {
      settle(target, key);
    }
  }

  /** Installs the winning claim for {@code target}, or releases it when none is left. */
  private void settle(String target, ConfigKey key) {
    var winner = claims.winner(target);
    if (winner.isEmpty()) {
      release(key, target);
      return;
    }
    releasing.remove(target);
    var e = winner.get();
    var current = registry.get(target).orElse(null);
    if (current != null
        && current.config().equals(e.config())
        && java.util.Objects.equals(current.planHash(), e.planHash())
        && java.util.Objects.equals(current.lastError(), e.lastError())
        && current.servable() == e.servable()) {
      return; // nothing changed for the registry (and for the served-target report)
    }
    if (e.lastError() == null) {
      registry.set(target, e.router().orElseThrow(), e.config(), e.planHash());
    } else if (e.servable()) {
      registry.recordError(target, e.config(), e.lastError()); // keeps a working router
    } else {
      registry.refuse(target, e.config(), e.lastError()); // fails closed: no router at all
    }
  }

  /**
   * A target this replica no longer should serve by assignment: it keeps serving while the live
   * target's {@code spec.conversion} still names this server (the operator has not switched it
   * yet), and for the drain period after that, so that requests the apiserver sent before the
   * switch still find a plan; then it drops the plan.
   */
  private void release(ConfigKey key, String target) {
    var previous = releasing.get(target);
    var destination = awaitedDestination(key, target);
    if (destination != null) {
      if (previous == null || previous.drainingSince() != null) {
        LOG.info(
            "{} is now assigned to server {}, whose live replicas do not all serve {} yet: keeps"
                + " serving",
            key,
            destination,
            target);
      }
      releasing.put(target, new Release(key, null)); // a change of the peers re-enqueues the key
      return;
    }
    if (namesFrontUntilServedBehindIt(key, target)) {
      if (previous == null || previous.drainingSince() != null) {
        LOG.info(
            "{} is no longer assigned to server {}, but {} still names the front and no server"
                + " behind it serves it yet: keeps serving",
            key,
            serverName,
            target);
      }
      releasing.put(target, new Release(key, null)); // the CRD changing re-enqueues the key
      return;
    }
    if (namesThisServer(target)) {
      if (previous == null || previous.drainingSince() != null) {
        LOG.info(
            "{} is no longer assigned to server {}, but {} still names it: keeps serving",
            key,
            serverName,
            target);
      }
      releasing.put(target, new Release(key, null)); // the CRD changing re-enqueues the key
      return;
    }
    var now = clock.instant();
    var since =
        previous == null || previous.drainingSince() == null ? now : previous.drainingSince();
    var left = Duration.between(now, since.plus(drain));
    if (left.isPositive()) {
      var handedOverTo = servingDestination(key, target);
      releasing.put(target, new Release(key, since, handedOverTo));
      if (since.equals(now)) {
        if (handedOverTo != null) {
          LOG.info(
              "{} is now served by server {}: {} passes its reviews there and keeps its plan for"
                  + " the {} s drain",
              target,
              handedOverTo,
              serverName,
              drain.toSeconds());
        } else {
          LOG.info(
              "{} no longer assigned to server {} and {} no longer names it: draining for {} s",
              key,
              serverName,
              target,
              drain.toSeconds());
        }
      }
      rechecks.schedule(() -> queue.add(key), left.toMillis(), TimeUnit.MILLISECONDS);
      return;
    }
    releasing.remove(target);
    registry.remove(target);
    metrics.forgetTarget(target); // no series of a target this replica no longer serves
    LOG.info(
        "{} is gone or no longer assigned to server {}: dropped target {} after the drain",
        key,
        serverName,
        target);
  }

  /**
   * Behind the front, the server {@code key}'s target has moved to while that server's live
   * replicas do not all report serving it yet (or none reports, or a report cannot be read): until
   * then this replica keeps the plan, so a review forwarded here still converts. Null when there is
   * no front, the config is gone, or the destination serves it.
   */
  private String awaitedDestination(ConfigKey key, String target) {
    var destination = movedTo(key);
    return destination == null || serves(destination, target) ? null : destination;
  }

  /**
   * Behind the front, the server {@code key}'s target moved to when every one of its live replicas
   * serves it (and at least one can be reached): the reviews this replica gets for the target go
   * there from now on, while its own plan stays for the drain as the fallback. Null without a
   * front, when the config is gone, or when the destination does not serve it yet.
   */
  private String servingDestination(ConfigKey key, String target) {
    var destination = movedTo(key);
    return destination != null
            && serves(destination, target)
            && peers.holders(target).stream().anyMatch(p -> p.server().equals(destination))
        ? destination
        : null;
  }

  /** Behind the front, the other server {@code key} is assigned to now, or null. */
  private String movedTo(ConfigKey key) {
    if (peers == null) {
      return null;
    }
    var destination = compilation.assignedServer(key).orElse(null);
    return destination == null || destination.equals(serverName) ? null : destination;
  }

  /** Whether every live replica of {@code server} reports serving {@code target} (one at least). */
  private boolean serves(String server, String target) {
    var view = peers.view(server);
    return view.unreadable().isEmpty()
        && view.reportingReplicas() > 0
        && view.servedTargets().contains(target);
  }

  /**
   * Behind the front, the server whose replicas now serve {@code target} in this replica's place
   * while it drains the target (it still holds the plan), or null: reviews for it are passed there.
   */
  public String handedOverTo(String target) {
    var release = releasing.get(target);
    return release == null || release.drainingSince() == null ? null : release.handedOverTo();
  }

  /**
   * Behind the front, whether the live target still sends its reviews to the front while no server
   * behind it serves the target in this replica's place: the config is gone (the operator has not
   * taken the webhook off the target yet) or the target moved to a server that keeps its own
   * endpoint (the operator has not repointed it yet). Until then the replicas behind the front must
   * still find a holder.
   */
  private boolean namesFrontUntilServedBehindIt(ConfigKey key, String target) {
    if (peers == null) {
      return false;
    }
    var destination = movedTo(key);
    if (destination != null
        && peers.holders(target).stream().anyMatch(p -> p.server().equals(destination))) {
      return false; // served behind the front (asked first: reading the target costs more)
    }
    var conversion = cluster.conversionOf(target);
    return conversion != null
        && EndpointMatch.namesFront(conversion, target, cluster.servers(), namespace);
  }

  /**
   * Behind the front: keeps a released target until the server it moved to serves it, as {@code
   * routes} shows, and looks again whenever they change. Called before {@link #startWatching}.
   */
  public void followPeers(dev.versio.webhook.forward.PeerRoutes routes, String namespace) {
    this.namespace = namespace;
    this.peers = routes;
    routes.onChange(() -> releasing.values().forEach(r -> queue.add(r.key())));
  }

  /**
   * Whether the live target's {@code spec.conversion} still sends its reviews to this server: its
   * URL starts with the server's {@code spec.url} (URL mode), or its Service is the server's.
   */
  private boolean namesThisServer(String target) {
    var conversion = cluster.conversionOf(target);
    return conversion != null && EndpointMatch.names(cluster.server(serverName), conversion);
  }

  /**
   * What this replica should hold for one config, or empty when it is gone or assigned elsewhere.
   */
  private Optional<RegistryEntry> entryFor(ConfigKey key) {
    return compilation.entryFor(key, claims.entryOf(key));
  }

  /** Compiles {@code key} afresh (the initial sync and its serial equivalent). */
  private Optional<RegistryEntry> compile(ConfigKey key) {
    return compilation.entryFor(key, Optional.empty());
  }

  private void enqueueAll() {
    var keys = new LinkedHashSet<>(cluster.configKeys());
    keys.addAll(claims.keys());
    queue.addAll(keys);
  }

  private void enqueueTarget(String target) {
    // a config that is gone but whose plan is still held (draining) is looked at again too
    queue.addAll(claims.claimants(target));
    var release = releasing.get(target);
    if (release != null) {
      queue.add(release.key());
    }
    for (var key : cluster.configKeys()) {
      var spec = SyncInformers.specOf(cluster.config(key));
      if (spec != null && target.equals(spec.targetName())) {
        queue.add(key);
      }
    }
  }

  @Override
  public void close() {
    rechecks.shutdownNow();
    if (worker != null) {
      worker.interrupt();
    }
    cluster.close();
  }
}
