package dev.versio.operator;

import dev.versio.api.served.ServedTargetsAggregator;
import dev.versio.api.server.ConversionWebhookServer;
import dev.versio.coordination.kubernetes.CoordinationMetrics;
import dev.versio.coordination.kubernetes.LeaseCoordinator;
import dev.versio.coordination.kubernetes.MonotonicClock;
import dev.versio.operator.admission.AdmissionServer;
import dev.versio.operator.cluster.ClusterCache;
import dev.versio.operator.config.CRDConfigReconciler;
import dev.versio.operator.config.ConfigKind;
import dev.versio.operator.config.ConfigReconciler;
import dev.versio.operator.config.ConfigWatches;
import dev.versio.operator.config.XRDConfigReconciler;
import dev.versio.operator.fanout.ConfigTriggers;
import dev.versio.operator.gate.HandoverGate;
import dev.versio.operator.gate.ServedHandoverGate;
import dev.versio.operator.ha.LiveEventWaits;
import dev.versio.operator.ha.OwnedReconciler;
import dev.versio.operator.ha.ShardWriteGate;
import dev.versio.operator.ha.TakeoverLane;
import dev.versio.operator.metrics.OperatorMetrics;
import dev.versio.operator.migrate.StorageMigrations;
import dev.versio.operator.ops.OpsServer;
import dev.versio.operator.served.ServedTargetsWatch;
import dev.versio.operator.server.ServerReconciler;
import dev.versio.operator.server.children.ChildApis;
import dev.versio.operator.write.ClusterWriter;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.monitoring.micrometer.MicrometerMetricsV2;
import io.javaoperatorsdk.operator.processing.event.source.filter.GenericFilter;
import io.javaoperatorsdk.operator.processing.event.source.filter.OnAddFilter;
import io.javaoperatorsdk.operator.processing.event.source.filter.OnUpdateFilter;
import io.javaoperatorsdk.operator.processing.retry.GenericRetry;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One operator process: informer caches, the config and server reconcilers on the Java Operator
 * SDK, the admission webhook and the ops listener ({@code /metrics}, {@code /healthz}, {@code
 * /readyz}). Start order: ops listener (so {@code /healthz} answers); Versio's CRDs Established;
 * caches, with the admission webhook's TLS material and listener set up meanwhile; controllers; the
 * admission webhook registered; then ready.
 */
