package dev.versio.webhook.sync;

import dev.versio.api.assign.ServerView;
import dev.versio.api.config.CRDConversionConfig;
import dev.versio.api.config.ConversionConfigSpec;
import dev.versio.api.config.XRDConversionConfig;
import dev.versio.api.crd.XrdApi;
import dev.versio.api.server.ConversionWebhookServer;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a replica watches, and nothing else: informers on both config kinds (optionally
 * label-selected), servers, CRDs, and XRDs once Crossplane's API exists (also when it appears
 * later), with read access to their caches. Events reach the {@link Listener} only after {@link
 * #deliver()}, i.e. once the initial sync has read the caches.
 */
final class SyncInformers implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(SyncInformers.class);
  static final String XRD_CRD = XrdApi.CRD_NAME;
  private static final io.fabric8.kubernetes.client.utils.KubernetesSerialization SERIALIZATION =
      new io.fabric8.kubernetes.client.utils.KubernetesSerialization();

  /** What a change in the cluster asks the sync to look at again. */
  interface Listener {
    void configChanged(ConfigKey key);

    /** A server changed: assignment may differ for any config. */
    void serversChanged();

    /** A CRD or XRD named {@code target} changed. */
    void targetChanged(String target);

    /** Crossplane's XRD API appeared and its cache is filled: every config is worth a look. */
    void xrdApiAppeared();
  }

  private final KubernetesClient client;
  private final String configSelector;
  private final Listener listener;
  private final List<SharedIndexInformer<?>> informers = new ArrayList<>();
  private SharedIndexInformer<CRDConversionConfig> crdConfigs;
  private SharedIndexInformer<XRDConversionConfig> xrdConfigs;
  private SharedIndexInformer<ConversionWebhookServer> servers;
  private SharedIndexInformer<CustomResourceDefinition> crds;
  private volatile SharedIndexInformer<GenericKubernetesResource> xrds;
  private volatile String xrdApiProblem; // why the installed XRD API is not watched, or null
  private volatile boolean delivering;

  SyncInformers(KubernetesClient client, String configSelector, Listener listener) {
    this.client = client;
    this.configSelector = configSelector;
    this.listener = listener;
  }

  /** Creates and starts the informers (once); they retry listing until it succeeds. */
  synchronized void start() {
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
            c -> listener.configChanged(new ConfigKey(false, c.getMetadata().getName())),
            SyncInformers::specOrDeletionChanged);
    xrdConfigs =
        informer(
            configSelector == null
                ? xrdConfigApi.runnableInformer(0)
                : xrdConfigApi.withLabelSelector(configSelector).runnableInformer(0),
            c -> listener.configChanged(new ConfigKey(true, c.getMetadata().getName())),
            SyncInformers::specOrDeletionChanged);
    servers =
        informer(
            client.resources(ConversionWebhookServer.class).runnableInformer(0),
            s -> listener.serversChanged(),
            SyncInformers::specOrDeletionChanged);
    crds =
        informer(
            client.apiextensions().v1().customResourceDefinitions().runnableInformer(0),
            crd -> {
              if (XRD_CRD.equals(crd.getMetadata().getName()) && xrds == null) {
                // Crossplane was installed after this replica started
                usableXrdApiVersion(crd).ifPresent(this::startXrdInformerLater);
              }
              listener.targetChanged(crd.getMetadata().getName());
            });
    var xrdApi = installedXrdApiVersion();
    if (xrdApi.isPresent()) {
      xrds = xrdInformer(xrdApi.get());
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

  /** From now on, changes reach the listener. */
  void deliver() {
    delivering = true;
  }

  /** Waits until every informer cache is filled; false when {@code timeout} passed first. */
  boolean awaitSynced(Duration timeout) throws InterruptedException {
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

  /** The config behind {@code key}, or null when it is not (or no longer) in the cache. */
  HasMetadata config(ConfigKey key) {
    return key.xrd()
        ? xrdConfigs.getStore().getByKey(key.name())
        : crdConfigs.getStore().getByKey(key.name());
  }

  /** The spec of {@code config}, whichever kind it is (null for null). */
  static ConversionConfigSpec specOf(HasMetadata config) {
    return switch (config) {
      case XRDConversionConfig x -> x.getSpec();
      case CRDConversionConfig c -> c.getSpec();
      case null, default -> null;
    };
  }

  /** Every config in the caches, CRD configs first, each kind sorted by name. */
  List<ConfigKey> configKeys() {
    var keys = new ArrayList<ConfigKey>();
    crdConfigs.getStore().listKeys().stream()
        .sorted()
        .forEach(k -> keys.add(new ConfigKey(false, k)));
    xrdConfigs.getStore().listKeys().stream()
        .sorted()
        .forEach(k -> keys.add(new ConfigKey(true, k)));
    return keys;
  }

  /** What the shared resolver needs to know about every server. */
  List<ServerView> serverViews() {
    return servers.getStore().list().stream().map(ServerView::of).toList();
  }

  /** Every server as cached. */
  List<ConversionWebhookServer> servers() {
    return servers.getStore().list();
  }

  ConversionWebhookServer server(String name) {
    return servers.getStore().getByKey(name);
  }

  /**
   * The live target definition: the CRD (for a CRD config) or the XRD (for an XRD config), or null
   * when it does not exist or the XRD API is not watched.
   */
  HasMetadata definition(String target, boolean xrd) {
    if (!xrd) {
      return crds.getStore().getByKey(target);
    }
    var xrdInformer = xrds;
    return xrdInformer == null ? null : xrdInformer.getStore().getByKey(target);
  }

  /** The CRD or else the XRD named {@code target}, or null. */
  HasMetadata anyDefinition(String target) {
    var definition = definition(target, false);
    return definition != null ? definition : definition(target, true);
  }

  /**
   * The {@code spec.conversion} of the CRD or else the XRD named {@code target}, as {@code
   * {"spec":{"conversion":…}}} (what {@link dev.versio.api.server.EndpointMatch} reads), or null:
   * the conversion alone is converted, not the whole definition with its schemas, since this is
   * asked for every target that moves away, every second while it drains.
   */
  com.fasterxml.jackson.databind.JsonNode conversionOf(String target) {
    var definition = anyDefinition(target);
    if (definition == null) {
      return null;
    }
    Object conversion =
        switch (definition) {
          case CustomResourceDefinition crd ->
              crd.getSpec() == null ? null : crd.getSpec().getConversion();
          case GenericKubernetesResource xrd ->
              xrd.getAdditionalProperties().get("spec") instanceof java.util.Map<?, ?> spec
                  ? spec.get("conversion")
                  : null;
          default -> null;
        };
    var view = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
    if (conversion != null) {
      view.putObject("spec")
          .set(
              "conversion",
              SERIALIZATION.convertValue(
                  conversion, com.fasterxml.jackson.databind.JsonNode.class));
    }
    return view;
  }

  /** Whether XRDs are watched (Crossplane's API is installed). */
  boolean watchingXrds() {
    return xrds != null;
  }

  /**
   * XRDs at {@code version} ({@code v2} on Crossplane 2.x, {@code v1} on 1.x). Chosen once: after
   * an upgrade from 1.x the replica keeps reading {@code v1}, which Crossplane 2.x still serves.
   */
  private SharedIndexInformer<GenericKubernetesResource> xrdInformer(String version) {
    LOG.info("watching CompositeResourceDefinitions at {}", XrdApi.apiVersion(version));
    return informer(
        client.genericKubernetesResources(XrdApi.context(version)).runnableInformer(0),
        xrd -> listener.targetChanged(xrd.getMetadata().getName()));
  }

  /** Starts watching XRDs once their API appears, then tells the listener. */
  private synchronized void startXrdInformerLater(String version) {
    if (xrds != null) {
      return;
    }
    var informer = xrdInformer(version);
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
              listener.xrdApiAppeared();
            });
  }

  /**
   * The version of Crossplane's XRD API Versio reads here; says why there is none once per reason
   * (Crossplane before 1.12).
   */
  private java.util.Optional<String> usableXrdApiVersion(CustomResourceDefinition crd) {
    var problem = XrdApi.unsupported(crd);
    if (problem.isPresent() && !problem.get().equals(xrdApiProblem)) {
      LOG.warn("{}; XRD configs are not served", problem.get());
    }
    xrdApiProblem = problem.orElse(null);
    return XrdApi.version(crd);
  }

  private java.util.Optional<String> installedXrdApiVersion() {
    try {
      var crd = client.apiextensions().v1().customResourceDefinitions().withName(XRD_CRD).get();
      return crd == null ? java.util.Optional.empty() : usableXrdApiVersion(crd);
    } catch (RuntimeException e) {
      LOG.warn(
          "cannot tell whether Crossplane's XRD API is installed ({}); XRD configs are not served",
          e.getMessage());
      return java.util.Optional.empty();
    }
  }

  private <T extends HasMetadata> SharedIndexInformer<T> informer(
      SharedIndexInformer<T> informer, Consumer<T> onChange) {
    return informer(informer, onChange, (before, after) -> true);
  }

  /**
   * Whether an update of a config or a server can change what a replica holds: its spec (its {@code
   * metadata.generation}, which a status write leaves alone) or its deletion. The replica reads
   * neither their status nor their labels and annotations (the config selector is applied by the
   * apiserver), so the operator's status writes — one per moved config in a pool change, and every
   * server's after it — are not each a look at every config again.
   */
  static boolean specOrDeletionChanged(HasMetadata before, HasMetadata after) {
    return !java.util.Objects.equals(
            before.getMetadata().getGeneration(), after.getMetadata().getGeneration())
        || !java.util.Objects.equals(
            before.getMetadata().getDeletionTimestamp(),
            after.getMetadata().getDeletionTimestamp());
  }

  private <T extends HasMetadata> SharedIndexInformer<T> informer(
      SharedIndexInformer<T> informer,
      Consumer<T> onChange,
      java.util.function.BiPredicate<T, T> changed) {
    informer.addEventHandler(
        new ResourceEventHandler<>() {
          @Override
          public void onAdd(T obj) {
            if (delivering) {
              onChange.accept(obj);
            }
          }

          @Override
          public void onUpdate(T oldObj, T newObj) {
            if (delivering && changed.test(oldObj, newObj)) {
              onChange.accept(newObj);
            }
          }

          @Override
          public void onDelete(T obj, boolean deletedFinalStateUnknown) {
            if (delivering) {
              onChange.accept(obj);
            }
          }
        });
    informers.add(informer);
    return informer;
  }

  @Override
  public void close() {
    informers.forEach(SharedIndexInformer::close);
  }
}
