package dev.versio.engine.runtime;

import dev.versio.engine.schema.Classification;
import dev.versio.engine.schema.SchemaNode;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The object keys the schemas declare, as a tree. Passthrough copies keys that are <em>not</em> in
 * it; a terminal node (scalar, array, map, opaque, empty object) is never descended into.
 *
 * @param children declared properties of a structured object; empty for terminal nodes
 * @param structured whether the node is an object with declared properties
 */
public record KnownTree(Map<String, KnownTree> children, boolean structured) {
  public KnownTree {
    children = Collections.unmodifiableMap(new LinkedHashMap<>(children));
  }

  static final KnownTree TERMINAL = new KnownTree(Map.of(), false);

  public static KnownTree of(SchemaNode node) {
    if (!Classification.of(node).structured()) {
      return TERMINAL;
    }
    var children = new LinkedHashMap<String, KnownTree>();
    node.properties().forEach((k, v) -> children.put(k, of(v)));
    return new KnownTree(children, true);
  }

  /** The union of two trees: a key known on either side is known. */
  public KnownTree merge(KnownTree other) {
    if (!structured) {
      return other.structured ? other : this;
    }
    if (!other.structured) {
      return this;
    }
    var children = new LinkedHashMap<>(this.children);
    other.children.forEach((k, v) -> children.merge(k, v, KnownTree::merge));
    return new KnownTree(children, true);
  }
}
