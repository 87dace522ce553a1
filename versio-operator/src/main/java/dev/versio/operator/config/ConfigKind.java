package dev.versio.operator.config;

import com.fasterxml.jackson.databind.JsonNode;
import dev.versio.api.config.CRDConversionConfig;
import dev.versio.api.config.ConversionConfigSpec;
import dev.versio.api.config.ConversionConfigStatus;
import dev.versio.api.config.XRDConversionConfig;
import dev.versio.operator.cluster.ClusterCache;
import dev.versio.operator.migrate.GeneratedCrds;
import dev.versio.operator.migrate.MigrationTarget;
import dev.versio.operator.migrate.StorageTarget;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.util.List;
import java.util.Optional;

/**
 * What differs between the two config kinds: the Java type, the target API, and where the target is
 * cached. Everything else (gates, status, delete flow) is shared.
 */
public sealed interface ConfigKind<
    C extends CustomResource<? extends ConversionConfigSpec, ConversionConfigStatus>> {
  ConfigKind<CRDConversionConfig> CRD = new Crd();
  ConfigKind<XRDConversionConfig> XRD = new Xrd();

  Class<C> type();

  /** {@code crd} or {@code xrd}: the {@code config_kind} metric label. */
  String label();

  /** The config's Kubernetes kind. */
  String kind();

  /** What the target is called in messages: "CRD" or "XRD". */
  String targetNoun();

  String targetApiVersion(ClusterCache cache);

  String targetKind();

  boolean xrd();

  /** The target's API, named explicitly (no discovery round trip). */
  ResourceDefinitionContext targetContext(ClusterCache cache);

  /** The target from the cache; empty when missing. */
  Optional<TargetView> target(ClusterCache cache, String name);

  /** Configs of this kind targeting {@code target} (index lookup). */
  List<C> targeting(ClusterCache cache, String target);

  /** Every config of this kind in the cache. */
  List<C> all(ClusterCache cache);

  /**
   * The CRDs a storage migration of {@code target} re-stores (a CRD: itself; an XRD: the CRDs
   * Crossplane generated from it), from the cache; empty when there is nothing to re-store.
   */
  Optional<MigrationTarget> migrationTarget(ClusterCache cache, TargetView target);

  /**
   * The target's versions as a CRD states them ({@code spec.versions[].{name, served, storage,
   * deprecated}}, {@code status.storedVersions}); an XRD's from the XRD and the CRDs Crossplane
   * generated from it. Empty when nothing is stored yet.
   */
  Optional<JsonNode> versionsView(ClusterCache cache, TargetView target);

  /** CRDConversionConfig → CustomResourceDefinition. */
  record Crd() implements ConfigKind<CRDConversionConfig> {
    @Override
    public Class<CRDConversionConfig> type() {
      return CRDConversionConfig.class;
    }

    @Override
    public String label() {
      return "crd";
    }

    @Override
    public String kind() {
      return "CRDConversionConfig";
    }

    @Override
    public String targetNoun() {
      return "CRD";
    }

    @Override
    public String targetApiVersion(ClusterCache cache) {
      return "apiextensions.k8s.io/v1";
    }

    @Override
    public String targetKind() {
      return "CustomResourceDefinition";
    }

    @Override
    public boolean xrd() {
      return false;
    }

    @Override
    public ResourceDefinitionContext targetContext(ClusterCache cache) {
      return new ResourceDefinitionContext.Builder()
          .withGroup("apiextensions.k8s.io")
          .withVersion("v1")
          .withKind("CustomResourceDefinition")
          .withPlural("customresourcedefinitions")
          .withNamespaced(false)
          .build();
    }

    @Override
    public Optional<TargetView> target(ClusterCache cache, String name) {
      return cache.crd(name).map(TargetView::of);
    }

    @Override
    public List<CRDConversionConfig> targeting(ClusterCache cache, String target) {
      return cache.crdConfigsTargeting(target);
    }

    @Override
    public List<CRDConversionConfig> all(ClusterCache cache) {
      return cache.crdConfigs();
    }

    @Override
    public Optional<MigrationTarget> migrationTarget(ClusterCache cache, TargetView target) {
      return StorageTarget.of(target.json()).map(MigrationTarget::of);
    }

    @Override
    public Optional<JsonNode> versionsView(ClusterCache cache, TargetView target) {
      return Optional.of(target.json());
    }
  }

  /** XRDConversionConfig → Crossplane CompositeResourceDefinition. */
  record Xrd() implements ConfigKind<XRDConversionConfig> {
    @Override
    public Class<XRDConversionConfig> type() {
      return XRDConversionConfig.class;
    }

    @Override
    public String label() {
      return "xrd";
    }

    @Override
    public String kind() {
      return "XRDConversionConfig";
    }

    @Override
    public String targetNoun() {
      return "XRD";
    }

    @Override
    public String targetApiVersion(ClusterCache cache) {
      return dev.versio.api.crd.XrdApi.apiVersion(cache.xrdApiVersion());
    }

    @Override
    public String targetKind() {
      return ClusterCache.XRD_KIND;
    }

    @Override
    public boolean xrd() {
      return true;
    }

    @Override
    public ResourceDefinitionContext targetContext(ClusterCache cache) {
      return dev.versio.api.crd.XrdApi.context(cache.xrdApiVersion());
    }

    @Override
    public Optional<TargetView> target(ClusterCache cache, String name) {
      // objects stored at a version the XRD no longer serves still need the conversion: the
      // delete guard and the revert count the generated CRDs' storedVersions too
      return cache
          .xrd(name)
          .map(TargetView::of)
          .map(
              view ->
                  view.alsoInUse(
                      GeneratedCrds.names(view.json()).stream()
                          .flatMap(crd -> cache.crd(crd).stream())
                          .filter(
                              crd ->
                                  crd.getStatus() != null
                                      && crd.getStatus().getStoredVersions() != null)
                          .flatMap(crd -> crd.getStatus().getStoredVersions().stream())
                          .toList()));
    }

    @Override
    public List<XRDConversionConfig> targeting(ClusterCache cache, String target) {
      return cache.xrdConfigsTargeting(target);
    }

    @Override
    public List<XRDConversionConfig> all(ClusterCache cache) {
      return cache.xrdConfigs();
    }

    @Override
    public Optional<MigrationTarget> migrationTarget(ClusterCache cache, TargetView target) {
      return GeneratedCrds.target(target.json(), generated(cache));
    }

    @Override
    public Optional<JsonNode> versionsView(ClusterCache cache, TargetView target) {
      return GeneratedCrds.versionsView(target.json(), generated(cache));
    }

    private static java.util.function.Function<String, Optional<JsonNode>> generated(
        ClusterCache cache) {
      return name -> cache.crd(name).map(crd -> TargetView.of(crd).json());
    }
  }
}
