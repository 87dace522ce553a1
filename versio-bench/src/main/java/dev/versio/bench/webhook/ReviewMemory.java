package dev.versio.bench.webhook;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.versio.bench.engine.RetainedHeapPerLeaf;
import dev.versio.engine.json.EngineJson;
import dev.versio.webhook.registry.Registry;
import dev.versio.webhook.review.ReviewProcessor;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * Measures the heap one review holds per byte of its body while it is handled: the body, its parsed
 * tree, the converted review and the answer's bytes, all alive at once (an upper bound of the peak;
 * the parsed tree and the answer overlap only briefly). Three shapes of body: objects as the
 * apiserver sends them, and two hostile ones, dense with small numbers and with short strings. The
 * ratio sets the default body limit and byte budget of bodies in flight (a 32nd of the heap).
 *
 * <p>Usage: {@code hack/bench.sh --review-memory [objects=2000]}.
 */
public final class ReviewMemory {
  private static final String TARGET = "caches.example.com";

  private ReviewMemory() {}

  public static void main(String[] args) throws Exception {
    int objects = args.length > 0 ? Integer.parseInt(args[0]) : 2000;
    var registry = new Registry(Clock.systemUTC(), s -> {});
    registry.set(TARGET, ReviewLoad.storyRouter(), "crd/" + TARGET, "gen=1");
    var processor = new ReviewProcessor(registry);
    var json = EngineJson.newMapper();
    System.out.printf("%-34s %12s %12s %10s%n", "body", "body bytes", "held bytes", "held/body");
    for (var shape : List.of("apiserver objects", "dense small numbers", "dense short strings")) {
      var body = body(json, shape, objects);
      handle(processor, json, body); // warm up
      long before = RetainedHeapPerLeaf.liveHeap();
      var held = handle(processor, json, body);
      long after = RetainedHeapPerLeaf.liveHeap();
      System.out.printf(
          "%-34s %12d %12d %10.1f%n",
          shape + " (" + objects + ")",
          body.length,
          after - before,
          (after - before) / (double) body.length);
      held.clear();
    }
  }

  /** Everything one review holds while it is handled, kept alive together. */
  private static List<Object> handle(ReviewProcessor processor, ObjectMapper json, byte[] body)
      throws Exception {
    var copy = body.clone(); // the endpoint's copy of the received buffer
    var tree = json.readTree(copy);
    var outcome = processor.process(TARGET, copy);
    if (outcome.failure() != null) {
      throw new IllegalStateException(outcome.failure());
    }
    var answer = processor.write(outcome.body());
    var held = new ArrayList<Object>();
    held.add(copy);
    held.add(tree);
    held.add(outcome);
    held.add(answer);
    return held;
  }

  private static byte[] body(ObjectMapper json, String shape, int objects) throws Exception {
    var review = json.createObjectNode();
    review.put("apiVersion", "apiextensions.k8s.io/v1").put("kind", "ConversionReview");
    var request = review.putObject("request");
    request.put("uid", "u").put("desiredAPIVersion", "example.com/v2");
    var list = request.putArray("objects");
    for (int i = 0; i < objects; i++) {
      var o = list.addObject();
      o.put("apiVersion", "example.com/v1").put("kind", "Cache");
      var md = o.putObject("metadata");
      md.put("name", "cache-" + i)
          .put("namespace", "default")
          .put("uid", "6f1c2b3a-7d4e-4f5a-9b8c-" + String.format("%012d", i))
          .put("resourceVersion", Integer.toString(100_000 + i))
          .put("generation", 3)
          .put("creationTimestamp", "2026-12-01T10:00:00Z");
      md.putObject("labels")
          .put("app.kubernetes.io/name", "cache")
          .put("app.kubernetes.io/part-of", "shop");
      md.putObject("annotations").put("example.com/owner", "team-web@example.com");
      var managed = md.putArray("managedFields").addObject();
      managed
          .put("manager", "kubectl-client-side-apply")
          .put("operation", "Update")
          .put("apiVersion", "example.com/v1")
          .put("time", "2026-12-01T10:00:00Z")
          .put("fieldsType", "FieldsV1");
      managed
          .putObject("fieldsV1")
          .putObject("f:spec")
          .put("f:size", "{}")
          .put("f:memoryMiB", "{}");
      var spec = o.putObject("spec").put("size", 3).put("memoryMiB", 512).put("engine", "redis");
      switch (shape) {
        case "dense small numbers" -> {
          var numbers = md.putObject("annotations").putArray("n");
          for (int k = 0; k < 200; k++) {
            numbers.add(k % 10);
          }
        }
        case "dense short strings" -> {
          var strings = md.putObject("annotations").putArray("s");
          for (int k = 0; k < 200; k++) {
            strings.add("a");
          }
        }
        default -> spec.put("engine", "redis");
      }
      o.putObject("status").put("phase", "Ready");
    }
    return json.writeValueAsBytes(review);
  }
}
