package dev.versio.engine.schema;

import com.fasterxml.jackson.databind.JsonNode;
import dev.versio.engine.json.EngineJson;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * Checks an object against the structural schema of its version the way the apiserver treats it on
 * a write or a conversion response: fields the schema does not declare are pruned, {@code null}
 * where it is not {@code nullable} is dropped, and types, {@code required}, {@code enum} and {@code
 * maxItems}, string patterns and lengths and numeric bounds are validated. {@code apiVersion},
 * {@code kind} and {@code metadata} of the object (and of embedded resources) are the apiserver's
 * own and are not checked here. Not checked: formats, {@code multipleOf} and CEL validation rules.
 */
public final class SchemaConformance {
  private SchemaConformance() {}

  /** What is wrong; every kind but {@link #PRUNED} makes the apiserver reject the object. */
  public enum Problem {
    /** Not declared by the schema: the apiserver drops it silently. */
    PRUNED,
    WRONG_TYPE,
    MISSING_REQUIRED,
    NOT_IN_ENUM,
    TOO_MANY_ITEMS,
    /**
     * Breaks the string's {@code pattern}, {@code minLength} or {@code maxLength}, or the number's
     * {@code minimum} or {@code maximum}.
     */
    OUT_OF_BOUNDS
  }

  /**
   * One finding.
   *
   * @param path where, e.g. {@code spec.ports[2].name}
   */
  public record Finding(String path, Problem problem, String message) {
    public Finding {
      Objects.requireNonNull(path, "path");
      Objects.requireNonNull(problem, "problem");
      Objects.requireNonNull(message, "message");
    }
  }

  /**
   * Every finding for {@code object} under its version's root {@code schema}, in document order.
   */
  public static List<Finding> check(JsonNode object, SchemaNode schema) {
    var out = new ArrayList<Finding>();
    if (object != null && object.isObject()) {
      object(object, schema, "", true, out);
    }
    return List.copyOf(out);
  }

  /**
   * Every finding for one {@code value} under its own {@code schema} node (not a whole object: the
   * {@code required} fields of its parents are not checked), named from {@code path}.
   */
  public static List<Finding> checkValue(JsonNode value, SchemaNode schema, String path) {
    var out = new ArrayList<Finding>();
    value(value, schema, path, out);
    return List.copyOf(out);
  }

  private static void value(JsonNode value, SchemaNode schema, String path, List<Finding> out) {
    if (schema.construct() != null) {
      return; // $ref/oneOf/anyOf/allOf: not structural here, nothing to say
    }
    if (value.isNull()) {
      if (!schema.nullable()) {
        out.add(
            new Finding(
                path,
                Problem.PRUNED,
                path
                    + ": null is not allowed here (the schema does not say nullable: true); the"
                    + " apiserver drops the field"));
      }
      return;
    }
    if (schema.intOrString()) {
      if (!value.isIntegralNumber() && !value.isTextual()) {
        out.add(wrongType(path, "an integer or a string", value));
      }
      return;
    }
    var type = schema.type().orElse("");
    switch (type) {
      case "object" -> {
        if (!value.isObject()) {
          out.add(wrongType(path, "an object", value));
        } else {
          object(value, schema, path, schema.embeddedResource(), out);
        }
      }
      case "array" -> {
        if (!value.isArray()) {
          out.add(wrongType(path, "a list", value));
          return;
        }
        if (schema.maxItems() != null && value.size() > schema.maxItems()) {
          out.add(
              new Finding(
                  path,
                  Problem.TOO_MANY_ITEMS,
                  path + ": has " + value.size() + " items; at most " + schema.maxItems()));
        }
        if (schema.items() != null) {
          for (int i = 0; i < value.size(); i++) {
            value(value.get(i), schema.items(), path + "[" + i + "]", out);
          }
        }
      }
      case "string" -> {
        if (!value.isTextual()) {
          out.add(wrongType(path, "a string", value));
        } else if (schema.textBounds() != null) {
          schema
              .textBounds()
              .violation(value.textValue())
              .ifPresent(
                  why ->
                      out.add(
                          new Finding(
                              path, Problem.OUT_OF_BOUNDS, path + ": " + value + " " + why)));
        }
      }
      case "integer" -> {
        if (!isInteger(value)) {
          out.add(wrongType(path, "an integer", value));
        } else {
          range(value, schema, path, out);
        }
      }
      case "number" -> {
        if (!value.isNumber()) {
          out.add(wrongType(path, "a number", value));
        } else {
          range(value, schema, path, out);
        }
      }
      case "boolean" -> {
        if (!value.isBoolean()) {
          out.add(wrongType(path, "true or false", value));
        }
      }
      default -> {
        if (value.isObject() && !schema.properties().isEmpty()) {
          object(value, schema, path, schema.embeddedResource(), out);
        }
      }
    }
    if (!schema.enumValues().isEmpty()
        && schema.enumValues().stream().noneMatch(e -> EngineJson.sameValue(e, value))) {
      out.add(
          new Finding(
              path,
              Problem.NOT_IN_ENUM,
              path
                  + ": "
                  + value
                  + " is not one of "
                  + schema.enumValues().stream()
                      .map(JsonNode::toString)
                      .collect(Collectors.joining(", "))));
    }
  }

  private static void object(
      JsonNode value, SchemaNode schema, String path, boolean resource, List<Finding> out) {
    for (var name : schema.required()) {
      if (!value.has(name)) {
        var at = child(path, name);
        out.add(
            new Finding(
                at, Problem.MISSING_REQUIRED, at + ": is required by the schema and missing"));
      }
    }
    for (var field : value.properties()) {
      var name = field.getKey();
      if (resource
          && (name.equals("apiVersion") || name.equals("kind") || name.equals("metadata"))) {
        continue;
      }
      var at = child(path, name);
      var declared = schema.properties().get(name);
      if (declared != null) {
        value(field.getValue(), declared, at, out);
      } else if (schema.additionalProperties() != null) {
        value(field.getValue(), schema.additionalProperties(), at, out);
      } else if (!schema.preserveUnknownFields()) {
        out.add(
            new Finding(
                at,
                Problem.PRUNED,
                at + ": not in the schema; the apiserver prunes it (drops it silently)"));
      }
    }
  }

  private static void range(JsonNode value, SchemaNode schema, String path, List<Finding> out) {
    if (schema.numberRange() != null) {
      schema
          .numberRange()
          .violation(value)
          .ifPresent(
              why ->
                  out.add(
                      new Finding(path, Problem.OUT_OF_BOUNDS, path + ": " + value + " " + why)));
    }
  }

  private static boolean isInteger(JsonNode value) {
    if (value.isIntegralNumber()) {
      return true;
    }
    if (!value.isNumber()) {
      return false;
    }
    var decimal = value.decimalValue();
    return decimal.signum() == 0 || decimal.stripTrailingZeros().scale() <= 0;
  }

  private static Finding wrongType(String path, String expected, JsonNode value) {
    var found =
        switch (value.getNodeType()) {
          case STRING -> "the string " + value;
          case NUMBER -> "the number " + value;
          case BOOLEAN -> value.toString();
          case ARRAY -> "a list";
          case OBJECT -> "an object";
          default -> value.getNodeType().name().toLowerCase(Locale.ROOT);
        };
    return new Finding(
        path, Problem.WRONG_TYPE, path + ": must be " + expected + ", found " + found);
  }

  private static String child(String path, String name) {
    var segment = name.contains(".") || name.isEmpty() ? "[\"" + name + "\"]" : name;
    if (path.isEmpty()) {
      return segment;
    }
    return segment.startsWith("[") ? path + segment : path + "." + segment;
  }
}
