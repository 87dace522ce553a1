package dev.versio.operator.admission;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.versio.api.ApiGroup;
import dev.versio.api.config.CRDConversionConfig;
import dev.versio.api.config.XRDConversionConfig;
import dev.versio.api.server.ConversionWebhookServer;
import dev.versio.engine.json.EngineJson;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns the bytes of an {@code admission.k8s.io/v1} AdmissionReview into the bytes of the answer,
 * with no HTTP in sight: the review is checked (a malformed one is a 400 with a message), the
 * object decoded, the matching validator run against a fresh {@link ClusterView}, and its verdict
 * written back with the request's uid. A failed cluster read or an unexpected error denies:
 * admission of Versio's own kinds fails closed.
 */
public final class AdmissionProcessor {
  private static final Logger LOG = LoggerFactory.getLogger(AdmissionProcessor.class);
  private static final String REVIEW_API_VERSION = "admission.k8s.io/v1";

  private final ObjectMapper json =
      EngineJson.newMapper().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
  private final KubernetesSerialization kubernetes = new KubernetesSerialization();
  private final ConfigValidator configs;
  private final ServerValidator servers;
  private final Supplier<? extends ClusterView> cluster;
  private final Supplier<? extends ClusterView> confirmDenials;

  /**
   * @param configs the config rules (knows which kinds are enabled)
   * @param servers the server rules (knows what the operator may run)
   * @param cluster makes a view of the cluster for one request
   */
  public AdmissionProcessor(
      ConfigValidator configs, ServerValidator servers, Supplier<? extends ClusterView> cluster) {
    this(configs, servers, cluster, null);
  }

  /**
   * @param configs the config rules (knows which kinds are enabled)
   * @param servers the server rules (knows what the operator may run)
   * @param cluster makes a view of the cluster for one request (e.g. the informer caches)
   * @param confirmDenials makes the view a denial is checked against again before it is answered
   *     (the apiserver), or null: a cache can lag a write the same client made just before (set
   *     {@code spec.default: false} on one server, then {@code true} on another), and a request
   *     must not be refused for a state the cluster has already left
   */
  public AdmissionProcessor(
      ConfigValidator configs,
      ServerValidator servers,
      Supplier<? extends ClusterView> cluster,
      Supplier<? extends ClusterView> confirmDenials) {
    this.configs = Objects.requireNonNull(configs, "configs");
    this.servers = Objects.requireNonNull(servers, "servers");
    this.cluster = Objects.requireNonNull(cluster, "cluster");
    this.confirmDenials = confirmDenials;
  }

  /**
   * What to answer.
   *
   * @param status the HTTP status
   * @param contentType the body's content type
   * @param body the body
   */
  public record Outcome(int status, String contentType, byte[] body) {
    static Outcome text(int status, String text) {
      return new Outcome(
          status, "text/plain; charset=utf-8", (text + "\n").getBytes(StandardCharsets.UTF_8));
    }

    /** The body as text (for logs and tests). */
    public String bodyText() {
      return new String(body, StandardCharsets.UTF_8);
    }
  }

  /** Processes one review posted to {@code path}. Never throws. */
  public Outcome process(String path, byte[] body) {
    var webhook = WebhookRegistration.Webhook.byPath(path);
    if (webhook == null) {
      return Outcome.text(
          404, "not found: admission reviews are served at " + WebhookRegistration.paths());
    }
    JsonNode review;
    try {
      review = json.readTree(body);
    } catch (IOException e) {
      return Outcome.text(400, "the request body is not JSON: " + shortMessage(e));
    }
    if (review == null || !review.isObject()) {
      return Outcome.text(400, "the request body must be a JSON AdmissionReview object");
    }
    var apiVersion = review.path("apiVersion").asText("");
    var kind = review.path("kind").asText("");
    if (!REVIEW_API_VERSION.equals(apiVersion) || !"AdmissionReview".equals(kind)) {
      return Outcome.text(
          400,
          "expected an "
              + REVIEW_API_VERSION
              + " AdmissionReview, found "
              + (kind.isEmpty() ? "no kind" : kind)
              + " "
              + (apiVersion.isEmpty() ? "(no apiVersion)" : apiVersion)
              + "; register this webhook with admissionReviewVersions: [v1]");
    }
    var request = review.path("request");
    var uid = request.path("uid");
    if (!request.isObject() || !uid.isTextual() || uid.asText().isBlank()) {
      return Outcome.text(400, "the AdmissionReview has no request.uid");
    }
    Verdict verdict;
    try {
      verdict = decide(webhook, request);
    } catch (RuntimeException e) {
      LOG.error("unexpected error admitting request {} at {}", uid.asText(), path, e);
      verdict =
          Verdict.deny(
              webhook.kind()
                  + "/"
                  + request.path("name").asText("")
                  + ": internal error while validating ("
                  + e
                  + "); the request is refused because the check could not be made; retry, and"
                  + " report it if it persists");
    }
    return new Outcome(200, "application/json", answer(uid.asText(), verdict));
  }

