package dev.versio.engine.runtime;

import dev.versio.engine.schema.Classification;
import dev.versio.engine.schema.SchemaNode;
import java.util.LinkedHashSet;
import java.util.TreeMap;

/**
 * The object keys the hub and the spoke schema declare, merged into one compact tree ({@link
 * NameIndex}): one lookup per key of a converted object tells whether either schema declares it
 * and, if so, whether there is anything below it to walk. Passthrough copies keys that are
 * <em>not</em> in it; a key that neither side declares as an object with properties (scalar, array,
 * map, opaque, empty object) is never descended into. Immutable, built once per plan and shared by
 * both directions.
 */
public final class KnownTree {
  private static final int[] NONE_WALKABLE = new int[0];

  /** A declared key with nothing below it to walk. */
  private static final KnownTree LEAF =
      new KnownTree(NameIndex.EMPTY, new KnownTree[0], false, false);

  private final NameIndex names;
  private final KnownTree[] children;
  private final boolean inHub;
  private final boolean inSpoke;
  private final int[] walkable; // the children with something below them, in the order of names

  private KnownTree(NameIndex names, KnownTree[] children, boolean inHub, boolean inSpoke) {
    this.names = names;
    this.children = children;
    this.inHub = inHub;
    this.inSpoke = inSpoke;
    var byName = new TreeMap<String, Integer>();
    for (int i = 0; i < children.length; i++) {
      if (children[i].walkable()) {
        byName.put(names.name(i), i);
      }
    }
    this.walkable =
        byName.isEmpty()
            ? NONE_WALKABLE
            : byName.values().stream().mapToInt(Integer::intValue).toArray();
  }

  /** The tree of the hub's and a spoke's root (or element) schema. */
  public static KnownTree of(SchemaNode hub, SchemaNode spoke) {
    var merged = merge(hub, spoke);
    return merged == null ? LEAF : merged;
  }

  /** Either node may be null (not declared on that side); null when neither has properties. */
  private static KnownTree merge(SchemaNode hub, SchemaNode spoke) {
    boolean inHub = hub != null && Classification.of(hub).structured();
    boolean inSpoke = spoke != null && Classification.of(spoke).structured();
    if (!inHub && !inSpoke) {
      return null;
    }
    var declared = new LinkedHashSet<String>();
    if (inHub) {
      declared.addAll(hub.properties().keySet());
    }
    if (inSpoke) {
      declared.addAll(spoke.properties().keySet());
    }
    var names = NameIndex.of(declared);
    var children = new KnownTree[names.size()];
    for (int i = 0; i < children.length; i++) {
      var name = names.name(i);
      var child =
          merge(
              inHub ? hub.properties().get(name) : null,
              inSpoke ? spoke.properties().get(name) : null);
      children[i] = child == null ? LEAF : child;
    }
    return new KnownTree(names, children, inHub, inSpoke);
  }

  /**
   * Whether either schema declares this node as an object with properties, so that its keys are
   * looked up (and the ones neither declares passed through).
   */
  public boolean walkable() {
    return this != LEAF;
  }

  /** Whether the hub schema declares this node as an object with properties. */
  public boolean inHub() {
    return inHub;
  }

  /** Whether the spoke schema declares this node as an object with properties. */
  public boolean inSpoke() {
    return inSpoke;
  }

  /** How many children have something below them to walk ({@link #walkable()}). */
  public int walkableCount() {
    return walkable.length;
  }

  /** The name of walkable child {@code i}, in the order of the names (interned). */
  public String walkableName(int i) {
    return names.name(walkable[i]);
  }

  /** Walkable child {@code i}. */
  public KnownTree walkableChild(int i) {
    return children[walkable[i]];
  }

  /** The child {@code name} when either schema declares it, else null. */
  public KnownTree child(String name) {
    int i = names.indexOf(name);
    return i < 0 ? null : children[i];
  }
}
