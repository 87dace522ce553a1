package dev.versio.operator;

import dev.versio.api.server.ConversionWebhookServer;
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
import dev.versio.operator.metrics.OperatorMetrics;
import dev.versio.operator.ops.OpsServer;
import dev.versio.operator.served.ServedTargetsAggregator;
import dev.versio.operator.served.ServedTargetsWatch;
import dev.versio.operator.server.ServerReconciler;
import dev.versio.operator.server.children.ChildApis;
import dev.versio.operator.write.ClusterWriter;
import dev.versio.operator.write.WriteGate;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.monitoring.micrometer.MicrometerMetricsV2;
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
 * /readyz}). Start order: ops listener (so {@code /healthz} answers), caches, controllers,
 * admission, then ready.
 */
public final class VersioOperator implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(VersioOperator.class);
  private static final Duration CACHE_SYNC_TIMEOUT = Duration.ofMinutes(2);

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

  private VersioOperator(KubernetesClient client, OperatorOptions options) {
    this.cache = new ClusterCache(client, options.xrdSupport());
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
    var writer = new ClusterWriter(client, WriteGate.single(), clock, metrics);
    var serverTriggers =
        new ConfigTriggers<ConversionWebhookServer>("server-watches", scheduler, 0);
    // what each server's live replicas report serving; the handover gate holds moves on it
    var servedAggregator = new ServedTargetsAggregator(clock);
    var viewChanged = new CopyOnWriteArrayList<Consumer<Collection<String>>>();
    var served =
        new ServedTargetsWatch(
            servedAggregator, servers -> viewChanged.forEach(listener -> listener.accept(servers)));
    viewChanged.add(serverTriggers::now);
    var servedGate = new ServedHandoverGate(served, clock, options.handoverGrace());
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
    if (options.crdSupport()) {
      var triggers =
          new ConfigTriggers<dev.versio.api.config.CRDConversionConfig>(
              "crd-config-watches", scheduler, options.fanoutQps());
      new ConfigWatches<>(ConfigKind.CRD, cache, triggers, metrics, options.namespace()).register();
      viewChanged.add(servedGate.onViewChanged(ConfigKind.CRD.kind(), triggers::now));
      register(
          new CRDConfigReconciler(cache, writer, metrics, triggers, handover, options, clock),
          "crdconversionconfig",
          ConfigReconciler.FINALIZER,
          options);
    }
    if (options.xrdSupport()) {
      var triggers =
          new ConfigTriggers<dev.versio.api.config.XRDConversionConfig>(
              "xrd-config-watches", scheduler, options.fanoutQps());
      new ConfigWatches<>(ConfigKind.XRD, cache, triggers, metrics, options.namespace()).register();
      viewChanged.add(servedGate.onViewChanged(ConfigKind.XRD.kind(), triggers::now));
      register(
          new XRDConfigReconciler(cache, writer, metrics, triggers, handover, options, clock),
          "xrdconversionconfig",
          ConfigReconciler.FINALIZER,
          options);
      cache.onXrdApiAvailable(() -> metrics.xrdApiAvailable(true));
    }
    // assignedConfigs (names and phases) follow every config change of either kind
    cache.onCrdConfig((old, now, deleted) -> serverTriggers.now(serverNames()));
    cache.onXrdConfig((old, now, deleted) -> serverTriggers.now(serverNames()));
    // a server's TLS Secret feeds its CertificateReady
    cache.onSecret(
        (old, now, deleted) -> {
          var name = now.getMetadata().getName();
          if (name.endsWith("-webhook-server-tls")) {
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
    register(servers, "conversionwebhookserver", ServerReconciler.FINALIZER, options);
    cache.start(CACHE_SYNC_TIMEOUT);
    metrics.xrdApiAvailable(cache.xrdApiAvailable());
    operator.start();
    if (options.admission() != null) {
      admission = AdmissionServer.start(client, options, clock);
      closeables.add(admission);
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

  private List<String> serverNames() {
    return cache.servers().stream().map(s -> s.getMetadata().getName()).toList();
  }

  private <P extends HasMetadata> void register(
      io.javaoperatorsdk.operator.api.reconciler.Reconciler<P> reconciler,
      String name,
      String finalizer,
      OperatorOptions options) {
    OnUpdateFilter<P> meaningful = VersioOperator::meaningfulChange;
    operator.register(
        reconciler,
        o ->
            o.withName(name)
                .withFinalizer(finalizer)
                .withReconciliationMaxInterval(options.resyncInterval())
                .withGenerationAware(false)
                .withOnUpdateFilter(meaningful)
                .withRetry(retry()));
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
    ops.close();
  }
}
