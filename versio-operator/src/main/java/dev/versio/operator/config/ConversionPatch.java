package dev.versio.operator.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.versio.engine.json.EngineJson;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The server-side-apply bodies the operator writes onto a target: only {@code spec.conversion} and
 * two annotations, so every other field of the CRD/XRD stays with its owner; and the JSON Patch
 * that finishes a revert when another field manager keeps the webhook. Pure.
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
   * webhook client config and the annotations this manager owned — those no other manager owns as
   * well; {@link #webhookRemoval} removes what is left.
   */
  public static ObjectNode revert(String apiVersion, String kind, String target) {
    var body = header(apiVersion, kind, target);
    body.putObject("spec").putObject("conversion").put("strategy", "None");
    return body;
  }

  /**
   * The JSON Patch that finishes a revert which the server-side apply of {@link #revert} could not
   * finish: another field manager also owns part of {@code spec.conversion} (client-side {@code
   * kubectl apply} or {@code kubectl edit} of the target: Update operations own what they set), so
   * apply keeps the webhook fields that manager owns. The apiserver then refuses a CRD with {@code
   * strategy: None} and a webhook; an XRD keeps it. The patch sets {@code strategy: None}, removes
   * {@code spec.conversion.webhook} and the two annotations when they name {@code managedBy}, all
   * in one request; each operation is preceded by a {@code test} of the value it replaces, so a
   * concurrent change by anyone else makes the patch fail (and the revert retry) instead of being
   * overwritten.
   *
   * @param target the target as the apiserver has it now (JSON)
   * @param managedBy {@code <config kind>/<config name>}, as {@link #apply} wrote it
   * @return empty when the target has no webhook (nothing left to remove)
   */
  public static Optional<ArrayNode> webhookRemoval(JsonNode target, String managedBy) {
    var conversion = target.path("spec").path("conversion");
    if (!conversion.has("webhook")) {
      return Optional.empty();
    }
    var patch = EngineJson.nodes().arrayNode();
    if (conversion.has("strategy")) {
      test(patch, "/spec/conversion/strategy", conversion.get("strategy"));
      patch
          .addObject()
          .put("op", "replace")
          .put("path", "/spec/conversion/strategy")
          .put("value", "None");
    } else {
      patch
          .addObject()
          .put("op", "add")
          .put("path", "/spec/conversion/strategy")
          .put("value", "None");
    }
    test(patch, "/spec/conversion/webhook", conversion.get("webhook"));
    patch.addObject().put("op", "remove").put("path", "/spec/conversion/webhook");
    var annotations = target.path("metadata").path("annotations");
    if (managedBy.equals(annotations.path(MANAGED_BY).asText(null))) {
      for (var name : List.of(MANAGED_BY, PLAN_HASH)) {
        if (annotations.has(name)) {
          var path = "/metadata/annotations/" + pointerToken(name);
          test(patch, path, annotations.get(name));
          patch.addObject().put("op", "remove").put("path", path);
        }
      }
    }
    return Optional.of(patch);
  }

  /**
   * A JSON Patch that replaces a clientConfig another field manager put on the target with the one
   * of {@code applyBody} when it holds an endpoint of the other kind ({@code url} where Versio
   * points at a Service, {@code service} where it points at a URL), or empty. Server-side apply
   * cannot drop a field it does not own, and the apiserver refuses a clientConfig holding both:
   * taking over a webhook someone else set up would fail forever. A field Versio's own apply owns
   * is left to the apply (no extra write).
   */
  public static Optional<ArrayNode> foreignEndpointReplacement(
      JsonNode target, ObjectNode applyBody) {
    var live = target.path("spec").path("conversion").path("webhook").path("clientConfig");
    var wanted = applyBody.path("spec").path("conversion").path("webhook").path("clientConfig");
    for (var field : List.of("url", "service")) {
      if (live.has(field) && !wanted.has(field) && !ownedByApply(target, field)) {
        var patch = EngineJson.nodes().arrayNode();
        var path = "/spec/conversion/webhook/clientConfig";
        test(patch, path, live);
        patch.addObject().put("op", "replace").put("path", path).set("value", wanted.deepCopy());
        return Optional.of(patch);
      }
    }
    return Optional.empty();
  }

  private static boolean ownedByApply(JsonNode target, String clientConfigField) {
    for (var entry : target.path("metadata").path("managedFields")) {
      if (FIELD_MANAGER.equals(entry.path("manager").asText(""))
          && "Apply".equals(entry.path("operation").asText(""))
          && entry
              .path("fieldsV1")
              .path("f:spec")
              .path("f:conversion")
              .path("f:webhook")
              .path("f:clientConfig")
              .has("f:" + clientConfigField)) {
        return true;
      }
    }
    return false;
  }

  /**
   * The field managers other than the operator's apply that own part of the target's {@code
   * spec.conversion}, as {@code manager/Operation} (for messages: why apply could not revert).
   */
  public static List<String> otherConversionOwners(JsonNode target) {
    var owners = new ArrayList<String>();
    for (var entry : target.path("metadata").path("managedFields")) {
      var manager = entry.path("manager").asText("");
      var operation = entry.path("operation").asText("");
      if (FIELD_MANAGER.equals(manager) && "Apply".equals(operation)) {
        continue;
      }
      if (entry.path("fieldsV1").path("f:spec").has("f:conversion")) {
        owners.add(manager + "/" + operation);
      }
    }
    return owners;
  }

  private static void test(ArrayNode patch, String path, JsonNode value) {
    patch.addObject().put("op", "test").put("path", path).set("value", value.deepCopy());
  }

  /** A JSON Pointer reference token (RFC 6901): {@code ~} and {@code /} escaped. */
  private static String pointerToken(String name) {
    return name.replace("~", "~0").replace("/", "~1");
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
