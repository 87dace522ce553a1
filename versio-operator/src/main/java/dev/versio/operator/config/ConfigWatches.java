package dev.versio.operator.config;

import dev.versio.api.assign.ServerView;
import dev.versio.api.config.ConversionConfigSpec;
import dev.versio.api.config.ConversionConfigStatus;
import dev.versio.api.server.ConversionWebhookServer;
import dev.versio.engine.json.EngineJson;
import dev.versio.operator.OperatorOptions;
import dev.versio.operator.cluster.ClusterCache;
import dev.versio.operator.fanout.ConfigTriggers;
import dev.versio.operator.fanout.ServerFanout;
import dev.versio.operator.fanout.ServerFanout.ConfigRef;
import dev.versio.operator.gate.CaBundleSource;
import dev.versio.operator.metrics.OperatorMetrics;
import dev.versio.operator.migrate.GeneratedCrds;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Maps the operator's watches onto configs of one kind: a target CRD/XRD → the configs targeting it
 * (index lookup); a server change → the configs assigned to it under the old or the new view, paced
 * where their reconcile rewrites the target (unpaced where it keeps its endpoint and CA bundle, as
 * moves behind the front do); a server's TLS Secret → the configs assigned to that server, paced (a
 * rotated CA reaches every target within seconds). A mapping that fails is counted, logged and
 * dropped; the periodic resync repairs it.
 */
