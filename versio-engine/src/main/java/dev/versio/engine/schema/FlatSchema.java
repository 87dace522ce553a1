package dev.versio.engine.schema;

import dev.versio.engine.FieldPath;
import java.util.Collections;
import java.util.HashMap;
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
  private final List<Leaf> ordered;
  // [first, end) positions in `ordered` of the leaves at or below every node: flattening is
  // depth-first, so a subtree is one contiguous run and subtree() costs O(size of the subtree).
  private final Map<FieldPath, int[]> ranges;

  private FlatSchema(SchemaNode root, Map<FieldPath, Leaf> leaves, Map<FieldPath, int[]> ranges) {
    this.root = root;
    this.leaves = Collections.unmodifiableMap(leaves);
    this.ordered = List.copyOf(leaves.values());
    this.ranges = ranges;
  }

  /** Flattens {@code root} (the whole object schema, or one array element's schema). */
  public static FlatSchema of(SchemaNode root) {
    var leaves = new LinkedHashMap<FieldPath, Leaf>();
    var ranges = new HashMap<FieldPath, int[]>();
    flatten(root, FieldPath.root(), false, leaves, ranges);
    return new FlatSchema(root, leaves, ranges);
  }

  private static void flatten(
      SchemaNode node,
      FieldPath path,
      boolean required,
      Map<FieldPath, Leaf> out,
      Map<FieldPath, int[]> ranges) {
    int first = out.size();
    var c = Classification.of(node);
    if (c.structured()) {
      for (var e : node.properties().entrySet()) {
        flatten(e.getValue(), path.child(e.getKey()), node.isRequired(e.getKey()), out, ranges);
      }
    } else if (!c.empty()) {
      out.put(path, new Leaf(path, node, c, required, Shape.of(node)));
      if (c.kind() == LeafKind.ARRAY && !c.opaque()) {
        flatten(node.items(), path.child(FieldPath.ITEMS), false, out, ranges);
      }
    }
    ranges.put(path, new int[] {first, out.size()});
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
    var range = ranges.get(path);
    return range == null ? List.of() : ordered.subList(range[0], range[1]);
  }

  /**
   * Resolves a rule path by following {@code properties}. Below a node that keeps unknown fields
   * ({@code x-kubernetes-preserve-unknown-fields}, as projects that ship opaque CRDs declare {@code
   * spec}) any path resolves, to a node that declares nothing, and the lookup says where the schema
   * stopped knowing: a rule may reach there, but only samples can check it.
   *
   * @return the node, or a lookup error that names the first missing segment and what is declared
   */
  public Lookup lookup(FieldPath path) {
    var node = root;
    for (int i = 0; i < path.size(); i++) {
      var segment = path.segments().get(i);
      if (node.preserveUnknownFields() && node.construct() == null) {
        // fields declared beside unknown ones keep their types
        var declared = node.properties().get(segment);
        if (declared != null) {
          node = declared;
          continue;
        }
        return new Lookup(SchemaNode.empty(), null, new FieldPath(path.segments().subList(0, i)));
      }
      var c = Classification.of(node);
      if (!c.structured()) {
        var walked = new FieldPath(path.segments().subList(0, i));
        return Lookup.failure(
            "cannot descend into '"
                + walked
                + "': it is "
                + Shape.describe(node)
                + ", not an object with declared properties");
      }
      var next = node.properties().get(segment);
      if (next == null) {
        var walked = new FieldPath(path.segments().subList(0, i + 1));
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

  /**
   * The outcome of {@link #lookup}: a node or an error message.
   *
   * @param opaqueAt the node that keeps unknown fields the path runs below, or null when the schema
   *     declares the whole path
   */
  public record Lookup(SchemaNode node, String error, FieldPath opaqueAt) {
    static Lookup found(SchemaNode node) {
      return new Lookup(node, null, null);
    }

    static Lookup failure(String error) {
      return new Lookup(null, error, null);
    }

    /** Whether the path runs below a node that keeps unknown fields. */
    public boolean belowOpaque() {
      return opaqueAt != null;
    }

    public boolean ok() {
      return node != null;
    }

    public Classification classification() {
      return Classification.of(node);
    }
  }
}
