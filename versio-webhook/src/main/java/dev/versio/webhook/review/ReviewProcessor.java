package dev.versio.webhook.review;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.versio.engine.json.EngineJson;
import dev.versio.engine.route.Router;
import dev.versio.engine.runtime.ConversionException;
import dev.versio.webhook.registry.Registry;
import dev.versio.webhook.registry.RegistryEntry;
import java.io.IOException;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Turns a ConversionReview request into its response, with no HTTP in sight. All-or-nothing: the
 * first object that cannot be converted makes the whole review a Failure; a target without a
 * servable plan is a Failure, never a guess. Every converted object's {@code apiVersion} is the
 * request's {@code desiredAPIVersion}; {@code metadata} is always present.
 */
public final class ReviewProcessor {
  private static final Set<String> REVIEW_VERSIONS =
      Set.of("apiextensions.k8s.io/v1", "apiextensions.k8s.io/v1beta1");

  /**
   * JSON tokens per byte of body limit a review may hold: objects as the apiserver sends them hold
   * one token per 10–20 bytes, a hostile body one per 2 ({@code [0,0,…]}), each token a node of
   * 16–60 bytes.
   */
  private static final int BYTES_PER_TOKEN = 8;

  private final ObjectMapper json;
  private final Registry registry;
  // null: the router's own, with the review's two versions looked up once for all its objects
  private final ObjectConversion conversion;

  /** How one object is converted with its target's router. */
  @FunctionalInterface
  public interface ObjectConversion {
    JsonNode convert(Router router, JsonNode object, String from, String to);
  }

  public ReviewProcessor(Registry registry) {
    this(registry, DEFAULT_MAX_BODY_BYTES);
  }

  /**
   * With a review of at most {@code maxBodyBytes} in mind: a review of more than one JSON token per
   * {@value #BYTES_PER_TOKEN} bytes of that limit is refused while it is parsed (400), so a body
   * dense with tiny values cannot become a tree many times its size.
   */
  public ReviewProcessor(Registry registry, long maxBodyBytes) {
    this(registry, null, maxBodyBytes);
  }

  /** With another conversion step than the router's own (tests make it fail). */
  public ReviewProcessor(Registry registry, ObjectConversion conversion) {
    this(registry, Objects.requireNonNull(conversion, "conversion"), DEFAULT_MAX_BODY_BYTES);
  }

  private static final long DEFAULT_MAX_BODY_BYTES = 64L * 1024 * 1024;

  private ReviewProcessor(Registry registry, ObjectConversion conversion, long maxBodyBytes) {
    this.registry = registry;
    this.conversion = conversion;
    var factory =
        JsonFactory.builder()
            .streamReadConstraints(
                StreamReadConstraints.builder()
                    .maxTokenCount(Math.max(10_000, maxBodyBytes / BYTES_PER_TOKEN))
                    .build())
            .build();
    this.json = EngineJson.configure(JsonMapper.builder(factory)).build();
  }

  /**
   * Whether reviewing {@code target} costs time in proportion to the review's size alone: its plan
   * runs no script (CEL, JSON Patch), or there is no plan and the review fails at once. Only such a
   * review, when small, may be processed on an event loop.
   */
  public boolean proportional(String target) {
    return proportional(registry.get(target));
  }

  /** {@link #proportional(String)} for what {@link #held} returned. */
  public static boolean proportional(Optional<RegistryEntry> held) {
    return held.flatMap(RegistryEntry::router).map(router -> !router.runsScripts()).orElse(true);
  }

  /**
   * Whether this replica holds {@code target} (servable or not): only such a name may label a
   * metric or name a span, since anyone who reaches the port can make up a path.
   */
  public boolean holds(String target) {
    return registry.get(target).isPresent();
  }

  /**
   * What this replica holds for {@code target} now (servable or not). A review routed here because
   * of it is processed with it, even when the replica drops the target meanwhile (its drain ended
   * while the review waited for a worker): the plan was this replica's when the review arrived.
   */
  public Optional<RegistryEntry> held(String target) {
    return registry.get(target);
  }

  /** Processes the raw request body of {@code POST /convert/{target}}. */
  public ReviewOutcome process(String target, byte[] body) {
    return process(target, body, ReviewProgress.unbounded());
  }

  /**
   * Processes the raw request body of {@code POST /convert/{target}}, recording its progress and
   * stopping before the next object once {@link ReviewProgress#stop()} was called.
   */
  public ReviewOutcome process(String target, byte[] body, ReviewProgress progress) {
    return process(target, registry.get(target), body, progress);
  }

