package dev.versio.testkit.stories;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.versio.engine.schema.Classification;
import dev.versio.engine.schema.SchemaNode;

/**
 * Stands in for the apiserver's pruning: drops what a structural schema does not declare, as the
 * apiserver does to what it stores and to what a conversion webhook returns, so that an expected
 * output can be compared with what a read at that version gives.
 */
public final class SchemaPruner {
  private SchemaPruner() {}

  /**
   * {@code value} without what {@code schema} does not declare; {@code null} stays {@code null}.
   */
  public static JsonNode prune(JsonNode value, SchemaNode schema) {
    if (value == null
        || schema.preserveUnknownFields()
        || schema.construct() != null
        || schema.intOrString()) {
      return value;
    }
    var c = Classification.of(schema);
    if (value.isObject() && c.structured()) {
      var out = ((ObjectNode) value).objectNode();
      for (var e : value.properties()) {
        var child = schema.properties().get(e.getKey());
        if (child != null) {
          out.set(e.getKey(), prune(e.getValue(), child));
        }
      }
      return out;
    }
    if (value.isObject() && c.isMap() && schema.additionalProperties() != null) {
      var out = ((ObjectNode) value).objectNode();
      value
          .properties()
          .forEach(e -> out.set(e.getKey(), prune(e.getValue(), schema.additionalProperties())));
      return out;
    }
    if (value.isArray() && schema.items() != null) {
      var out = ((ArrayNode) value).arrayNode();
      value.forEach(v -> out.add(prune(v, schema.items())));
      return out;
    }
    return value;
  }
}
