package dev.versio.webhook.sync;

import dev.versio.api.assign.AssignmentResolver;
import dev.versio.api.assign.ServerView;
import dev.versio.api.config.CRDConversionConfig;
import dev.versio.api.config.ConversionConfigSpec;
import dev.versio.api.config.XRDConversionConfig;
import dev.versio.api.server.ConversionWebhookServer;
import dev.versio.api.server.EndpointMatch;
import dev.versio.webhook.metrics.WebhookMetrics;
import dev.versio.webhook.registry.Registry;
import dev.versio.webhook.registry.RegistryEntry;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps one replica's registry in step with the cluster: watches configs, servers and target
 * CRDs/XRDs with informers, resolves assignment with the shared resolver, compiles assigned configs
 * and swaps their routers in. The initial sync compiles everything on a bounded pool and installs
 * it at once; later changes are applied one config at a time on a single worker thread.
 */
public final class RegistrySync implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(RegistrySync.class);
  static final String XRD_CRD = "compositeresourcedefinitions.apiextensions.crossplane.io";
  private static final io.fabric8.kubernetes.client.utils.KubernetesSerialization SERIALIZATION =
      new io.fabric8.kubernetes.client.utils.KubernetesSerialization();

  private final KubernetesClient client;
  private final String serverName;
  private final Registry registry;
  private final WebhookMetrics metrics;
  private final Clock clock;
  private final String configSelector;
  private final TargetCompiler compiler = new TargetCompiler();
  private final TargetClaims claims = new TargetClaims();
  private final DedupQueue<ConfigKey> queue = new DedupQueue<>();
  private final List<SharedIndexInformer<?>> informers = new ArrayList<>();
  private SharedIndexInformer<CRDConversionConfig> crdConfigs;
  private SharedIndexInformer<XRDConversionConfig> xrdConfigs;
  private SharedIndexInformer<ConversionWebhookServer> servers;
  private SharedIndexInformer<CustomResourceDefinition> crds;
  private volatile SharedIndexInformer<GenericKubernetesResource> xrds;
  private volatile boolean started;
  private Thread worker;
  private final Duration drain;

  /**
   * A target no config claims any more that this replica still serves: {@code key} is the config
   * that released it (re-enqueued to look again), {@code drainingSince} null while the live target
   * still names this server, else when the drain began.
   */
  private record Release(ConfigKey key, Instant drainingSince) {}

  private final Map<String, Release> releasing = new ConcurrentHashMap<>();
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
    this.client = client;
    this.serverName = serverName;
    this.registry = registry;
    this.metrics = metrics;
    this.clock = clock;
    this.configSelector = configSelector;
  }

  /** Creates and starts the informers (once); they retry listing until it succeeds. */
  public synchronized void startInformers() {
    if (!informers.isEmpty()) {
      return;
    }
    var crdConfigApi = client.resources(CRDConversionConfig.class);
    var xrdConfigApi = client.resources(XRDConversionConfig.class);
    crdConfigs =
        informer(
            configSelector == null
                ? crdConfigApi.runnableInformer(0)
                : crdConfigApi.withLabelSelector(configSelector).runnableInformer(0),
            this::onConfig);
    xrdConfigs =
        informer(
            configSelector == null
                ? xrdConfigApi.runnableInformer(0)
                : xrdConfigApi.withLabelSelector(configSelector).runnableInformer(0),
            this::onConfig);
    servers =
        informer(
            client.resources(ConversionWebhookServer.class).runnableInformer(0), s -> enqueueAll());
    crds =
        informer(
            client.apiextensions().v1().customResourceDefinitions().runnableInformer(0),
            crd -> {
              if (XRD_CRD.equals(crd.getMetadata().getName()) && xrds == null) {
                startXrdInformerLater(); // Crossplane was installed after this replica started
              }
              enqueueTarget(crd.getMetadata().getName());
            });
    if (xrdApiInstalled()) {
      xrds = xrdInformer();
    }
    for (var informer : informers) {
      // keep retrying a failed list or watch (e.g. missing RBAC) instead of giving up
      informer.exceptionHandler(
          (started, error) -> {
            LOG.warn(
                "watching {} failed, retrying: {}",
                informer.getApiTypeClass().getSimpleName(),
                error.getMessage());
            return true;
          });
      informer.start();
    }
  }

  private SharedIndexInformer<GenericKubernetesResource> xrdInformer() {
    return informer(
        client
            .genericKubernetesResources(
                "apiextensions.crossplane.io/v2", "CompositeResourceDefinition")
            .runnableInformer(0),
        xrd -> enqueueTarget(xrd.getMetadata().getName()));
  }

  /** Starts watching XRDs once their API appears, then looks at every config again. */
  private synchronized void startXrdInformerLater() {
    if (xrds != null) {
      return;
    }
    var informer = xrdInformer();
    informer.exceptionHandler(
        (started, error) -> {
          LOG.warn("watching XRDs failed, retrying: {}", error.getMessage());
          return true;
        });
    informer.start();
    xrds = informer;
    LOG.info("Crossplane's XRD API appeared: watching CompositeResourceDefinitions");
    Thread.ofVirtual()
        .name("versio-xrd-sync")
        .start(
            () -> {
              while (!informer.hasSynced() && !Thread.currentThread().isInterrupted()) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50)); // an external cache
              }
              enqueueAll();
            });
  }

  private boolean xrdApiInstalled() {
    try {
      return client.apiextensions().v1().customResourceDefinitions().withName(XRD_CRD).get()
          != null;
    } catch (RuntimeException e) {
      LOG.warn(
          "cannot tell whether Crossplane's XRD API is installed ({}); XRD configs are not served",
          e.getMessage());
      return false;
    }
  }

  /** Waits until every informer cache is filled; false when {@code timeout} passed first. */
  public boolean awaitSynced(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    for (var informer : informers) {
      while (!informer.hasSynced()) {
        if (System.nanoTime() > deadline) {
          return false;
        }
        Thread.sleep(20); // waiting for an external cache, not for test logic
      }
    }
    return true;
  }

  private <T extends HasMetadata> SharedIndexInformer<T> informer(
      SharedIndexInformer<T> informer, Consumer<T> onChange) {
    informer.addEventHandler(
        new ResourceEventHandler<>() {
          @Override
          public void onAdd(T obj) {
            if (started) {
              onChange.accept(obj);
            }
          }

          @Override
          public void onUpdate(T oldObj, T newObj) {
            if (started) {
              onChange.accept(newObj);
            }
          }

          @Override
          public void onDelete(T obj, boolean deletedFinalStateUnknown) {
            if (started) {
              onChange.accept(obj);
            }
          }
        });
    informers.add(informer);
    return informer;
  }

  /**
   * Compiles every config assigned to this server on {@code workers} threads and installs the
   * result at once. The outcome equals compiling them one by one.
   *
   * @return the number of targets compiled (servable or not)
   */
  public int initialSync(int workers) throws InterruptedException {
    var keys = allConfigKeys();
    var pool =
        Executors.newFixedThreadPool(
            workers, r -> Thread.ofPlatform().name("versio-initial-sync").daemon().unstarted(r));
    try {
      var futures = new ArrayList<Future<Optional<RegistryEntry>>>();
      for (var key : keys) {
        futures.add(pool.submit(() -> compile(key)));
      }
      var targets = new LinkedHashSet<String>();
      for (int i = 0; i < keys.size(); i++) {
        try {
          targets.addAll(claims.update(keys.get(i), futures.get(i).get()));
        } catch (ExecutionException e) {
          throw new IllegalStateException(
              "initial compile of " + keys.get(i) + " failed unexpectedly", e.getCause());
        }
      }
      // the same winner rule as for later changes (TargetClaims), whatever the arrival order
      var entries = new HashMap<String, RegistryEntry>();
      for (var target : targets) {
        claims.winner(target).ifPresent(e -> entries.put(target, e));
      }
      registry.replaceAll(entries);
      return entries.size();
    } finally {
      pool.shutdownNow();
    }
  }

  /** The same as {@link #initialSync} but one config at a time (for comparison in tests). */
  public Map<String, RegistryEntry> serialWalk() {
    var walk = new TargetClaims();
    var targets = new LinkedHashSet<String>();
    for (var key : allConfigKeys()) {
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
    started = true;
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
    } else {
      registry.recordError(target, e.config(), e.lastError()); // keeps a working router
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
      releasing.put(target, new Release(key, since));
      if (since.equals(now)) {
        LOG.info(
            "{} no longer assigned to server {} and {} no longer names it: draining for {} s",
            key,
            serverName,
            target,
            drain.toSeconds());
      }
      rechecks.schedule(() -> queue.add(key), left.toMillis(), TimeUnit.MILLISECONDS);
      return;
    }
    releasing.remove(target);
    registry.remove(target);
    LOG.info(
        "{} is gone or no longer assigned to server {}: dropped target {} after the drain",
        key,
        serverName,
        target);
  }

  /**
   * Whether the live target's {@code spec.conversion} still sends its reviews to this server: its
   * URL starts with the server's {@code spec.url} (URL mode), or its Service is the server's.
   */
  private boolean namesThisServer(String target) {
    HasMetadata definition = crds.getStore().getByKey(target);
    if (definition == null && xrds != null) {
      definition = xrds.getStore().getByKey(target);
    }
    return definition != null
        && EndpointMatch.names(
            servers.getStore().getByKey(serverName),
            SERIALIZATION.convertValue(definition, com.fasterxml.jackson.databind.JsonNode.class));
  }

  /**
   * What this replica should hold for one config, or empty when it is gone or assigned elsewhere.
   */
  private Optional<RegistryEntry> entryFor(ConfigKey key) {
    return compile(key, claims.entryOf(key));
  }

  /** Compiles {@code key} afresh (the initial sync and its serial equivalent). */
  private Optional<RegistryEntry> compile(ConfigKey key) {
    return compile(key, Optional.empty());
  }

  /**
   * What this replica should hold for one config; {@code previous} is reused without compiling when
   * neither the config's nor the target's generation changed since it was compiled.
   */
  private Optional<RegistryEntry> compile(ConfigKey key, Optional<RegistryEntry> previous) {
    HasMetadata config =
        key.xrd()
            ? xrdConfigs.getStore().getByKey(key.name())
            : crdConfigs.getStore().getByKey(key.name());
    if (config == null || config.getMetadata().getDeletionTimestamp() != null) {
      return Optional.empty();
    }
    ConversionConfigSpec spec =
        config instanceof XRDConversionConfig x
            ? x.getSpec()
            : ((CRDConversionConfig) config).getSpec();
    if (spec == null || spec.targetName() == null) {
      return Optional.empty();
    }
    var target = spec.targetName();
    var serverViews = servers.getStore().list().stream().map(ServerView::of).toList();
    var assignment =
        AssignmentResolver.resolve(
            spec.webhookServerRef == null ? null : spec.webhookServerRef.name, target, serverViews);
    if (!assignment.isTo(serverName)) {
      return Optional.empty();
    }
    long started = System.nanoTime();
    var xrdInformer = xrds;
    HasMetadata live =
        key.xrd()
            ? xrdInformer == null ? null : xrdInformer.getStore().getByKey(target)
            : crds.getStore().getByKey(target);
    String definition = live == null ? null : Serialization.asJson(live);
    // the plan depends on the config's spec and the target's schema: both generations name it
    var planHash =
        "gen="
            + (live == null ? "none" : live.getMetadata().getGeneration())
            + "/"
            + config.getMetadata().getGeneration();
    if (previous.isPresent()
        && previous.get().target().equals(target)
        && previous.get().servable()
        && previous.get().lastError() == null
        && planHash.equals(previous.get().planHash())) {
      return previous; // nothing it was compiled from has changed: no recompile
    }
    if (definition == null) {
      var reason = key.xrd() ? "XRDNotFound" : "CRDNotFound";
      metrics.compile(target, "error", reason, System.nanoTime() - started);
      return Optional.of(
          failed(
              target,
              key,
              (key.xrd() ? "XRD " : "CRD ")
                  + target
                  + " not found"
                  + (key.xrd() && xrdInformer == null
                      ? " (the Crossplane XRD API is not installed)"
                      : "")));
    }
    var outcome = compiler.compile(spec, definition, key.xrd());
    return switch (outcome) {
      case TargetCompiler.Outcome.Compiled c -> {
        metrics.compile(target, "success", null, System.nanoTime() - started);
        yield Optional.of(
            new RegistryEntry(
                target,
                Optional.of(c.router()),
                key.toString(),
                planHash,
                clock.instant(),
                null,
                null));
      }
      case TargetCompiler.Outcome.Failed f -> {
        metrics.compile(target, "error", f.reason(), System.nanoTime() - started);
        LOG.warn(
            "{} for target {} does not compile ({}): {}; keeping any previous plan",
            key,
            target,
            f.reason(),
            f.message());
        yield Optional.of(failed(target, key, f.message()));
      }
    };
  }

  private RegistryEntry failed(String target, ConfigKey key, String message) {
    var previous = registry.get(target);
    return previous
        .map(
            p ->
                new RegistryEntry(
                    target,
                    p.router(),
                    key.toString(),
                    p.planHash(),
                    p.compiledAt(),
                    message,
                    clock.instant()))
        .orElseGet(
            () ->
                new RegistryEntry(
                    target,
                    Optional.empty(),
                    key.toString(),
                    null,
                    null,
                    message,
                    clock.instant()));
  }

  private List<ConfigKey> allConfigKeys() {
    var keys = new ArrayList<ConfigKey>();
    crdConfigs.getStore().listKeys().stream()
        .sorted()
        .forEach(k -> keys.add(new ConfigKey(false, k)));
    xrdConfigs.getStore().listKeys().stream()
        .sorted()
        .forEach(k -> keys.add(new ConfigKey(true, k)));
    return keys;
  }

  private void onConfig(HasMetadata config) {
    queue.add(new ConfigKey(config instanceof XRDConversionConfig, config.getMetadata().getName()));
  }

  private void enqueueAll() {
    var keys = new LinkedHashSet<>(allConfigKeys());
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
    for (var key : allConfigKeys()) {
      HasMetadata config =
          key.xrd()
              ? xrdConfigs.getStore().getByKey(key.name())
              : crdConfigs.getStore().getByKey(key.name());
      ConversionConfigSpec spec =
          config instanceof XRDConversionConfig x
              ? x.getSpec()
              : config instanceof CRDConversionConfig c ? c.getSpec() : null;
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
    informers.forEach(SharedIndexInformer::close);
  }
}