  /** {@link #process(String, byte[], ReviewProgress)} with what {@link #held} returned. */
  public ReviewOutcome process(
      String target, Optional<RegistryEntry> held, byte[] body, ReviewProgress progress) {
    if (progress.stopRequested()) {
      return overBudget(target, progress, null); // answered or gone already: not even parsed
    }
    JsonNode review;
    try {
      review = json.readTree(body);
    } catch (JacksonException e) {
      return badRequest("decoding ConversionReview: " + e.getOriginalMessage(), null);
    } catch (IOException e) {
      return badRequest("decoding ConversionReview: " + e.getMessage(), null);
    }
    if (review == null || !review.isObject()) {
      return badRequest("the body is not a JSON object (expected a ConversionReview)", null);
    }
    var apiVersion = review.path("apiVersion").asText("");
    if (!REVIEW_VERSIONS.contains(apiVersion)) {
      return badRequest(
          "apiVersion must be apiextensions.k8s.io/v1 or v1beta1, found '" + apiVersion + "'",
          null);
    }
    var request = review.get("request");
    if (request == null || !request.isObject()) {
      return badRequest("missing request", null);
    }
    var uid = request.path("uid").asText("");
    if (uid.isEmpty()) {
      return badRequest("request.uid is required", null);
    }
    var desired = request.path("desiredAPIVersion").asText("");
    if (desired.isEmpty() || !request.path("objects").isArray()) {
      return badRequest("request.desiredAPIVersion and request.objects are required", uid);
    }
    var objects = request.get("objects");
    progress.started(apiVersion, uid, objects.size());
    var to = versionOf(desired);
    var entry = held.filter(e -> e.servable());
    if (entry.isEmpty()) {
      var reason = held.map(e -> " (its last compile failed: " + e.lastError() + ")").orElse("");
      return failure(
          apiVersion,
          uid,
          ReviewResult.NOT_REGISTERED,
          null,
          to,
          objects.size(),
          "no conversion plan registered for "
              + target
              + " on this replica"
              + reason
              + "; check the status of its CRDConversionConfig/XRDConversionConfig, or retry shortly if it was just created");
    }
    var router = entry.get().router().orElseThrow();
    // a plan kept after its config stopped compiling against the live schema (KeepServingStale)
    // does not know fields added since: it refuses an object carrying one instead of passing it
    // through for the apiserver to prune
    var staleBecause = entry.get().lastError();
    var converted = EngineJson.nodes().arrayNode(objects.size());
    String from = null;
    String seenApiVersion = null; // objects of one review nearly always share their apiVersion
    Router.Between between = null; // from -> to, looked up again only when from changes
    var desiredGroup = groupOf(desired);
    var desiredNode = TextNode.valueOf(desired);
    for (var object : objects) {
      if (progress.stopRequested()) {
        return overBudget(target, progress, null); // already answered: this result is not sent
      }
      if (!object.isObject()) {
        return failure(
            apiVersion,
            uid,
            ReviewResult.ERROR,
            from,
            to,
            objects.size(),
            "an object of the review is not a JSON object");
      }
      var objectApiVersion = object.path("apiVersion").asText("");
      if (!objectApiVersion.equals(seenApiVersion)) {
        from = versionOf(objectApiVersion);
        seenApiVersion = objectApiVersion;
        between = null;
      }
      if (!inGroup(objectApiVersion, desiredGroup)) {
        return failure(
            apiVersion,
            uid,
            ReviewResult.ERROR,
            from,
            to,
            objects.size(),
            "object apiVersion '"
                + objectApiVersion
                + "' is not in the group of desiredAPIVersion '"
                + desired
                + "'");
      }
      if (staleBecause != null) {
        var unknown = router.firstUnknownField(object, from, to);
        if (unknown.isPresent()) {
          var message =
              "converting "
                  + from
                  + " -> "
                  + to
                  + " ("
                  + describe(object)
                  + "): "
                  + unknown.get()
                  + " is not declared by the schemas the plan of "
                  + target
                  + " was compiled from; that plan is stale because "
                  + entry.get().config()
                  + " no longer compiles against the live schema ("
                  + staleBecause
                  + "), so the object is refused rather than converted without it; fix the"
                  + " config (see its status)";
          return failure(apiVersion, uid, ReviewResult.ERROR, from, to, objects.size(), message);
        }
      }
      try {
        JsonNode result;
        if (conversion != null) {
          result = conversion.convert(router, object, from, to);
        } else {
          if (between == null) {
            between = router.between(from, to); // an unknown version fails here, as a conversion
          }
          result = between.convert(object);
        }
        // the review's objects are this request's own parse: an unconverted one (same version) is
        // answered as it is, and a converted one may share its metadata node
        var out = (ObjectNode) result;
        out.set("apiVersion", desiredNode);
        if (!out.path("metadata").isObject()) {
          out.set(
              "metadata",
              object.path("metadata").isObject()
                  ? object.get("metadata").deepCopy()
                  : EngineJson.nodes().objectNode());
        }
        converted.add(out);
        progress.converted(converted.size());
      } catch (ConversionException e) {
        var prefix = "converting " + from + " -> " + to + " (" + describe(object) + "): ";
        return failure(
            apiVersion,
            uid,
            ReviewResult.ERROR,
            from,
            to,
            objects.size(),
            prefix + e.getMessage(),
            prefix + withoutValues(e, object));
      } catch (RuntimeException | StackOverflowError e) {
        var message =
            "internal error converting "
                + from
                + " -> "
                + to
                + " ("
                + describe(object)
                + "): "
                + e.getClass().getSimpleName()
                + "; this is a Versio bug, see the webhook server log for request "
                + uid;
        return new ReviewOutcome(
            200,
            envelope(apiVersion, failureResponse(uid, message)),
            null,
            ReviewResult.INTERNAL_ERROR,
            uid,
            from,
            to,
            objects.size(),
            message,
            e);
      }
    }
    var response = EngineJson.nodes().objectNode();
    response.put("uid", uid);
    response.set("convertedObjects", converted);
    response.putObject("result").put("status", "Success");
    return new ReviewOutcome(
        200,
        envelope(apiVersion, response),
        null,
        ReviewResult.SUCCESS,
        uid,
        from,
        to,
        objects.size(),
        null);
  }