public final class VersioOperator implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(VersioOperator.class);
  private static final Duration CACHE_SYNC_TIMEOUT = Duration.ofMinutes(2);

  /** How long a server's {@code assignedConfigs} may lag the config changes it lists. */
  static final Duration ASSIGNED_CONFIGS_REFRESH = Duration.ofSeconds(1);

  private final OperatorMetrics metrics = new OperatorMetrics();
  private final ClusterCache cache;
  private final ScheduledExecutorService scheduler =
      Executors.newSingleThreadScheduledExecutor(
          r -> Thread.ofPlatform().name("versio-operator-fanout").daemon().unstarted(r));
  private final OpsServer ops;
  private final List<AutoCloseable> closeables = new ArrayList<>();
  private volatile boolean ready;
  private Operator operator;
  private AdmissionServer admission;
  private LeaseCoordinator coordinator;
  private TakeoverLane takeover;
  private KubernetesClient writeClient;

  private VersioOperator(KubernetesClient client, OperatorOptions options) {
    this.cache =
        new ClusterCache(client, options.xrdSupport(), options.serverPolicy().childNamespaces());
    metrics.configPhases(
        java.util.Map.of(
            "CRDConversionConfig",
            () -> cache.crdConfigs().stream().map(c -> phaseOf(c.getStatus())).toList(),
            "XRDConversionConfig",
            () -> cache.xrdConfigs().stream().map(c -> phaseOf(c.getStatus())).toList()));
    this.ops = OpsServer.start(options.host(), options.opsPort(), metrics, this::ready);
  }

  /** Starts the operator; returns once caches are synced and (if configured) admission serves. */
  public static VersioOperator start(
      KubernetesClient client, OperatorOptions options, Clock clock) {
    return start(client, options, clock, null);
  }

  /**
   * Starts the operator with {@code handoverGate} in place of the real one (null = the real one).
   * Only for harnesses that show what the gate guards against, e.g. {@link
   * HandoverGate#passThrough()}: a user has no way to switch verification off.
   */
  public static VersioOperator start(
      KubernetesClient client, OperatorOptions options, Clock clock, HandoverGate handoverGate) {
    Objects.requireNonNull(client, "client");
    var operator = new VersioOperator(client, options);
    try {
      operator.startUp(client, options, clock, handoverGate);
      return operator;
    } catch (RuntimeException e) {
      operator.close();
      throw e;
    }
  }

  private void startUp(
      KubernetesClient client, OperatorOptions options, Clock clock, HandoverGate handoverGate) {
    LOG.info(
        "versio operator: ops listener on {}:{} (/metrics, /healthz, /readyz); namespace {}",
        options.host(),
        ops.port(),
        options.namespace());
    // shard ownership: the lease loop on its own thread and client; writes through their own
    // client, whose request timeout stays below the lease margin (docs/ha.md)
    var coordination = options.coordination();
    var monotonic = new MonotonicClock();
    var coordinationMetrics = new CoordinationMetrics(metrics.registry());
    coordinator =
        new LeaseCoordinator(
            client.getConfiguration(),
            options.namespace(),
            coordination.replicaId(),
            coordination.settings(buildVersion()),
            clock,
            monotonic,
            coordinationMetrics);
    requireLeaseNamespace(client, options.namespace(), coordination.replicaId());
    var gate = new ShardWriteGate(coordinator, coordination.replicaId());
    writeClient = writeClient(client, coordination.writeTimeout());
    var writer = new ClusterWriter(writeClient, gate, clock, metrics);
    var waits = new LiveEventWaits(monotonic, coordinationMetrics::queueWait);
    takeover =
        new TakeoverLane(
            coordinator,
            waits,
            monotonic,
            coordination.takeoverResyncRate(),
            // one reconcile thread stays free for live events where there are several
            Math.max(1, options.reconcileThreads() - 1),
            options.resyncInterval(),
            coordinationMetrics::queueWait);
    coordinationMetrics.resyncBacklog(takeover::backlog);
    // what versio status --operator shows of each replica, published with its renewals
    coordinator.publishWithRenewals(
        () ->
            java.util.Map.of(
                "versio.dev/resync-backlog", Integer.toString(takeover.backlog()),
                "versio.dev/shards-held", Integer.toString(coordinator.ownedShards().size())));
    coordinator.addListener(takeover);
    var serverTriggers =
        new ConfigTriggers<ConversionWebhookServer>("server-watches", scheduler, 0);
    serverTriggers.lookUpIn(cache::server);
    // what each server's live replicas report serving; the handover gate holds moves on it
    var servedAggregator = new ServedTargetsAggregator(clock);
    var viewChanged = new CopyOnWriteArrayList<Consumer<Collection<String>>>();
    var served =
        new ServedTargetsWatch(
            servedAggregator, servers -> viewChanged.forEach(listener -> listener.accept(servers)));
    viewChanged.add(serverTriggers::now);
    var servedGate =
        new ServedHandoverGate(
            served,
            clock,
            options.handoverGrace(),
            new dev.versio.operator.gate.FrontReadiness(
                options.frontUrl(),
                options.serviceFront(),
                options.namespace(),
                cache::servers,
                servedAggregator));
    HandoverGate handover = handoverGate != null ? handoverGate : servedGate;
    operator =
        new Operator(
            o ->
                o.withKubernetesClient(client)
                    .withCloseClientOnStop(false)
                    .withMetrics(MicrometerMetricsV2.newBuilder(metrics.registry()).build())
                    .withConcurrentReconciliationThreads(options.reconcileThreads())
                    .withUseSSAToPatchPrimaryResource(false)
                    .withCacheSyncTimeout(CACHE_SYNC_TIMEOUT));
    // one storage migration at a time per replica, of either config kind
    var migrationLane = StorageMigrations.newLane();
    if (options.crdSupport()) {
      var triggers =
          new ConfigTriggers<dev.versio.api.config.CRDConversionConfig>(
              "crd-config-watches", scheduler, options.fanoutQps());
      triggers.lookUpIn(cache::crdConfig);
      new ConfigWatches<>(ConfigKind.CRD, cache, triggers, metrics, options).register();
      viewChanged.add(servedGate.onViewChanged(ConfigKind.CRD.kind(), triggers::now));
      var migrations = storageMigrations(client, clock, triggers, migrationLane);
      var reconciler =
          new CRDConfigReconciler(
              cache,
              writer,
              metrics,
              triggers,
              handover,
              options,
              migrations,
              new dev.versio.operator.config.RetirementStep(servedAggregator::versionUse),
              clock);
      register(
          new OwnedReconciler.CrdConfigs(reconciler, ConfigReconciler.FINALIZER, writer, waits),
          "crdconversionconfig",
          options,
          writer,
          waits);
      takeover.add(
          ConfigKind.CRD.kind(),
          new TakeoverLane.Source(
              () -> cache.crdConfigs().stream().map(c -> c.getMetadata().getName()).toList(),
              name -> cache.crdConfig(name).map(VersioOperator::changeNotReconciled).orElse(false),
              name -> triggers.now(List.of(name))));
      triggers.pacedThrough(name -> takeover.offer(ConfigKind.CRD.kind(), name));
    }
    if (options.xrdSupport()) {
      var triggers =
          new ConfigTriggers<dev.versio.api.config.XRDConversionConfig>(
              "xrd-config-watches", scheduler, options.fanoutQps());
      triggers.lookUpIn(cache::xrdConfig);
      new ConfigWatches<>(ConfigKind.XRD, cache, triggers, metrics, options).register();
      viewChanged.add(servedGate.onViewChanged(ConfigKind.XRD.kind(), triggers::now));
      var migrations = storageMigrations(client, clock, triggers, migrationLane);
      var reconciler =
          new XRDConfigReconciler(
              cache,
              writer,
              metrics,
              triggers,
              handover,
              options,
              migrations,
              new dev.versio.operator.config.RetirementStep(servedAggregator::versionUse),
              clock);
      register(
          new OwnedReconciler.XrdConfigs(reconciler, ConfigReconciler.FINALIZER, writer, waits),
          "xrdconversionconfig",
          options,
          writer,
          waits);
      takeover.add(
          ConfigKind.XRD.kind(),
          new TakeoverLane.Source(
              () -> cache.xrdConfigs().stream().map(c -> c.getMetadata().getName()).toList(),
              name -> cache.xrdConfig(name).map(VersioOperator::changeNotReconciled).orElse(false),
              name -> triggers.now(List.of(name))));
      triggers.pacedThrough(name -> takeover.offer(ConfigKind.XRD.kind(), name));
      cache.onXrdApiAvailable(() -> metrics.xrdApiAvailable(true));
    }
    // after both kinds' migrations (closed in this order): their runs stop, then the lane ends
    closeables.add(() -> StorageMigrations.shutDown(migrationLane));
    // assignedConfigs (names and phases) follow the config changes of either kind, at most once
    // per ASSIGNED_CONFIGS_REFRESH: a pool change moves hundreds of configs, and a server
    // reconcile per move would walk every config each time and hold back the moves' reconciles
    cache.onCrdConfig(
        (old, now, deleted) -> serverTriggers.coalesced(serverNames(), ASSIGNED_CONFIGS_REFRESH));
    cache.onXrdConfig(
        (old, now, deleted) -> serverTriggers.coalesced(serverNames(), ASSIGNED_CONFIGS_REFRESH));
    // a server's TLS Secret feeds its CertificateReady
    cache.onSecret(
        (old, now, deleted) -> {
          var name = now.getMetadata().getName();
          if (name.equals(dev.versio.operator.tls.InstallationCaSecret.NAME)) {
            serverTriggers.now(serverNames()); // a step of the CA's rotation reaches every server
          } else if (name.endsWith("-webhook-server-tls")) {
            serverTriggers.now(
                List.of(name.substring(0, name.length() - "-webhook-server-tls".length())));
          }
        });
    // DefaultConflict of one server follows the spec of the others
    cache.onServer(
        (old, now, deleted) -> {
          if (deleted
              || old == null
              || !Objects.equals(
                  old.getMetadata().getGeneration(), now.getMetadata().getGeneration())) {
            serverTriggers.now(serverNames());
          }
        });
    // a change of what a server's replicas serve reconciles the server and the moves held on it
    served.register(cache, scheduler);
    var servers =
        new ServerReconciler(
            cache, writer, serverTriggers, served, childApis(client), options, clock);
    // a change of a server's Deployment or Service reconciles the server (its status reads them);
    // an edit or delete of one makes it apply its children again, which takes the edit back
    cache.onManagedChild(
        (old, now, deleted) -> {
          var owners = now.getMetadata().getOwnerReferences();
          if (owners == null) {
            return;
          }
          boolean edited =
              deleted
                  || old == null
                  || !(now instanceof io.fabric8.kubernetes.api.model.apps.Deployment)
                  || !Objects.equals(
                      old.getMetadata().getGeneration(), now.getMetadata().getGeneration());
          owners.stream()
              .filter(o -> "ConversionWebhookServer".equals(o.getKind()))
              .forEach(
                  o -> {
                    if (edited) {
                      servers.childChanged(o.getName());
                    }
                    serverTriggers.now(List.of(o.getName()));
                  });
        });
    register(
        new OwnedReconciler.Servers(servers, ServerReconciler.FINALIZER, writer, waits),
        "conversionwebhookserver",
        options,
        writer,
        waits);
    takeover.add(
        "ConversionWebhookServer",
        new TakeoverLane.Source(
            this::serverNames,
            name ->
                cache
                    .server(name)
                    .map(
                        s ->
                            s.getStatus() == null
                                || !Objects.equals(
                                    s.getStatus().observedGeneration,
                                    s.getMetadata().getGeneration()))
                    .orElse(false),
            name -> serverTriggers.now(List.of(name))));
    // the admission webhook's TLS material and listener are set up while the caches fill; it is
    // registered once they are full
    var admissionListening =
        options.admission() == null
            ? null
            : new java.util.concurrent.FutureTask<>(
                () -> AdmissionServer.listen(client, options, clock, cache));
    if (admissionListening != null) {
      Thread.ofPlatform().name("versio-admission-start").start(admissionListening);
    }
    try {
      cache.start(CACHE_SYNC_TIMEOUT);
      metrics.xrdApiAvailable(cache.xrdApiAvailable());
      operator.start();
      // shards are taken once the caches are full: gaining them resyncs what is in the caches
      takeover.start();
      coordinator.start();
      LOG.info(
          "replica {} joins lease group {} in namespace {} ({} shards)",
          coordination.replicaId(),
          OperatorOptions.Coordination.GROUP,
          options.namespace(),
          coordination.shards());
    } catch (RuntimeException | Error e) {
      if (admissionListening != null) {
        closeOnceListening(admissionListening);
      }
      throw e;
    }
    if (admissionListening != null) {
      admission = awaitAdmission(admissionListening);
      closeables.add(admission);
      admission.register();
    }
    ready = true;
    metrics.ready(true);
    LOG.info(
        "versio operator ready: CRD configs {}, XRD configs {}{}",
        options.crdSupport() ? "on" : "off",
        options.xrdSupport() ? "on" : "off",
        options.xrdSupport() && !cache.xrdApiAvailable()
            ? " (waiting for Crossplane's XRD API)"
            : "");
  }

  /** The API versions of the children whose API moved between releases, from discovery. */
  private static ChildApis childApis(KubernetesClient client) {
    var served = new java.util.HashSet<String>();
    client
        .getApiGroups()
        .getGroups()
        .forEach(g -> g.getVersions().forEach(v -> served.add(v.getGroupVersion())));
    var apis = ChildApis.from(served);
    LOG.info(
        "webhook-server children: HPAs as {}, PDBs as {}; cert-manager {}",
        apis.hpa(),
        apis.pdb(),
        apis.certManager() ? "installed" : "not installed");
    return apis;
  }

  /**
   * The storage migrations of one config kind: a run asks {@code triggers} for a reconcile of its
   * config after each page; both kinds share {@code lane} (one run at a time per replica).
   */
  private StorageMigrations storageMigrations(
      KubernetesClient client,
      Clock clock,
      ConfigTriggers<?> triggers,
      java.util.concurrent.ExecutorService lane) {
    var migrations =
        new StorageMigrations(
            client,
            clock,
            name -> triggers.now(List.of(name)),
            metrics::storageMigrationObjects,
            lane);
    closeables.add(migrations);
    return migrations;
  }

  private List<String> serverNames() {
    return cache.servers().stream().map(s -> s.getMetadata().getName()).toList();
  }

  /**
   * Registers {@code reconciler} behind the ownership gate: events of objects whose shard another
   * replica owns are dropped before they queue; the others are timed from arrival to reconcile; the
   * finalizer is written by {@link OwnedReconciler} (JOSDK's all-events mode), so that it goes
   * through the same gate as every other write.
   */
  private <P extends HasMetadata> void register(
      OwnedReconciler<P> reconciler,
      String name,
      OperatorOptions options,
      ClusterWriter writer,
      LiveEventWaits waits) {
    GenericFilter<P> owned = writer::mayWrite;
    // arrivals are recorded only for owned objects: JOSDK may run these filters before the
    // generic one, and an arrival whose event is then dropped would hold the takeover lane back
    // and count as a wait when the object is reconciled later for another reason
    OnAddFilter<P> added =
        resource -> {
          if (writer.mayWrite(resource)) {
            waits.arrived(resource.getKind(), resource.getMetadata().getName());
          }
          return true;
        };
    OnUpdateFilter<P> meaningful =
        (now, before) -> {
          if (!meaningfulChange(before, now)) {
            return false;
          }
          if (writer.mayWrite(now)) {
            waits.arrived(now.getKind(), now.getMetadata().getName());
          }
          return true;
        };
    operator.register(
        reconciler,
        o ->
            o.withName(name)
                .withTriggerReconcilerOnAllEvents(true)
                // the periodic self-check runs through the paced takeover lane instead, so
                // that it never arrives as one burst in front of live events
                .withReconciliationMaxInterval(null)
                .withGenerationAware(false)
                .withGenericFilter(owned)
                .withOnAddFilter(added)
                .withOnUpdateFilter(meaningful)
                .withRetry(retry()));
  }

  /** The admission server once it listens; its failure to listen, rethrown. */
  private static AdmissionServer awaitAdmission(
      java.util.concurrent.FutureTask<AdmissionServer> listening) {
    try {
      return listening.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while the admission webhook started", e);
    } catch (java.util.concurrent.ExecutionException e) {
      if (e.getCause() instanceof RuntimeException runtime) {
        throw runtime;
      }
      if (e.getCause() instanceof Error error) {
        throw error;
      }
      throw new IllegalStateException(e.getCause());
    }
  }

  /**
   * When the start failed for another reason: the admission server is closed once it listens (an
   * interrupted start too, which is why this wait ignores interrupts and restores the flag after).
   */
  private static void closeOnceListening(
      java.util.concurrent.FutureTask<AdmissionServer> listening) {
    boolean interrupted = false;
    try {
      while (true) {
        try {
          listening.get().close();
          return;
        } catch (InterruptedException e) {
          interrupted = true;
        } catch (java.util.concurrent.ExecutionException e) {
          LOG.debug("the admission webhook did not start either: {}", e.getCause().toString());
          return;
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /**
   * Fails the start with what to do when the operator's namespace, where its member and shard
   * Leases live, does not exist (a dry-run create of its member Lease: no read permission on
   * namespaces needed, nothing stored).
   */
  private static void requireLeaseNamespace(
      KubernetesClient client, String namespace, String replicaId) {
    var probe =
        new io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder()
            .withNewMetadata()
            .withName(OperatorOptions.Coordination.GROUP + "-member-" + replicaId)
            .endMetadata()
            .build();
    try {
      client.leases().inNamespace(namespace).resource(probe).dryRun().create();
    } catch (io.fabric8.kubernetes.client.KubernetesClientException e) {
      if (e.getCode() == 404) {
        throw new IllegalStateException(
            "namespace "
                + namespace
                + " does not exist: the operator keeps its member and shard Leases there; create"
                + " it (kubectl create namespace "
                + namespace
                + ") or pass --namespace",
            e);
      }
      if (e.getCode() != 409) {
        throw new IllegalStateException(
            "cannot create Leases in namespace "
                + namespace
                + " ("
                + e.getMessage()
                + "): the operator needs get, list, watch, create, update and delete on"
                + " coordination.k8s.io leases there (docs/install.md)",
            e);
      }
    }
  }

  /** A client for writes only: same apiserver and credentials, a short request timeout. */
  private static KubernetesClient writeClient(KubernetesClient client, Duration timeout) {
    var config = new io.fabric8.kubernetes.client.ConfigBuilder(client.getConfiguration()).build();
    config.setRequestTimeout((int) timeout.toMillis());
    config.setRequestRetryBackoffLimit(0);
    return new io.fabric8.kubernetes.client.KubernetesClientBuilder().withConfig(config).build();
  }

  private static String buildVersion() {
    var version = VersioOperator.class.getPackage().getImplementationVersion();
    return version == null ? "dev" : version;
  }

  /** This replica's coordinator: shards held, members (for status pages and tests). */
  public LeaseCoordinator coordinator() {
    return coordinator;
  }

  /** Objects the takeover resync handed to their controller since start. */
  public long takeoverResyncs() {
    return takeover == null ? 0 : takeover.resynced();
  }

  /**
   * A failed reconcile (an apply, a revert, a status write) is retried without limit: after 1 s,
   * doubling up to one minute. A failed revert must not be given up on.
   */
  static GenericRetry retry() {
    return new GenericRetry()
        .setInitialInterval(1000)
        .setIntervalMultiplier(2)
        .setMaxInterval(60_000)
        .withoutMaxAttempts();
  }

  /**
   * Reconcile on spec changes (generation), annotation changes (the break-glass annotations are
   * read live), deletion and finalizer changes — not on our own status writes.
   */
  static boolean meaningfulChange(HasMetadata a, HasMetadata b) {
    var x = a.getMetadata();
    var y = b.getMetadata();
    return !Objects.equals(x.getGeneration(), y.getGeneration())
        || !Objects.equals(x.getAnnotations(), y.getAnnotations())
        || !Objects.equals(x.getDeletionTimestamp(), y.getDeletionTimestamp())
        || !Objects.equals(x.getFinalizers(), y.getFinalizers());
  }

  /** Ready: caches synced and admission serving. */
  public boolean ready() {
    return ready && (admission == null || admission.serving());
  }

  /** The port of the plain-HTTP ops listener. */
  public int opsPort() {
    return ops.port();
  }

  /** The port of the admission webhook's HTTPS listener, when it is served. */
  public OptionalInt admissionPort() {
    return admission == null ? OptionalInt.empty() : OptionalInt.of(admission.port());
  }

  /** A spec change the last status does not reflect yet (or no status at all). */
  private static boolean changeNotReconciled(
      io.fabric8.kubernetes.client.CustomResource<?, dev.versio.api.config.ConversionConfigStatus>
          config) {
    var status = config.getStatus();
    return status == null
        || !Objects.equals(status.observedGeneration, config.getMetadata().getGeneration());
  }

  private static String phaseOf(dev.versio.api.config.ConversionConfigStatus status) {
    return status == null ? null : status.phase;
  }

  public OperatorMetrics metrics() {
    return metrics;
  }

  @Override
  public void close() {
    ready = false;
    metrics.ready(false);
    // planned stop: hand the shards over first (the others take over at once), then stop
    if (coordinator != null) {
      coordinator.close();
    }
    if (takeover != null) {
      takeover.close();
    }
    if (operator != null) {
      try {
        operator.stop();
      } catch (RuntimeException e) {
        LOG.debug("stopping the controllers: {}", e.toString());
      }
    }
    for (var closeable : closeables) {
      try {
        closeable.close();
      } catch (Exception e) {
        LOG.debug("closing {}: {}", closeable, e.toString());
      }
    }
    scheduler.shutdownNow();
    cache.close();
    if (writeClient != null) {
      writeClient.close();
    }
    ops.close();
  }
}
