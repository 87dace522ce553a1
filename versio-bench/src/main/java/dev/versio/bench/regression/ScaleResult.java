package dev.versio.bench.regression;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.versio.engine.json.EngineJson;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A scale run's result as the regression check reads it: the schema and its version, the envelope
 * (every parameter that makes two runs comparable: fleet size, parallelism, seed, machine), and one
 * {@link Measurement} per operation class ({@code create}, {@code listV1}, {@code getV2}, …).
 *
 * <pre>{@code
 * {"schema": "versio.dev/scale-result", "schemaVersion": 1,
 *  "envelope": {"crds": 20, "objectsPerCrd": 20, "parallel": 8, "seed": 1},
 *  "measurements": {"getV1": {"n": 400, "errors": 0, "p50Ms": 3.1, "p99Ms": 9.8,
 *                             "maxMs": 14.0, "perSecond": 310.5}}}
 * }</pre>
 *
 * @param schemaVersion the version of this layout; results of different versions are not compared
 * @param envelope the run's parameters, compared as a whole
 * @param measurements by operation class, in the file's order
 */
public record ScaleResult(
    int schemaVersion, ObjectNode envelope, Map<String, Measurement> measurements) {
  /** The value of {@code schema} in every result file. */
  public static final String SCHEMA = "versio.dev/scale-result";

  /** The layout this code writes and reads. */
  public static final int SCHEMA_VERSION = 1;

  public ScaleResult {
    Objects.requireNonNull(envelope, "envelope");
    measurements = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(measurements));
  }

  /**
   * One operation class of a run.
   *
   * @param n requests made (answered or not)
   * @param errors requests that failed, after retries of transient errors
   * @param p50Ms median latency of the answered requests, null without any
   * @param p99Ms 99th percentile (nearest rank), null without any
   * @param maxMs slowest answered request, null without any
   * @param perSecond n over the wall time of the whole operation class
   */
  public record Measurement(
      long n, long errors, Double p50Ms, Double p99Ms, Double maxMs, Double perSecond) {
    public Measurement {
      if (n < 0 || errors < 0 || errors > n) {
        throw new IllegalArgumentException(
            "a measurement needs 0 ≤ errors ≤ n, got n = " + n + ", errors = " + errors);
      }
    }
  }

  /** Thrown for a file that is not a scale result this code can read; the message says why. */
  public static final class Unreadable extends RuntimeException {
    Unreadable(String message) {
      super(message);
    }
  }

  /** Reads a result file's JSON; {@code what} names it in errors. */
  public static ScaleResult parse(String json, String what) {
    JsonNode root;
    try {
      root = EngineJson.newMapper().readTree(json);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new Unreadable(what + " is not JSON: " + e.getOriginalMessage());
    }
    if (root == null || !root.isObject() || !SCHEMA.equals(root.path("schema").asText())) {
      throw new Unreadable(what + " is not a scale result: \"schema\" must be \"" + SCHEMA + "\"");
    }
    if (!root.path("schemaVersion").canConvertToInt()) {
      throw new Unreadable(what + " has no integer \"schemaVersion\"");
    }
    if (!root.path("envelope").isObject()) {
      throw new Unreadable(what + " has no \"envelope\" object (the run's parameters)");
    }
    if (!root.path("measurements").isObject()) {
      throw new Unreadable(what + " has no \"measurements\" object");
    }
    var measurements = new LinkedHashMap<String, Measurement>();
    for (var entry : root.path("measurements").properties()) {
      var m = entry.getValue();
      if (!m.path("n").canConvertToLong() || !m.path("errors").canConvertToLong()) {
        throw new Unreadable(
            what + ": measurement \"" + entry.getKey() + "\" needs integer \"n\" and \"errors\"");
      }
      try {
        measurements.put(
            entry.getKey(),
            new Measurement(
                m.path("n").asLong(),
                m.path("errors").asLong(),
                number(m, "p50Ms"),
                number(m, "p99Ms"),
                number(m, "maxMs"),
                number(m, "perSecond")));
      } catch (IllegalArgumentException e) {
        throw new Unreadable(what + ": measurement \"" + entry.getKey() + "\": " + e.getMessage());
      }
    }
    return new ScaleResult(
        root.path("schemaVersion").asInt(), (ObjectNode) root.path("envelope"), measurements);
  }

  private static Double number(JsonNode measurement, String field) {
    var value = measurement.path(field);
    return value.isNumber() ? value.asDouble() : null;
  }
}