  /**
   * The Failure review for a review that did not finish within {@code budget}: it names the budget
   * and how far the conversion got.
   */
  public ReviewOutcome overBudget(
      String target, ReviewProgress progress, java.time.Duration budget) {
    var message =
        "the review of "
            + progress.objects()
            + " object(s) for "
            + target
            + " did not finish within its budget"
            + (budget == null ? "" : " of " + budget.toMillis() + " ms (--review-timeout)")
            + " ("
            + progress.converted()
            + " converted); split the request (smaller list pages) or raise the budget";
    var uid = progress.uid();
    return new ReviewOutcome(
        200,
        envelope(progress.apiVersion(), failureResponse(uid, message)),
        null,
        ReviewResult.OVER_BUDGET,
        uid.isEmpty() ? null : uid,
        null,
        null,
        progress.objects(),
        message);
  }

  /**
   * The Failure review for an outcome whose answer could not be serialized (a bug, or a converted
   * object nested deeper than the writer allows).
   */
  public ReviewOutcome unwritable(ReviewOutcome outcome, Throwable cause) {
    var uid = outcome.uid() == null ? "" : outcome.uid();
    var apiVersion = outcome.body().path("apiVersion").asText("apiextensions.k8s.io/v1");
    var message =
        "the converted review could not be written: "
            + cause.getClass().getSimpleName()
            + "; this is a Versio bug, see the webhook server log"
            + (uid.isEmpty() ? "" : " for request " + uid);
    return new ReviewOutcome(
        200,
        envelope(apiVersion, failureResponse(uid, message)),
        null,
        ReviewResult.INTERNAL_ERROR,
        outcome.uid(),
        outcome.from(),
        outcome.to(),
        outcome.objects(),
        message,
        cause);
  }

  /** Serializes a review response. */
  public byte[] write(JsonNode body) {
    try {
      return json.writeValueAsBytes(body);
    } catch (IOException e) {
      throw new IllegalStateException("cannot serialize a ConversionReview", e);
    }
  }

  private ReviewOutcome failure(
      String apiVersion,
      String uid,
      ReviewResult result,
      String from,
      String to,
      int objects,
      String message) {
    return failure(apiVersion, uid, result, from, to, objects, message, message);
  }

  /**
   * A Failure review telling the apiserver {@code message}, while the outcome — which logs, spans
   * and metrics see — holds {@code logged}, which quotes no value of the object.
   */
  private ReviewOutcome failure(
      String apiVersion,
      String uid,
      ReviewResult result,
      String from,
      String to,
      int objects,
      String message,
      String logged) {
    return new ReviewOutcome(
        200,
        envelope(apiVersion, failureResponse(uid, message)),
        null,
        result,
        uid,
        from,
        to,
        objects,
        logged);
  }

