package dev.versio.engine.runtime;

import dev.versio.engine.schema.Classification;
import dev.versio.engine.schema.SchemaNode;
import java.util.Arrays;

/**
 * The object keys a schema declares, as a compact tree (sorted name array, binary search).
 * Passthrough copies keys that are <em>not</em> in it; a terminal node (scalar, array, map, opaque,
 * empty object) is never descended into.
 */
public final class KnownTree {
  private static final KnownTree TERMINAL = new KnownTree(new String[0], new KnownTree[0], false);

  private final String[] names;
  private final KnownTree[] children;
  private final boolean structured;

  private KnownTree(String[] names, KnownTree[] children, boolean structured) {
    this.names = names;
    this.children = children;
    this.structured = structured;
  }

  public static KnownTree of(SchemaNode node) {
    if (!Classification.of(node).structured()) {
      return TERMINAL;
    }
    var names = node.properties().keySet().stream().sorted().toArray(String[]::new);
    var children = new KnownTree[names.length];
    for (int i = 0; i < names.length; i++) {
      children[i] = of(node.properties().get(names[i]));
    }
    return new KnownTree(names, children, true);
  }

  /** Whether this node is an object with declared properties. */
  public boolean structured() {
    return structured;
  }

  /** The declared child {@code name}, or null when it is not declared. */
  public KnownTree child(String name) {
    int i = Arrays.binarySearch(names, name);
    return i < 0 ? null : children[i];
  }
}
