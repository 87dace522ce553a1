package dev.versio.engine.runtime;

import dev.versio.engine.schema.Classification;
import dev.versio.engine.schema.SchemaNode;

/**
 * The object keys a schema declares, as a compact tree ({@link NameIndex}). Passthrough copies keys
 * that are <em>not</em> in it; a terminal node (scalar, array, map, opaque, empty object) is never
 * descended into.
 */
public final class KnownTree {
  private static final KnownTree TERMINAL = new KnownTree(NameIndex.EMPTY, new KnownTree[0], false);

  private final NameIndex names;
  private final KnownTree[] children;
  private final boolean structured;

  private KnownTree(NameIndex names, KnownTree[] children, boolean structured) {
    this.names = names;
    this.children = children;
    this.structured = structured;
  }

  public static KnownTree of(SchemaNode node) {
    if (!Classification.of(node).structured()) {
      return TERMINAL;
    }
    var names = NameIndex.of(node.properties().keySet());
    var children = new KnownTree[names.size()];
    for (int i = 0; i < children.length; i++) {
      children[i] = of(node.properties().get(names.name(i)));
    }
    return new KnownTree(names, children, true);
  }

  /** Whether this node is an object with declared properties. */
  public boolean structured() {
    return structured;
  }

  /** The declared child {@code name}, or null when it is not declared. */
  public KnownTree child(String name) {
    int i = names.indexOf(name);
    return i < 0 ? null : children[i];
  }
}
