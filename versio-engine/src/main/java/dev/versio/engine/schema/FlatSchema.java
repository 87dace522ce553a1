package dev.versio.engine.schema;

import dev.versio.engine.FieldPath;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A version's schema flattened into leaves (in declaration order), plus lookups by path.
 *
 * <p>Structured objects (with {@code properties}) are recursed into and yield no leaf of their own;
 * empty objects yield nothing; arrays yield a leaf and, when their item schema is known, further
 * leaves under {@code path[]}; everything else is a leaf.
 */
public final class FlatSchema {
  private final SchemaNode root;
  private final Map<FieldPath, Leaf> leaves;

  private FlatSchema(SchemaNode root, Map<FieldPath, Leaf> leaves) {
    this.root = root;
    this.leaves = Collections.unmodifiableMap(leaves);
  }

  /** Flattens {@code root} (the whole object schema, or one array element's schema). */
  public static FlatSchema of(SchemaNode root) {
    var leaves = new LinkedHashMap<FieldPath, Leaf>();
    var c = Classification.of(root);
    if (c.structured()) {
      flattenProperties(root, FieldPath.root(), leaves);
    } else if (!c.empty()) {
      leaves.put(FieldPath.root(), new Leaf(FieldPath.root(), root, c, false));
    }
    return new FlatSchema(root, leaves);
  }

  private static void flattenProperties(
      SchemaNode object, FieldPath prefix, Map<FieldPath, Leaf> out) {
    for (var e : object.properties().entrySet()) {
      flatten(e.getValue(), prefix.child(e.getKey()), object.isRequired(e.getKey()), out);
    }
  }

  private static void flatten(
      SchemaNode node, FieldPath path, boolean required, Map<FieldPath, Leaf> out) {
    var c = Classification.of(node);
    if (c.structured()) {
      flattenProperties(node, path, out);
      return;
    }
    if (c.empty()) {
      return;
    }
    out.put(path, new Leaf(path, node, c, required));
    if (c.kind() == LeafKind.ARRAY && !c.opaque()) {
      flatten(node.items(), path.child(FieldPath.ITEMS), false, out);
    }
  }

  public SchemaNode root() {
    return root;
  }

  /** All leaves in declaration order. */
  public Map<FieldPath, Leaf> leaves() {
    return leaves;
  }

  public Optional<Leaf> leaf(FieldPath path) {
    return Optional.ofNullable(leaves.get(path));
  }

  /** The leaves at or below {@code path} (for subtree claims and structural comparison). */
  public List<Leaf> subtree(FieldPath path) {
    var out = new ArrayList<Leaf>();
    for (var leaf : leaves.values()) {
      if (leaf.path().startsWith(path)) {
        out.add(leaf);
      }
    }
    return out;
  }

  /**
   * Resolves a rule path by following {@code properties} only.
   *
   * @return the node, or a lookup error that names the first missing segment and what is declared
   */
  public Lookup lookup(FieldPath path) {
    var node = root;
    var walked = FieldPath.root();
    for (var segment : path.segments()) {
      var c = Classification.of(node);
      if (!c.structured()) {
        return Lookup.failure(
            "cannot descend into '"
                + walked
                + "': it is "
                + Shape.describe(node)
                + ", not an object with declared properties");
      }
      var next = node.properties().get(segment);
      walked = walked.child(segment);
      if (next == null) {
        return Lookup.failure(
            "'"
                + walked
                + "' is not declared"
                + (walked.size() > 1 ? " under '" + walked.parent() + "'" : "")
                + " (declared: "
                + String.join(", ", node.properties().keySet())
                + ")");
      }
      node = next;
    }
    return Lookup.found(node);
  }

  /** The outcome of {@link #lookup}: a node or an error message. */
  public record Lookup(SchemaNode node, String error) {
    static Lookup found(SchemaNode node) {
      return new Lookup(node, null);
    }

    static Lookup failure(String error) {
      return new Lookup(null, error);
    }

    public boolean ok() {
      return node != null;
    }

    public Classification classification() {
      return Classification.of(node);
    }
  }
}
