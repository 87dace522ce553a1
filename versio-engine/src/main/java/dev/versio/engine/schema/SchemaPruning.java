package dev.versio.engine.schema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;

/**
 * What the apiserver stores of an object: a copy without the fields its version's structural schema
 * does not declare, and without {@code null} where the schema does not say {@code nullable}. The
 * same walk as {@link SchemaConformance} (whose {@code PRUNED} findings are exactly what this
 * removes); {@code apiVersion}, {@code kind} and {@code metadata} of the object and of embedded
 * resources are kept as they are. A round trip computed on this copy sees what a user would lose
 * through the cluster, not what the converter wrote.
 */
public final class SchemaPruning {
  private SchemaPruning() {}

  /** {@code object} as its version's root {@code schema} would store it (a copy). */
  public static JsonNode prune(JsonNode object, SchemaNode schema) {
    var copy = object.deepCopy();
    if (copy.isObject()) {
      object((ObjectNode) copy, schema, true);
    }
    return copy;
  }

  /** Prunes {@code value} in place; returns false when the value itself is to be dropped. */
  private static boolean value(JsonNode value, SchemaNode schema) {
    if (schema.construct() != null) {
      return true; // $ref/oneOf/anyOf/allOf: not structural here, kept as it is
    }
    if (value.isNull()) {
      return schema.nullable();
    }
    if (value.isObject()
        && (schema.type().map("object"::equals).orElse(!schema.properties().isEmpty()))) {
      object((ObjectNode) value, schema, schema.embeddedResource());
    } else if (value.isArray() && schema.items() != null) {
      var array = (ArrayNode) value;
      for (int i = array.size() - 1; i >= 0; i--) {
        if (!value(array.get(i), schema.items())) {
          array.remove(i);
        }
      }
    }
    return true;
  }

  private static void object(ObjectNode value, SchemaNode schema, boolean resource) {
    var drop = new ArrayList<String>();
    for (var field : value.properties()) {
      var name = field.getKey();
      if (resource
          && (name.equals("apiVersion") || name.equals("kind") || name.equals("metadata"))) {
        continue;
      }
      var declared = schema.properties().get(name);
      if (declared == null) {
        declared = schema.additionalProperties();
      }
      if (declared == null) {
        if (!schema.preserveUnknownFields()) {
          drop.add(name);
        }
      } else if (!value(field.getValue(), declared)) {
        drop.add(name);
      }
    }
    drop.forEach(value::remove);
  }
}
