package dev.versio.operator.cluster;

import dev.versio.api.config.CRDConversionConfig;
import dev.versio.api.config.XRDConversionConfig;
import dev.versio.api.crd.XrdApi;
import dev.versio.api.served.ServedTargetsCodec;
import dev.versio.api.server.ConversionWebhookServer;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The operator's view of the cluster: informer caches of target CRDs and XRDs, servers, both config
 * kinds (for assignment and uniqueness) and the servers' TLS Secrets, with indexes by target name.
 * Gates read from here, never from the apiserver; event sources subscribe here.
 *
 * <p>Crossplane's XRD API may be missing: then XRD targets read as "API not installed" and the XRD
 * informer starts when the API's CRD appears.
 */
public final class ClusterCache implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ClusterCache.class);
  public static final String XRD_API_CRD = XrdApi.CRD_NAME;
  public static final String XRD_KIND = XrdApi.KIND;
  static final String BY_TARGET = "byTarget";
  private static final String MANAGED_BY = "app.kubernetes.io/managed-by";

  private final KubernetesClient client;
  private final SharedIndexInformer<CustomResourceDefinition> crds;
  private final SharedIndexInformer<ConversionWebhookServer> servers;
  private final SharedIndexInformer<CRDConversionConfig> crdConfigs;
  private final SharedIndexInformer<XRDConversionConfig> xrdConfigs;
  private final NamespacedInformers<Secret> secrets;
  private final NamespacedInformers<io.fabric8.kubernetes.api.model.apps.Deployment>
      childDeployments;
  private final NamespacedInformers<io.fabric8.kubernetes.api.model.Service> childServices;
  private final NamespacedInformers<Lease> servedTargetLeases;
  private volatile SharedIndexInformer<GenericKubernetesResource> xrds;
  private final List<Listener<GenericKubernetesResource>> xrdListeners =
      new CopyOnWriteArrayList<>();
  private final List<Runnable> xrdApiListeners = new CopyOnWriteArrayList<>();
  private final boolean watchXrds;
  private volatile boolean closed;
  private boolean xrdInformerStarted;
  private String xrdInformerVersion; // the version the newest informer reads (guarded by this)
  private long xrdInformerGeneration; // guarded by this
  private volatile String xrdApiVersion = XrdApi.PREFERRED_VERSION;
  private volatile String xrdApiProblem;
  private static final Duration XRD_SYNC_ATTEMPT = Duration.ofSeconds(10);

  /** Receives changes of one kind of object; {@code old} is null on add, {@code now} on delete. */
  public interface Listener<T> {
    void changed(T old, T now, boolean deleted);
  }

  /** A cache of the servers' children in every namespace. */
  public ClusterCache(KubernetesClient client, boolean watchXrds) {
    this(client, watchXrds, List.of());
  }

  /**
   * @param childNamespaces where servers' children (Secrets, Deployments, Services, served-target
   *     Leases) live; empty = any namespace (then cached cluster-wide)
   */
  public ClusterCache(KubernetesClient client, boolean watchXrds, List<String> childNamespaces) {
    this.client = client;
    this.watchXrds = watchXrds;
    this.crds = client.apiextensions().v1().customResourceDefinitions().runnableInformer(0);
    this.servers = client.resources(ConversionWebhookServer.class).runnableInformer(0);
    this.crdConfigs = client.resources(CRDConversionConfig.class).runnableInformer(0);
    this.xrdConfigs = client.resources(XRDConversionConfig.class).runnableInformer(0);
    this.servedTargetLeases =
        new NamespacedInformers<>(
            childNamespaces,
            ns ->
                (ns == null ? client.leases().inAnyNamespace() : client.leases().inNamespace(ns))
                    .withLabel(ServedTargetsCodec.SERVER_LABEL)
                    .runnableInformer(0));
    this.secrets =
        new NamespacedInformers<>(
            childNamespaces,
            ns ->
                (ns == null ? client.secrets().inAnyNamespace() : client.secrets().inNamespace(ns))
                    .withLabel(MANAGED_BY, "versio-operator")
                    .runnableInformer(0));
    // the webhook servers' Deployments and Services, so an edit of one is reverted at once
    this.childDeployments =
        new NamespacedInformers<>(
            childNamespaces,
            ns ->
                (ns == null
                        ? client.apps().deployments().inAnyNamespace()
                        : client.apps().deployments().inNamespace(ns))
                    .withLabel(MANAGED_BY, "versio-operator")
                    .runnableInformer(0));
    this.childServices =
        new NamespacedInformers<>(
            childNamespaces,
            ns ->
                (ns == null
                        ? client.services().inAnyNamespace()
                        : client.services().inNamespace(ns))
                    .withLabel(MANAGED_BY, "versio-operator")
                    .runnableInformer(0));
    crdConfigs.addIndexers(
        Map.of(BY_TARGET, c -> targetKey(c.getSpec() == null ? null : c.getSpec().targetName())));
    xrdConfigs.addIndexers(
        Map.of(BY_TARGET, c -> targetKey(c.getSpec() == null ? null : c.getSpec().targetName())));
    crds.addEventHandler(
        handler(
            (old, now, deleted) -> {
              if (!deleted && XRD_API_CRD.equals(now.getMetadata().getName()) && established(now)) {
                xrdApiChanged(now);
              }
            }));
  }

  static boolean established(CustomResourceDefinition crd) {
    return crd != null
        && crd.getStatus() != null
        && crd.getStatus().getConditions() != null
        && crd.getStatus().getConditions().stream()
            .anyMatch(c -> "Established".equals(c.getType()) && "True".equals(c.getStatus()));
  }

  private static List<String> targetKey(String target) {
    return target == null ? List.of() : List.of(target);
  }

  /** Every informer but the XRDs' (which starts when Crossplane's API appears). */
  private List<SharedIndexInformer<?>> fixedInformers() {
    var out =
        new java.util.ArrayList<SharedIndexInformer<?>>(
            List.of(crds, servers, crdConfigs, xrdConfigs));
    out.addAll(secrets.informers());
    out.addAll(servedTargetLeases.informers());
    out.addAll(childDeployments.informers());
    out.addAll(childServices.informers());
    return List.copyOf(out);
  }

  /**
   * Waits until Versio's own CRDs are Established, then starts every informer and waits until the
   * caches are filled, all within {@code timeout}.
   */
  public void start(Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    OwnCrds.await(client, deadline);
    var all = fixedInformers();
    for (var informer : all) {
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
    for (var informer : all) {
      while (!informer.hasSynced()) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException(
              "the operator's caches did not fill within "
                  + timeout.toSeconds()
                  + " s; check that it may list and watch CustomResourceDefinitions and versio.dev"
                  + " objects cluster-wide, and Secrets, Services, Deployments and Leases in the"
                  + " namespaces it runs servers in (--webhook-server-namespaces)");
        }
        sleep();
      }
    }
    var xrdApi = crds.getStore().getByKey(XRD_API_CRD);
    if (xrdApi != null && established(xrdApi)) {
      xrdApiChanged(xrdApi);
    } else if (watchXrds) {
      LOG.warn(
          "Crossplane's XRD API ({}) is not installed: XRDConversionConfigs wait until it is;"
              + " the operator starts watching XRDs when it appears",
          XRD_API_CRD);
    }
  }

  private static void sleep() {
    try {
      Thread.sleep(20); // waiting for an external cache, not for test logic
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while the caches filled", e);
    }
  }

  /**
   * Crossplane's XRD API is Established (again): watch XRDs when it serves the version Versio
   * reads, else say why not once per reason and wait for Crossplane to be upgraded.
   */
  private void xrdApiChanged(CustomResourceDefinition xrdApi) {
    var problem = XrdApi.unsupported(xrdApi).orElse(null);
    var before = xrdApiProblem;
    xrdApiProblem = problem;
    var version = XrdApi.version(xrdApi);
    if (version.isPresent()) {
      startXrdInformer(version.get());
    } else if (watchXrds && !problem.equals(before)) {
      // waiting XRD configs are looked at again every --gate-requeue and then say why
      LOG.warn("{}; XRDConversionConfigs wait", problem);
    }
  }

  /**
   * Why Crossplane's XRD API, though installed, cannot be used (Crossplane before 1.12), or empty.
   */
  public Optional<String> xrdApiProblem() {
    return Optional.ofNullable(xrdApiProblem);
  }

  /**
   * The version XRDs are read and written at: {@code v2} on Crossplane 2.x, {@code v1} on 1.x (that
   * of the filled cache; {@code v2} before the API appears).
   */
  public String xrdApiVersion() {
    return xrdApiVersion;
  }

  /**
   * Watches XRDs at {@code version}; when a cache at another version exists (Crossplane upgraded
   * from 1.x, so {@code v2} is now served), it is replaced once the new one is filled.
   */
  private synchronized void startXrdInformer(String version) {
    if (!watchXrds || (xrdInformerStarted && version.equals(xrdInformerVersion))) {
      return;
    }
    LOG.info(
        "Crossplane's XRD API is installed: watching CompositeResourceDefinitions at {}{}",
        XrdApi.apiVersion(version),
        xrdInformerStarted ? " instead of " + XrdApi.apiVersion(xrdInformerVersion) : "");
    xrdInformerStarted = true;
    xrdInformerVersion = version;
    long generation = ++xrdInformerGeneration;
    Thread.ofVirtual().name("versio-xrd-cache").start(() -> fillXrdCache(version, generation));
  }

  private synchronized boolean currentXrdInformer(long generation) {
    return generation == xrdInformerGeneration;
  }

  /**
   * Starts the XRD informer and waits for its first list; an API that has just become Established
   * may still answer 404 for a moment, so an informer that has not synced within {@link
   * #XRD_SYNC_ATTEMPT} is replaced by a fresh one. The cache counts as available (and XRD configs
   * proceed) only once synced.
   */
  private void fillXrdCache(String version, long generation) {
    while (!closed && currentXrdInformer(generation)) {
      var informer = client.genericKubernetesResources(XrdApi.context(version)).runnableInformer(0);
      informer.addEventHandler(
          handler((old, now, deleted) -> xrdListeners.forEach(l -> l.changed(old, now, deleted))));
      informer.exceptionHandler(
          (started, error) -> {
            LOG.warn(
                "watching CompositeResourceDefinitions failed, retrying: {}", error.getMessage());
            return true;
          });
      try {
        informer.start();
      } catch (RuntimeException e) {
        LOG.warn("cannot start watching CompositeResourceDefinitions yet: {}", e.getMessage());
      }
      long deadline = System.nanoTime() + XRD_SYNC_ATTEMPT.toNanos();
      while (!informer.hasSynced() && System.nanoTime() < deadline && !closed) {
        sleep();
      }
      if (informer.hasSynced() && currentXrdInformer(generation)) {
        var previous = xrds;
        xrdApiVersion = version;
        xrds = informer;
        if (previous != null) {
          previous.close();
        }
        LOG.info(
            "CompositeResourceDefinitions cached at {} ({}); XRD configs proceed",
            XrdApi.apiVersion(version),
            informer.getStore().list().size());
        xrdApiListeners.forEach(Runnable::run);
        return;
      }
      informer.close();
      if (!closed && currentXrdInformer(generation)) {
        LOG.warn(
            "CompositeResourceDefinitions did not list within {} s; starting a fresh watch",
            XRD_SYNC_ATTEMPT.toSeconds());
      }
    }
  }

  /** Whether Crossplane's XRD API is installed and its cache is filled. */
  public boolean xrdApiAvailable() {
    var informer = xrds;
    return informer != null && informer.hasSynced();
  }

  public Optional<CustomResourceDefinition> crd(String name) {
    return Optional.ofNullable(crds.getStore().getByKey(name));
  }

  public Optional<GenericKubernetesResource> xrd(String name) {
    var informer = xrds;
    return informer == null
        ? Optional.empty()
        : Optional.ofNullable(informer.getStore().getByKey(name));
  }

  public Optional<ConversionWebhookServer> server(String name) {
    return Optional.ofNullable(servers.getStore().getByKey(name));
  }

  public List<ConversionWebhookServer> servers() {
    return servers.getStore().list();
  }

  public Optional<CRDConversionConfig> crdConfig(String name) {
    return Optional.ofNullable(crdConfigs.getStore().getByKey(name));
  }

  public Optional<XRDConversionConfig> xrdConfig(String name) {
    return Optional.ofNullable(xrdConfigs.getStore().getByKey(name));
  }

  public List<CRDConversionConfig> crdConfigs() {
    return crdConfigs.getStore().list();
  }

  public List<XRDConversionConfig> xrdConfigs() {
    return xrdConfigs.getStore().list();
  }

  public List<CRDConversionConfig> crdConfigsTargeting(String target) {
    return crdConfigs.getIndexer().byIndex(BY_TARGET, target);
  }

  public List<XRDConversionConfig> xrdConfigsTargeting(String target) {
    return xrdConfigs.getIndexer().byIndex(BY_TARGET, target);
  }

  /** A Deployment the operator manages (a server's replicas), from the cache. */
  public Optional<io.fabric8.kubernetes.api.model.apps.Deployment> deployment(
      String namespace, String name) {
    return childDeployments.get(namespace, name);
  }

  /** A Service the operator manages, from the cache. */
  public Optional<io.fabric8.kubernetes.api.model.Service> service(String namespace, String name) {
    return childServices.get(namespace, name);
  }

  public Optional<Secret> secret(String namespace, String name) {
    return secrets.get(namespace, name);
  }

  public void onCrd(Listener<CustomResourceDefinition> listener) {
    crds.addEventHandler(handler(listener));
  }

  public void onXrd(Listener<GenericKubernetesResource> listener) {
    xrdListeners.add(listener);
  }

  /** Runs {@code listener} once Crossplane's XRD API appears and its cache is filled. */
  public void onXrdApiAvailable(Runnable listener) {
    xrdApiListeners.add(listener);
  }

  public void onServer(Listener<ConversionWebhookServer> listener) {
    servers.addEventHandler(handler(listener));
  }

  /** The webhook-server replicas' served-target Leases (label-scoped). */
  public void onServedTargetsLease(Listener<Lease> listener) {
    servedTargetLeases.addEventHandler(handler(listener));
  }

  /** A Deployment or Service the operator manages (label-scoped) changed. */
  public void onManagedChild(Listener<HasMetadata> listener) {
    childDeployments.addEventHandler(handler(listener::changed));
    childServices.addEventHandler(handler(listener::changed));
  }

  public void onSecret(Listener<Secret> listener) {
    secrets.addEventHandler(handler(listener));
  }

  public void onCrdConfig(Listener<CRDConversionConfig> listener) {
    crdConfigs.addEventHandler(handler(listener));
  }

  public void onXrdConfig(Listener<XRDConversionConfig> listener) {
    xrdConfigs.addEventHandler(handler(listener));
  }

  /** The client the caches use, for the few direct reads a gate needs (never in a hot loop). */
  public KubernetesClient client() {
    return client;
  }

  private static <T extends HasMetadata> ResourceEventHandler<T> handler(Listener<T> listener) {
    return new ResourceEventHandler<>() {
      @Override
      public void onAdd(T obj) {
        listener.changed(null, obj, false);
      }

      @Override
      public void onUpdate(T oldObj, T newObj) {
        listener.changed(oldObj, newObj, false);
      }

      @Override
      public void onDelete(T obj, boolean deletedFinalStateUnknown) {
        listener.changed(obj, obj, true);
      }
    };
  }

  @Override
  public void close() {
    closed = true;
    for (var informer : fixedInformers()) {
      informer.close();
    }
    var informer = xrds;
    if (informer != null) {
      informer.close();
    }
  }
}
