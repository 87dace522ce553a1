package dev.versio.operator.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.versio.api.config.CRDConversionConfig;
import dev.versio.api.config.XRDConversionConfig;
import dev.versio.api.crd.XrdApi;
import dev.versio.api.server.ConversionWebhookServer;
import dev.versio.engine.json.EngineJson;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.HttpURLConnection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The cluster as the apiserver says it is right now: each list or get is made on first use and
 * remembered for the rest of one admission request (make one view per request). A Versio kind whose
 * CRD is not installed lists as empty; any other failure is {@link ClusterView.Unavailable}.
 */
final class LiveClusterView implements ClusterView {
  private final KubernetesClient client;
  private final ObjectMapper json = EngineJson.newMapper();
  private List<CRDConversionConfig> crdConfigs;
  private List<XRDConversionConfig> xrdConfigs;
  private List<ConversionWebhookServer> servers;
  private final Map<String, Optional<JsonNode>> definitions = new HashMap<>();
  private Optional<String> xrdApiVersion; // null until read

  LiveClusterView(KubernetesClient client) {
    this.client = client;
  }

  @Override
  public List<CRDConversionConfig> crdConfigs() {
    if (crdConfigs == null) {
      crdConfigs =
          list(
              "list CRDConversionConfigs",
              () -> client.resources(CRDConversionConfig.class).list().getItems());
    }
    return crdConfigs;
  }

  @Override
  public List<XRDConversionConfig> xrdConfigs() {
    if (xrdConfigs == null) {
      xrdConfigs =
          list(
              "list XRDConversionConfigs",
              () -> client.resources(XRDConversionConfig.class).list().getItems());
    }
    return xrdConfigs;
  }

  @Override
  public List<ConversionWebhookServer> servers() {
    if (servers == null) {
      servers =
          list(
              "list ConversionWebhookServers",
              () -> client.resources(ConversionWebhookServer.class).list().getItems());
    }
    return servers;
  }

  @Override
  public Optional<JsonNode> crd(String name) {
    return definitions.computeIfAbsent(
        "crd/" + name,
        k ->
            get(
                "read CustomResourceDefinition " + name,
                () ->
                    client.apiextensions().v1().customResourceDefinitions().withName(name).get()));
  }

  @Override
  public Optional<JsonNode> xrd(String name) {
    var version = xrdApiVersion();
    if (version.isEmpty()) {
      return Optional.empty(); // Crossplane's XRD API is missing or unusable: no XRD to read
    }
    return definitions.computeIfAbsent(
        "xrd/" + name,
        k ->
            get(
                "read CompositeResourceDefinition " + name,
                () ->
                    client
                        .genericKubernetesResources(XrdApi.context(version.get()))
                        .withName(name)
                        .get()));
  }

  /** The version of Crossplane's XRD API Versio uses here (read once per request). */
  private Optional<String> xrdApiVersion() {
    if (xrdApiVersion == null) {
      try {
        var api =
            client.apiextensions().v1().customResourceDefinitions().withName(XrdApi.CRD_NAME).get();
        xrdApiVersion = api == null ? Optional.empty() : XrdApi.version(api);
      } catch (KubernetesClientException e) {
        throw new Unavailable("read CustomResourceDefinition " + XrdApi.CRD_NAME, e);
      }
    }
    return xrdApiVersion;
  }

  private static <T> List<T> list(String what, Supplier<List<T>> read) {
    try {
      return List.copyOf(read.get());
    } catch (KubernetesClientException e) {
      if (e.getCode() == HttpURLConnection.HTTP_NOT_FOUND) {
        return List.of(); // the kind's CRD is not installed: there are no such objects
      }
      throw new Unavailable(what, e);
    } catch (RuntimeException e) {
      throw new Unavailable(what, e);
    }
  }

  /** The object as exact JSON; empty when it (or, for XRDs, its API) does not exist. */
  private Optional<JsonNode> get(String what, Supplier<Object> read) {
    Object object;
    try {
      object = read.get(); // null on 404
    } catch (KubernetesClientException e) {
      if (e.getCode() == HttpURLConnection.HTTP_NOT_FOUND) {
        return Optional.empty();
      }
      throw new Unavailable(what, e);
    } catch (RuntimeException e) {
      throw new Unavailable(what, e);
    }
    if (object == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(json.readTree(client.getKubernetesSerialization().asJson(object)));
    } catch (Exception e) {
      throw new Unavailable(what, e);
    }
  }
}
