package dev.versio.engine.compile;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.versio.engine.json.EngineJson;
import dev.versio.engine.runtime.Op;
import java.util.List;
import java.util.Objects;

/**
 * The compiled conversion between the hub and one spoke: immutable, pre-resolved ops per direction.
 *
 * @param spoke the spoke version
 * @param hubToSpoke ops from hub to spoke
 * @param spokeToHub ops from spoke to hub
 * @param verdict whether each direction is lossless
 * @param ruleResults per-rule conclusions
 */
public record Plan(
    String spoke,
    List<Op> hubToSpoke,
    List<Op> spokeToHub,
    Verdict verdict,
    List<RuleResult> ruleResults) {
  public Plan {
    Objects.requireNonNull(spoke, "spoke");
    hubToSpoke = List.copyOf(hubToSpoke);
    spokeToHub = List.copyOf(spokeToHub);
    ruleResults = List.copyOf(ruleResults);
  }

  /** Converts hub → spoke. The input is not modified; {@code apiVersion} is left to the caller. */
  public ObjectNode toSpoke(JsonNode hubObject) {
    return run(hubToSpoke, hubObject);
  }

  /** Converts spoke → hub. The input is not modified; {@code apiVersion} is left to the caller. */
  public ObjectNode toHub(JsonNode spokeObject) {
    return run(spokeToHub, spokeObject);
  }

  private static ObjectNode run(List<Op> ops, JsonNode input) {
    var output = EngineJson.nodes().objectNode();
    if (input.has("kind")) {
      output.set("kind", input.get("kind").deepCopy());
    }
    var metadata = input.get("metadata");
    output.set(
        "metadata",
        metadata != null && metadata.isObject()
            ? metadata.deepCopy()
            : EngineJson.nodes().objectNode());
    for (var op : ops) {
      op.apply(input, output);
    }
    return output;
  }
}
