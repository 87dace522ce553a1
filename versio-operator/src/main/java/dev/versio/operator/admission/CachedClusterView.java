package dev.versio.operator.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.versio.api.config.CRDConversionConfig;
import dev.versio.api.config.XRDConversionConfig;
import dev.versio.api.server.ConversionWebhookServer;
import dev.versio.engine.json.EngineJson;
import dev.versio.operator.cluster.ClusterCache;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.List;
import java.util.Optional;

/**
 * The cluster as this operator replica's informers hold it: the caches every replica keeps warm
 * (and is Ready only once they are synced), so an admission call reads memory instead of listing
 * every config from the apiserver. The caches follow the apiserver within the watch latency; two
 * objects that clash and are created within that window can both be admitted, as they can with a
 * live list (the list is taken before either is stored).
 */
final class CachedClusterView implements ClusterView {
  private final ClusterCache cache;
  private final KubernetesSerialization serialization;
  private final ObjectMapper json = EngineJson.newMapper();

  CachedClusterView(ClusterCache cache, KubernetesSerialization serialization) {
    this.cache = cache;
    this.serialization = serialization;
  }

  @Override
  public List<CRDConversionConfig> crdConfigs() {
    return cache.crdConfigs();
  }

  @Override
  public List<XRDConversionConfig> xrdConfigs() {
    return cache.xrdConfigs();
  }

  @Override
  public List<ConversionWebhookServer> servers() {
    return cache.servers();
  }

  @Override
  public Optional<JsonNode> crd(String name) {
    return cache.crd(name).map(crd -> tree("CustomResourceDefinition " + name, crd));
  }

  @Override
  public Optional<JsonNode> xrd(String name) {
    return cache.xrd(name).map(xrd -> tree("CompositeResourceDefinition " + name, xrd));
  }

  private JsonNode tree(String what, Object object) {
    try {
      return json.readTree(serialization.asJson(object));
    } catch (Exception e) {
      throw new Unavailable("read " + what, e);
    }
  }
}