public final class ConfigWatches<
    C extends CustomResource<? extends ConversionConfigSpec, ConversionConfigStatus>> {
  private static final Logger LOG = LoggerFactory.getLogger(ConfigWatches.class);
  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  /** Reads JSON text into trees with the engine's number settings (immutable, shared). */
  private static final com.fasterxml.jackson.databind.ObjectReader TREES =
      EngineJson.newMapper().reader();

  private final ConfigKind<C> kind;
  private final ClusterCache cache;
  private final ConfigTriggers<C> triggers;
  private final OperatorMetrics metrics;
  private final OperatorOptions options;
  private final CaBundleSource caBundles;

  public ConfigWatches(
      ConfigKind<C> kind,
      ClusterCache cache,
      ConfigTriggers<C> triggers,
      OperatorMetrics metrics,
      OperatorOptions options) {
    this.kind = kind;
    this.cache = cache;
    this.triggers = triggers;
    this.metrics = metrics;
    this.options = options;
    this.caBundles = new CaBundleSource(cache, options.namespace());
  }

  /** Subscribes to the cache. */
  public void register() {
    if (kind.xrd()) {
      cache.onXrd((old, now, deleted) -> onTarget(old, now, deleted));
      cache.onCrd(this::onGeneratedCrd);
      cache.onXrdApiAvailable(
          () -> map("mapXrdApiToConfigs", () -> names(kind.all(cache)), triggers::now));
    } else {
      cache.onCrd((old, now, deleted) -> onTarget(old, now, deleted));
    }
    cache.onServer(this::onServer);
    cache.onSecret(
        (old, now, deleted) ->
            map("mapSecretToAssignedConfigs", () -> configsOfSecret(now), triggers::paced));
  }

  private void onTarget(HasMetadata old, HasMetadata target, boolean deleted) {
    if (!deleted && ownWrite(old, target) && !kind.xrd()) {
      // the operator's own apply: the config that wrote it has seen it already. An XRD config
      // looks again: its storage migration waits for the XRD's conversion as the cache has it
      return;
    }
    var name = target.getMetadata().getName();
    map("mapTargetToConfigs", () -> names(kind.targeting(cache, name)), triggers::now);
  }

  /**
   * A CRD Crossplane generated from a targeted XRD (the composite's or the claim's) → the configs
   * of that XRD, when what their storage migration reads of it changed: its storage version, {@code
   * storedVersions} or conversion, or it came or went.
   */
  private void onGeneratedCrd(
      CustomResourceDefinition old, CustomResourceDefinition now, boolean deleted) {
    if (!deleted && old != null && !GeneratedCrds.storageChange(old, now)) {
      return;
    }
    var name = now.getMetadata().getName();
    map(
        "mapGeneratedCrdToConfigs",
        () ->
            kind.all(cache).stream()
                .filter(c -> c.getSpec() != null && c.getSpec().targetName() != null)
                .filter(
                    c ->
                        cache
                            .xrd(c.getSpec().targetName())
                            .map(xrd -> GeneratedCrds.names(xrd).contains(name))
                            .orElse(false))
                .map(c -> c.getMetadata().getName())
                .toList(),
        triggers::now);
  }

  private void onServer(ConversionWebhookServer old, ConversionWebhookServer now, boolean deleted) {
    if (!deleted && old != null && !relevantChange(old, now)) {
      return;
    }
    map(
        deleted ? "mapServerToAssignedConfigs" : "mapServerTransitionToAssignedConfigs",
        () -> {
          var name = now.getMetadata().getName();
          var others =
              cache.servers().stream()
                  .filter(s -> !s.getMetadata().getName().equals(name))
                  .map(ServerView::of)
                  .toList();
          var before = deleted ? ServerView.of(now) : old == null ? null : ServerView.of(old);
          var after = deleted ? null : ServerView.of(now);
          return ServerFanout.affected(refs(), others, before, after);
        },
        this::paceTargetWrites);
  }

  /**
   * A server change's configs: those that keep their endpoint and CA bundle (a move inside the pool
   * behind the shared front writes status only) go unpaced through the lane; the others, whose
   * reconcile rewrites the target CRD, are spread at {@code --fanout-qps}.
   */
  private void paceTargetWrites(List<String> names) {
    var servers = cache.servers();
    var byName = new java.util.HashMap<String, C>();
    kind.all(cache).forEach(c -> byName.put(c.getMetadata().getName(), c));
    var bundles = new java.util.HashMap<String, CaBundleSource.Result>();
    Function<ConversionWebhookServer, CaBundleSource.Result> bundleOf =
        server ->
            bundles.computeIfAbsent(server.getMetadata().getName(), n -> bundleOrMissing(server));
    var keeping = new java.util.ArrayList<String>();
    var moving = new java.util.ArrayList<String>();
    for (var name : names) {
      var config = byName.get(name);
      boolean keeps =
          config != null
              && config.getSpec() != null
              && keepsEndpoint(
                  config.getSpec(),
                  config.getStatus(),
                  appliedCaBundle(config.getSpec().targetName()),
                  servers,
                  options,
                  bundleOf);
      (keeps ? keeping : moving).add(name);
    }
    triggers.unpaced(keeping);
    triggers.paced(moving);
  }

  /**
   * The server's CA bundle; a Secret that cannot be read now (its live read failed) counts as
   * unknown, so its configs are paced rather than the whole fan-out dropped.
   */
  private CaBundleSource.Result bundleOrMissing(ConversionWebhookServer server) {
    try {
      return caBundles.bundle(server);
    } catch (RuntimeException e) {
      return new CaBundleSource.Result.Missing("cannot read the CA bundle: " + e.getMessage());
    }
  }

  /** The CA bundle the target's conversion carries now, or null. */
  private String appliedCaBundle(String target) {
    if (target == null) {
      return null;
    }
    return kind.target(cache, target)
        .map(t -> t.conversion().path("webhook").path("clientConfig").path("caBundle"))
        .filter(node -> node.isTextual())
        .map(node -> node.asText())
        .orElse(null);
  }

  /**
   * Whether the config, applied before, resolves among {@code servers} to an endpoint equal to the
   * one it applied and to a CA bundle equal to the one the target carries ({@code
   * appliedCaBundle}): its reconcile then writes no target (a move inside the pool behind the
   * front).
   */
  static boolean keepsEndpoint(
      ConversionConfigSpec spec,
      ConversionConfigStatus status,
      String appliedCaBundle,
      java.util.Collection<ConversionWebhookServer> servers,
      OperatorOptions options,
      Function<ConversionWebhookServer, CaBundleSource.Result> bundles) {
    if (spec == null
        || spec.targetName() == null
        || status == null
        || status.webhookURL == null
        || appliedCaBundle == null) {
      return false;
    }
    var assignment =
        dev.versio.api.assign.AssignmentResolver.resolve(
            spec.webhookServerRef == null ? null : spec.webhookServerRef.name,
            spec.targetName(),
            servers.stream().map(ServerView::of).toList());
    if (!(assignment instanceof dev.versio.api.assign.Assignment.Assigned assigned)) {
      return false;
    }
    return servers.stream()
        .filter(s -> s.getMetadata().getName().equals(assigned.server()))
        .findFirst()
        .map(
            s ->
                ConfigEndpoint.of(s, spec.targetName(), options).url().equals(status.webhookURL)
                    && bundles.apply(s) instanceof CaBundleSource.Result.Found found
                    && found.base64().equals(appliedCaBundle.trim()))
        .orElse(false);
  }

  private List<String> configsOfSecret(io.fabric8.kubernetes.api.model.Secret secret) {
    var secretName = secret.getMetadata().getName();
    var suffix = "-webhook-server-tls";
    if (!secretName.endsWith(suffix)) {
      return List.of();
    }
    var serverName = secretName.substring(0, secretName.length() - suffix.length());
    var server = cache.server(serverName);
    if (server.isEmpty()
        || !CaBundleSource.namespaceOf(server.get(), options.namespace())
            .equals(secret.getMetadata().getNamespace())) {
      return List.of();
    }
    var views = cache.servers().stream().map(ServerView::of).toList();
    return ServerFanout.assignedTo(refs(), views, serverName);
  }

  /**
   * Whether this update of a target is the operator's own write: the write stamp {@code
   * versio.dev/written-by} changed with it, which only the operator's writes do (an edit by anyone
   * else leaves the stamp as it was, so drift is still seen). The periodic self-check covers the
   * rare event that folds a foreign change into the same update.
   */
  static boolean ownWrite(HasMetadata old, HasMetadata now) {
    if (old == null || now == null) {
      return false;
    }
    var before = stamp(old);
    var after = stamp(now);
    return after != null && !after.equals(before);
  }

  private static String stamp(HasMetadata object) {
    var annotations = object.getMetadata().getAnnotations();
    return annotations == null
        ? null
        : annotations.get(dev.versio.operator.write.WriteStamp.ANNOTATION);
  }

  /**
   * Whether a server update matters to configs: its spec, or what the server-ready gate reads
   * (conditions, ready replicas, endpoint) — not {@code assignedConfigs}, which configs change.
   */
  static boolean relevantChange(ConversionWebhookServer old, ConversionWebhookServer now) {
    if (!Objects.equals(old.getMetadata().getGeneration(), now.getMetadata().getGeneration())) {
      return true;
    }
    return !EngineJson.sameValue(signal(old), signal(now));
  }

  private static com.fasterxml.jackson.databind.JsonNode signal(ConversionWebhookServer server) {
    var node = EngineJson.nodes().objectNode();
    node.set("spec", tree(server.getSpec()));
    var status = server.getStatus();
    if (status != null) {
      var conditions = node.putArray("conditions");
      for (var c : status.conditions) {
        conditions.addObject().put("type", c.getType()).put("status", c.getStatus());
      }
      node.put("readyReplicas", status.readyReplicas == null ? 0 : status.readyReplicas);
      node.put("endpoint", status.endpoint);
    }
    return node;
  }

  private static com.fasterxml.jackson.databind.JsonNode tree(Object value) {
    try {
      return TREES.readTree(SERIALIZATION.asJson(value));
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private List<ConfigRef> refs() {
    return kind.all(cache).stream()
        .map(
            c ->
                new ConfigRef(
                    c.getMetadata().getName(),
                    c.getSpec() == null || c.getSpec().webhookServerRef == null
                        ? null
                        : c.getSpec().webhookServerRef.name,
                    c.getSpec() == null ? null : c.getSpec().targetName()))
        .toList();
  }

  private static List<String> names(List<? extends HasMetadata> configs) {
    return configs.stream().map(c -> c.getMetadata().getName()).toList();
  }

  private void map(
      String function,
      Supplier<List<String>> mapping,
      java.util.function.Consumer<List<String>> enqueue) {
    var qualified = kind.label() + "conversionconfig." + function;
    List<String> names;
    try {
      names = mapping.get();
    } catch (RuntimeException e) {
      metrics.watchMapListError(qualified);
      LOG.warn(
          "{}: cannot map the event to configs (the periodic resync repairs it): {}",
          qualified,
          e.toString());
      return;
    }
    enqueue.accept(names);
  }
}
