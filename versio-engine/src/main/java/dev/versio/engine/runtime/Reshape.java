package dev.versio.engine.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.versio.engine.json.EngineJson;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How a value changes shape between two versions that hold the same data, one with singleton arrays
 * where the other holds the object (generated resources, where every block is a list of one): at
 * this level the value is kept, unwrapped (its first element) or wrapped (an array of one), then
 * its fields and list elements are reshaped in turn, at any depth.
 *
 * @param step what happens to the value itself
 * @param fields how the fields of an object value change, by name (fields not named are kept)
 * @param items how each element of an array value changes, or null when they are kept
 */
public record Reshape(Step step, Map<String, Reshape> fields, Reshape items) {

  /** What happens to one value. */
  public enum Step {
    KEEP,
    FIRST_ELEMENT,
    WRAP;

    Step inverse() {
      return switch (this) {
        case KEEP -> KEEP;
        case FIRST_ELEMENT -> WRAP;
        case WRAP -> FIRST_ELEMENT;
      };
    }
  }

  public Reshape {
    fields = Collections.unmodifiableMap(new LinkedHashMap<>(fields));
  }

  /** Whether this changes nothing, at any depth. */
  public boolean keepsAll() {
    return step == Step.KEEP && fields.isEmpty() && items == null;
  }

  /** The reshape of the other direction: every unwrap a wrap and every wrap an unwrap. */
  public Reshape inverse() {
    var back = new LinkedHashMap<String, Reshape>();
    fields.forEach((name, r) -> back.put(name, r.inverse()));
    return new Reshape(step.inverse(), back, items == null ? null : items.inverse());
  }

  /**
   * Reshapes a value the caller owns (it may be changed in place); null when nothing is left: an
   * empty or missing array where an element is expected, or a value of another type there.
   */
  public JsonNode apply(JsonNode owned) {
    var value = owned;
    if (step == Step.FIRST_ELEMENT) {
      if (!value.isArray() || value.isEmpty()) {
        return null;
      }
      value = value.get(0);
    }
    if (value instanceof ObjectNode object && !fields.isEmpty()) {
      fields.forEach(
          (name, r) -> {
            var child = object.get(name);
            if (child != null) {
              var changed = r.apply(child);
              if (changed == null) {
                object.remove(name);
              } else {
                object.set(name, changed);
              }
            }
          });
    } else if (value.isArray() && items != null) {
      var elements = EngineJson.nodes().arrayNode();
      for (var element : value) {
        var changed = items.apply(element);
        if (changed != null) {
          elements.add(changed);
        }
      }
      value = elements;
    }
    return step == Step.WRAP ? EngineJson.nodes().arrayNode().add(value) : value;
  }
}