  /**
   * Where a conversion failed and the JSON type and size of the value there, never the value: a
   * token in a coerced field must not reach a log or a trace.
   */
  private static String withoutValues(ConversionException e, JsonNode object) {
    if (e.location() == null) {
      return e.getMessage(); // routing failures name versions only
    }
    var origin = e.origin();
    // the rule's path is in the object as sent for most rules; where it is not (the other side's
    // path, or inside forEach), no shape is given rather than a wrong one
    var shape =
        origin.parent() == null && origin.path() != null
            ? ValueShape.of(origin.path(), object)
                .map(v -> " (the value there: " + v + ")")
                .orElse("")
            : "";
    return e.location()
        + shape
        + "; the value is in the Failure review the apiserver got, not in this log";
  }

  /**
   * A Failure review for a request whose processing broke outside the per-object conversion (a
   * bug): the apiserver gets a review it can show, never a bare 500. The UID is read from the body
   * when it can be.
   */
  public ReviewOutcome internalFailure(String target, byte[] body, Throwable cause) {
    var read = envelopeOf(body);
    var apiVersion = read.apiVersion();
    var uid = read.uid();
    var message =
        "internal error handling the ConversionReview for "
            + target
            + ": "
            + cause.getClass().getSimpleName()
            + "; this is a Versio bug, see the webhook server log"
            + (uid.isEmpty() ? "" : " for request " + uid);
    return new ReviewOutcome(
        200,
        envelope(apiVersion, failureResponse(uid, message)),
        null,
        ReviewResult.INTERNAL_ERROR,
        uid.isEmpty() ? null : uid,
        null,
        null,
        0,
        message,
        cause);
  }

  /**
   * The Failure review for a review this replica could not pass on to a replica that holds its
   * target: {@code problem} says which holders were tried and what went wrong.
   */
  public ReviewOutcome forwardFailed(String target, byte[] body, String problem) {
    var read = envelopeOf(body);
    var message =
        "no replica that holds "
            + target
            + " answered this review: "
            + problem
            + "; the apiserver retries the request, and the replicas' logs say more";
    return new ReviewOutcome(
        200,
        envelope(read.apiVersion(), failureResponse(read.uid(), message)),
        null,
        ReviewResult.FORWARD_FAILED,
        read.uid().isEmpty() ? null : read.uid(),
        null,
        null,
        0,
        message);
  }

  /** The review's apiVersion and UID as far as they can be read (defaults when not). */
  private record Envelope(String apiVersion, String uid) {}

  private Envelope envelopeOf(byte[] body) {
    String apiVersion = "apiextensions.k8s.io/v1";
    String uid = "";
    try {
      var review = json.readTree(body);
      if (review != null && REVIEW_VERSIONS.contains(review.path("apiVersion").asText(""))) {
        apiVersion = review.path("apiVersion").asText();
      }
      uid = review == null ? "" : review.path("request").path("uid").asText("");
    } catch (IOException | RuntimeException e) {
      // the body is unreadable: answer with what is known
    }
    return new Envelope(apiVersion, uid);
  }

  private static ObjectNode failureResponse(String uid, String message) {
    var response = EngineJson.nodes().objectNode();
    response.put("uid", uid);
    response.putObject("result").put("status", "Failure").put("message", message);
    return response;
  }

  private static ReviewOutcome badRequest(String message, String uid) {
    return new ReviewOutcome(
        400, null, message, ReviewResult.BAD_REQUEST, uid, null, null, 0, message);
  }

  private static ObjectNode envelope(String apiVersion, ObjectNode response) {
    var review = EngineJson.nodes().objectNode();
    review.put("apiVersion", apiVersion);
    review.put("kind", "ConversionReview");
    review.set("response", response);
    return review;
  }

  private static String describe(JsonNode object) {
    var metadata = object.path("metadata");
    var ns = metadata.path("namespace").asText("");
    return (ns.isEmpty() ? "" : ns + "/") + metadata.path("name").asText("?");
  }

  static String versionOf(String apiVersion) {
    int slash = apiVersion.lastIndexOf('/');
    return slash < 0 ? apiVersion : apiVersion.substring(slash + 1);
  }

  /** Whether {@code apiVersion} is in {@code group} (the empty group: no slash). */
  static boolean inGroup(String apiVersion, String group) {
    int slash = apiVersion.lastIndexOf('/');
    return slash < 0
        ? group.isEmpty()
        : slash == group.length() && apiVersion.regionMatches(0, group, 0, slash);
  }

  static String groupOf(String apiVersion) {
    int slash = apiVersion.lastIndexOf('/');
    return slash < 0 ? "" : apiVersion.substring(0, slash);
  }
}
