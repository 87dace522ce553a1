package dev.versio.engine.schema;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Structural shape of a schema node, for deciding whether a value can be copied verbatim between
 * versions: kind, opaqueness, combinator, int-or-string, the enum value set, and — for maps and
 * opaque arrays — the value schema, recursively. Descriptions, formats, defaults and validations do
 * not change the shape: they never change what a stored value looks like.
 */
public final class Shape {
  private Shape() {}

  /** The canonical shape text of a node (array items are compared as separate leaves). */
  public static String of(SchemaNode node) {
    var c = Classification.of(node);
    if (!c.opaque()
        && node.enumValues().isEmpty()
        && node.construct() == null
        && !node.intOrString()
        && !node.preserveUnknownFields()) {
      return c.kind().wireName(); // the common case, without building a string
    }
    var sb = new StringBuilder(c.kind().wireName());
    if (c.opaque()) {
      sb.append(" opaque");
    }
    if (node.construct() != null) {
      sb.append(' ').append(node.construct());
    }
    if (node.intOrString()) {
      sb.append(" int-or-string");
    }
    if (node.preserveUnknownFields()) {
      sb.append(" preserve-unknown-fields");
    }
    if (!node.enumValues().isEmpty()) {
      sb.append(" enum ").append(enumSet(node));
    }
    if (c.isMap() && node.additionalProperties() != null) {
      sb.append(" values(").append(deep(node.additionalProperties())).append(')');
    }
    return sb.toString();
  }

  /** A deep canonical text of a whole schema subtree (used for map value schemas). */
  static String deep(SchemaNode node) {
    var sb = new StringBuilder(of(node));
    if (Classification.of(node).structured()) {
      var sorted = new TreeMap<String, SchemaNode>(node.properties());
      sb.append(" {");
      for (Map.Entry<String, SchemaNode> e : sorted.entrySet()) {
        sb.append(e.getKey()).append(':').append(deep(e.getValue())).append(';');
      }
      sb.append('}');
    }
    if (node.items() != null) {
      sb.append(" items(").append(deep(node.items())).append(')');
    }
    return sb.toString();
  }

  /** The enum values as a sorted set text, e.g. {@code ["A","B"]}. */
  public static String enumSet(SchemaNode node) {
    var values = new ArrayList<String>();
    for (JsonNode v : node.enumValues()) {
      values.add(v.toString());
    }
    return values.stream().sorted().distinct().collect(Collectors.joining(",", "[", "]"));
  }

  /** A human description for diagnostics. */
  public static String describe(SchemaNode node) {
    var c = Classification.of(node);
    if (node.construct() != null) {
      return "opaque " + node.construct();
    }
    if (node.intOrString()) {
      return "int-or-string";
    }
    if (c.isMap()) {
      var values = node.additionalProperties();
      return values == null ? "opaque object" : "map of " + describe(values);
    }
    var text = c.kind().wireName();
    if (!node.enumValues().isEmpty()) {
      text += " enum " + enumSet(node);
    }
    return text;
  }
}
