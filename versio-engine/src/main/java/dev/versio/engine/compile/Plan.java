package dev.versio.engine.compile;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.versio.engine.json.EngineJson;
import dev.versio.engine.runtime.NullContainers;
import dev.versio.engine.runtime.Steps;
import java.util.Objects;

/**
 * The compiled conversion between the hub and one spoke: immutable, pre-resolved ops per direction.
 * Per-rule conclusions live in the {@link SpokeReport}, not here: a plan keeps only what converting
 * needs, because thousands of plans stay in memory in every webhook replica.
 *
 * @param spoke the spoke version
 * @param hubToSpoke ops from hub to spoke
 * @param spokeToHub ops from spoke to hub
 * @param verdict whether each direction is lossless
 * @param hubNulls where a hub object may hold a {@code null} read as absent ({@link
 *     NullContainers})
 * @param spokeNulls the same for a spoke object
 */
public record Plan(
    String spoke,
    Steps hubToSpoke,
    Steps spokeToHub,
    Verdict verdict,
    NullContainers hubNulls,
    NullContainers spokeNulls) {
  public Plan {
    Objects.requireNonNull(spoke, "spoke");
    Objects.requireNonNull(hubToSpoke, "hubToSpoke");
    Objects.requireNonNull(spokeToHub, "spokeToHub");
    Objects.requireNonNull(verdict, "verdict");
    Objects.requireNonNull(hubNulls, "hubNulls");
    Objects.requireNonNull(spokeNulls, "spokeNulls");
  }

  /** A plan that reads every {@code null} as it is. */
  public Plan(String spoke, Steps hubToSpoke, Steps spokeToHub, Verdict verdict) {
    this(spoke, hubToSpoke, spokeToHub, verdict, NullContainers.NONE, NullContainers.NONE);
  }

  /**
   * Converts hub → spoke. The input is not modified; the output's {@code apiVersion} is {@code
   * apiVersion}, or the input's when that is null; a {@code null} where the hub schema declares an
   * object or array is read as absent. When no op writes below {@code metadata}, the output holds
   * the input's {@code metadata} node itself (not a copy): a caller that changes one of them
   * afterwards copies it first.
   */
  public ObjectNode toSpoke(JsonNode hubObject, JsonNode apiVersion) {
    return run(hubToSpoke, hubNulls.without(hubObject), apiVersion);
  }

  /** Converts spoke → hub, as {@link #toSpoke} does the other way. */
  public ObjectNode toHub(JsonNode spokeObject, JsonNode apiVersion) {
    return run(spokeToHub, spokeNulls.without(spokeObject), apiVersion);
  }

  /** {@link #toSpoke(JsonNode, JsonNode)} keeping the input's {@code apiVersion}. */
  public ObjectNode toSpoke(JsonNode hubObject) {
    return toSpoke(hubObject, null);
  }

  /** {@link #toHub(JsonNode, JsonNode)} keeping the input's {@code apiVersion}. */
  public ObjectNode toHub(JsonNode spokeObject) {
    return toHub(spokeObject, null);
  }

  private static ObjectNode run(Steps steps, JsonNode input, JsonNode apiVersion) {
    var output = EngineJson.nodes().objectNode();
    // the only copies of these two: the compiler adds no identity op for them
    var version = apiVersion != null ? apiVersion : input.get("apiVersion");
    if (version != null) {
      output.set("apiVersion", version); // first, where objects carry it
    }
    var kind = input.get("kind");
    if (kind != null) {
      output.set("kind", kind.deepCopy());
    }
    var metadata = input.get("metadata");
    if (metadata == null || !metadata.isObject()) {
      output.set("metadata", EngineJson.nodes().objectNode());
    } else {
      // copy-on-write at plan level: only a plan whose ops write metadata pays for the copy
      output.set("metadata", steps.writesMetadata() ? metadata.deepCopy() : metadata);
    }
    steps.apply(input, output);
    if (apiVersion != null && steps.writesApiVersion()) {
      // written again: a rule (a patch, an expression) that wrote apiVersion does not decide it
      output.set("apiVersion", apiVersion);
    }
    return output;
  }
}
