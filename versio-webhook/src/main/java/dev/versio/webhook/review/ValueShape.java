package dev.versio.webhook.review;

import com.fasterxml.jackson.databind.JsonNode;
import dev.versio.engine.FieldPath;
import java.util.Optional;

/** The JSON type and size of a value, for logs that must not hold the value itself. */
final class ValueShape {
  private ValueShape() {}

  /**
   * The shape of the value at {@code path} in {@code object}, e.g. "a string of 11 characters", or
   * empty when there is none.
   */
  static Optional<String> of(FieldPath path, JsonNode object) {
    var node = object;
    for (var segment : path.segments()) {
      node = node == null || !node.isObject() ? null : node.get(segment);
    }
    return node == null || node.isMissingNode() ? Optional.empty() : Optional.of(of(node));
  }

  static String of(JsonNode node) {
    return switch (node.getNodeType()) {
      case STRING -> "a string of " + node.textValue().length() + " characters";
      case NUMBER -> "a number of " + node.asText().length() + " characters";
      case BOOLEAN -> "a boolean";
      case NULL -> "null";
      case OBJECT -> "an object of " + node.size() + " fields";
      case ARRAY -> "an array of " + node.size() + " items";
      case BINARY, POJO, MISSING -> node.getNodeType().name().toLowerCase(java.util.Locale.ROOT);
    };
  }
}