  private Verdict decide(WebhookRegistration.Webhook webhook, JsonNode request) {
    var operation = request.path("operation").asText("");
    var requestKind = request.path("kind");
    if (!ApiGroup.GROUP.equals(requestKind.path("group").asText())
        || !webhook.kind().equals(requestKind.path("kind").asText())) {
      return Verdict.deny(
          "this admission endpoint validates only "
              + webhook.kind()
              + " objects, but received "
              + requestKind.path("kind").asText("?")
              + " ("
              + requestKind.path("group").asText("?")
              + "); fix the ValidatingWebhookConfiguration's rules");
    }
    var object = request.path("object");
    var oldObject = request.path("oldObject");
    var name = request.path("name").asText("");
    if (name.isEmpty()) {
      name = (object.isObject() ? object : oldObject).path("metadata").path("name").asText("");
    }
    var self = webhook.kind() + "/" + name;
    switch (operation) {
      case "CREATE", "UPDATE" -> {
        if (!object.isObject()) {
          return Verdict.deny(self + ": the AdmissionReview carries no request.object");
        }
        if ("UPDATE".equals(operation) && metadataOnly(object, oldObject)) {
          return Verdict.allow(); // finalizers, labels, annotations: the spec was admitted before
        }
      }
      case "DELETE" -> {
        if (webhook != WebhookRegistration.Webhook.SERVER) {
          return Verdict.allow(); // a config's finalizer guards its deletion
        }
        if (!oldObject.isObject()) {
          return Verdict.deny(
              self
                  + ": the AdmissionReview carries no request.oldObject, so the delete guard"
                  + " cannot run; retry");
        }
      }
      default -> {
        return Verdict.allow();
      }
    }
    try {
      var verdict = validate(webhook, operation, name, self, object, oldObject, cluster.get());
      if (verdict.allowed() || confirmDenials == null) {
        return verdict;
      }
      var confirmed =
          validate(webhook, operation, name, self, object, oldObject, confirmDenials.get());
      if (confirmed.allowed()) {
        LOG.debug("{}: denied from the cache, allowed by the apiserver's current state", self);
      }
      return confirmed;
    } catch (ClusterView.Unavailable e) {
      return Verdict.deny(
          self
              + ": the admission check could not be made: "
              + e.getMessage()
              + "; the request is refused (fail closed): retry, and check the operator's"
              + " permissions and the apiserver if it persists");
    } catch (Undecodable e) {
      return Verdict.deny(e.getMessage());
    }
  }

  /** The validator's verdict on {@code object} against {@code view}. */
  private Verdict validate(
      WebhookRegistration.Webhook webhook,
      String operation,
      String name,
      String self,
      JsonNode object,
      JsonNode oldObject,
      ClusterView view) {
    return switch (webhook) {
      case CRD_CONFIG ->
          configs.validate(
              AdmittedConfigKind.CRD,
              name,
              previousTarget(oldObject, "targetCRD"),
              decode(object, CRDConversionConfig.class, self).getSpec(),
              view);
      case XRD_CONFIG ->
          configs.validate(
              AdmittedConfigKind.XRD,
              name,
              previousTarget(oldObject, "targetXRD"),
              decode(object, XRDConversionConfig.class, self).getSpec(),
              view);
      case SERVER ->
          "DELETE".equals(operation)
              ? servers.validateDelete(decode(oldObject, ConversionWebhookServer.class, self), view)
              : servers.validateWrite(decode(object, ConversionWebhookServer.class, self), view);
    };
  }

  /** The target name of the stored object on an UPDATE; null on CREATE. */
  private static String previousTarget(JsonNode oldObject, String field) {
    var name = oldObject.path("spec").path(field).path("name");
    return name.isTextual() ? name.asText() : null;
  }

  private <T> T decode(JsonNode object, Class<T> type, String self) {
    try {
      // fabric8's own mapper: it knows the Kubernetes value types (IntOrString, Quantity)
      return kubernetes.unmarshal(json.writeValueAsString(object), type);
    } catch (JsonProcessingException | IllegalArgumentException e) {
      throw new Undecodable(
          self + ": the object cannot be read as " + type.getSimpleName() + ": " + shortMessage(e));
    } catch (KubernetesClientException e) {
      // fabric8 wraps Jackson's message; the cause says which field
      var cause = e.getCause() instanceof Exception inner ? inner : e;
      throw new Undecodable(
          self
              + ": the object cannot be read as "
              + type.getSimpleName()
              + ": "
              + shortMessage(cause));
    }
  }

  /** An UPDATE that leaves the spec alone, or touches an object already being deleted. */
  private static boolean metadataOnly(JsonNode object, JsonNode oldObject) {
    if (object.path("metadata").hasNonNull("deletionTimestamp")) {
      return true;
    }
    return oldObject.isObject() && object.path("spec").equals(oldObject.path("spec"));
  }

  private byte[] answer(String uid, Verdict verdict) {
    ObjectNode out = json.createObjectNode();
    out.put("apiVersion", REVIEW_API_VERSION).put("kind", "AdmissionReview");
    var response = out.putObject("response");
    response.put("uid", uid).put("allowed", verdict.allowed());
    if (!verdict.allowed()) {
      response.putObject("status").put("code", 403).put("message", verdict.message());
    }
    if (!verdict.warnings().isEmpty()) {
      var warnings = response.putArray("warnings");
      verdict.warnings().forEach(w -> warnings.add(w.replaceAll("\\s+", " ")));
    }
    try {
      return json.writeValueAsBytes(out);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write an AdmissionReview", e);
    }
  }

  private static String shortMessage(Exception e) {
    var message = e instanceof JsonProcessingException j ? j.getOriginalMessage() : e.getMessage();
    return message == null ? e.getClass().getSimpleName() : message;
  }

  /** The object in the review does not decode as its kind. */
  private static final class Undecodable extends RuntimeException {
    Undecodable(String message) {
      super(message, null, false, false);
    }
  }
}
