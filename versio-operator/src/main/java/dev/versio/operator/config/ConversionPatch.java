package dev.versio.operator.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.versio.engine.json.EngineJson;
import java.util.List;
import java.util.Objects;

/**
 * The server-side-apply bodies the operator writes onto a target: only {@code spec.conversion} and
 * two annotations, so every other field of the CRD/XRD stays with its owner. Pure.
 */
public final class ConversionPatch {
  public static final String FIELD_MANAGER = "versio-operator";
  public static final String MANAGED_BY = "versio.dev/managed-by";
  public static final String PLAN_HASH = "versio.dev/plan-hash";

  private ConversionPatch() {}

  /**
   * Where the apiserver sends ConversionReviews.
   *
   * @param url the webhook URL as the status shows it
   * @param clientConfig {@code spec.conversion.webhook.clientConfig} without the caBundle
   */
  public record Endpoint(String url, String path, ObjectNode clientConfig) {
    public Endpoint {
      Objects.requireNonNull(url, "url");
      Objects.requireNonNull(path, "path");
      Objects.requireNonNull(clientConfig, "clientConfig");
    }

    /** URL mode: {@code <base>/convert/<target>}. */
    public static Endpoint url(String base, String target) {
      var path = "/convert/" + target;
      var trimmed = base.endsWith("/") ? base.substring(0, base.length() - 1) : base;
      var config = EngineJson.nodes().objectNode().put("url", trimmed + path);
      return new Endpoint(trimmed + path, path, config);
    }

    /** Service mode: the in-cluster Service of the server. */
    public static Endpoint service(String namespace, String service, int port, String target) {
      var path = "/convert/" + target;
      var config = EngineJson.nodes().objectNode();
      config
          .putObject("service")
          .put("namespace", namespace)
          .put("name", service)
          .put("path", path)
          .put("port", port);
      return new Endpoint(
          "https://" + service + "." + namespace + ".svc:" + port + path, path, config);
    }
  }

  /** The apply body that points {@code target} at {@code endpoint}. */
  public static ObjectNode apply(
      String apiVersion,
      String kind,
      String target,
      String managedBy,
      String planHash,
      Endpoint endpoint,
      String caBundle,
      List<String> reviewVersions) {
    var body = header(apiVersion, kind, target);
    var annotations = ((ObjectNode) body.get("metadata")).putObject("annotations");
    annotations.put(MANAGED_BY, managedBy);
    annotations.put(PLAN_HASH, planHash);
    var webhook =
        body.putObject("spec")
            .putObject("conversion")
            .put("strategy", "Webhook")
            .putObject("webhook");
    var clientConfig = endpoint.clientConfig().deepCopy();
    clientConfig.put("caBundle", caBundle);
    webhook.set("clientConfig", clientConfig);
    var versions = webhook.putArray("conversionReviewVersions");
    (reviewVersions == null || reviewVersions.isEmpty() ? List.of("v1") : reviewVersions)
        .forEach(versions::add);
    return body;
  }

  /**
   * The apply body that turns conversion off: only {@code strategy: None}, so apply drops the
   * webhook client config and the annotations this manager owned.
   */
  public static ObjectNode revert(String apiVersion, String kind, String target) {
    var body = header(apiVersion, kind, target);
    body.putObject("spec").putObject("conversion").put("strategy", "None");
    return body;
  }

  /** Whether the target already carries exactly {@code desired} (and the operator owns it). */
  public static boolean alreadyApplied(TargetView target, ObjectNode desired) {
    if (!target.managedByOperator()) {
      return false;
    }
    var annotations = desired.path("metadata").path("annotations");
    for (var name : List.of(MANAGED_BY, PLAN_HASH)) {
      if (!annotations.path(name).asText().equals(target.annotations().get(name))) {
        return false;
      }
    }
    JsonNode want = desired.path("spec").path("conversion");
    return EngineJson.sameValue(target.conversion(), want);
  }

  private static ObjectNode header(String apiVersion, String kind, String target) {
    var body = EngineJson.nodes().objectNode();
    body.put("apiVersion", apiVersion).put("kind", kind);
    body.putObject("metadata").put("name", target);
    return body;
  }
}
