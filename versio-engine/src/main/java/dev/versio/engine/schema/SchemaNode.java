package dev.versio.engine.schema;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One node of a version's {@code openAPIV3Schema}, reduced to what conversions care about.
 *
 * @param type the declared {@code type}, or empty
 * @param properties declared properties in declaration order
 * @param items the array item schema, or null
 * @param additionalProperties the map value schema ({@code additionalProperties: true} becomes an
 *     empty schema), or null when absent or {@code false}
 * @param additionalPropertiesDeclared whether {@code additionalProperties} was present at all
 * @param required names listed in {@code required}
 * @param enumValues the {@code enum} values, or an empty list
 * @param format the {@code format}, or null
 * @param nullable {@code nullable}
 * @param preserveUnknownFields {@code x-kubernetes-preserve-unknown-fields}
 * @param intOrString {@code x-kubernetes-int-or-string}
 * @param listType {@code x-kubernetes-list-type}, or null
 * @param listMapKeys {@code x-kubernetes-list-map-keys}
 * @param maxItems {@code maxItems}, or null
 * @param construct {@code $ref}, {@code oneOf}, {@code anyOf} or {@code allOf} when present: the
 *     engine treats such a node as opaque
 * @param embeddedResource {@code x-kubernetes-embedded-resource}: the value is an object with its
 *     own {@code apiVersion}, {@code kind} and {@code metadata}
 * @param textBounds {@code pattern}, {@code minLength} and {@code maxLength}, or null when none
 * @param numberRange {@code minimum} and {@code maximum}, or null when neither
 */
public record SchemaNode(
    Optional<String> type,
    Map<String, SchemaNode> properties,
    SchemaNode items,
    SchemaNode additionalProperties,
    boolean additionalPropertiesDeclared,
    List<String> required,
    List<JsonNode> enumValues,
    String format,
    boolean nullable,
    boolean preserveUnknownFields,
    boolean intOrString,
    String listType,
    List<String> listMapKeys,
    Long maxItems,
    String construct,
    boolean embeddedResource,
    TextBounds textBounds,
    NumberRange numberRange) {

  public SchemaNode {
    Objects.requireNonNull(type, "type");
    properties = Collections.unmodifiableMap(new LinkedHashMap<>(properties));
    required = List.copyOf(required);
    enumValues = List.copyOf(enumValues);
    listMapKeys = List.copyOf(listMapKeys);
  }

  private static final List<String> CONSTRUCTS = List.of("$ref", "oneOf", "anyOf", "allOf");

  /** Parses a schema node; unknown keywords (descriptions, validations) are ignored. */
  public static SchemaNode parse(JsonNode node) {
    if (node == null || node.isNull() || node.isMissingNode()) {
      return empty();
    }
    if (!node.isObject()) {
      throw new IllegalArgumentException(
          "a schema node must be an object, found " + node.getNodeType());
    }
    var props = new LinkedHashMap<String, SchemaNode>();
    node.path("properties")
        .properties()
        .forEach(e -> props.put(e.getKey().intern(), parse(e.getValue())));
    var required = new ArrayList<String>();
    node.path("required").forEach(r -> required.add(r.asText()));
    var enums = new ArrayList<JsonNode>();
    node.path("enum").forEach(enums::add);
    var mapKeys = new ArrayList<String>();
    node.path("x-kubernetes-list-map-keys").forEach(k -> mapKeys.add(k.asText()));
    var ap = node.get("additionalProperties");
    SchemaNode apNode = null;
    if (ap != null && ap.isObject()) {
      apNode = parse(ap);
    } else if (ap != null && ap.isBoolean() && ap.booleanValue()) {
      apNode = empty();
    }
    String construct = null;
    for (var c : CONSTRUCTS) {
      if (node.has(c)) {
        construct = c;
        break;
      }
    }
    var items = node.get("items");
    return new SchemaNode(
        Optional.ofNullable(node.hasNonNull("type") ? node.get("type").asText() : null),
        props,
        items != null && items.isObject() ? parse(items) : null,
        apNode,
        ap != null && !ap.isNull(),
        required,
        enums,
        node.hasNonNull("format") ? node.get("format").asText() : null,
        node.path("nullable").asBoolean(false),
        node.path("x-kubernetes-preserve-unknown-fields").asBoolean(false),
        node.path("x-kubernetes-int-or-string").asBoolean(false),
        node.hasNonNull("x-kubernetes-list-type")
            ? node.get("x-kubernetes-list-type").asText()
            : null,
        mapKeys,
        node.hasNonNull("maxItems") ? node.get("maxItems").asLong() : null,
        construct,
        node.path("x-kubernetes-embedded-resource").asBoolean(false),
        TextBounds.parse(node),
        NumberRange.parse(node));
  }

  /** A schema with no keywords at all (what {@code additionalProperties: true} allows). */
  public static SchemaNode empty() {
    return new SchemaNode(
        Optional.empty(),
        Map.of(),
        null,
        null,
        false,
        List.of(),
        List.of(),
        null,
        false,
        false,
        false,
        null,
        List.of(),
        null,
        null,
        false,
        null,
        null);
  }

  /** Looks up a declared property. */
  public Optional<SchemaNode> property(String name) {
    return Optional.ofNullable(properties.get(name));
  }

  public boolean isRequired(String property) {
    return required.contains(property);
  }

  /** This object schema without property {@code name} (e.g. an element minus its key field). */
  public SchemaNode withoutProperty(String name) {
    var props = new LinkedHashMap<>(properties);
    props.remove(name);
    var req = required.stream().filter(r -> !r.equals(name)).toList();
    return new SchemaNode(
        type,
        props,
        items,
        additionalProperties,
        additionalPropertiesDeclared,
        req,
        enumValues,
        format,
        nullable,
        preserveUnknownFields,
        intOrString,
        listType,
        listMapKeys,
        maxItems,
        construct,
        embeddedResource,
        textBounds,
        numberRange);
  }
}
