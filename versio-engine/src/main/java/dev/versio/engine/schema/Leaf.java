package dev.versio.engine.schema;

import dev.versio.engine.FieldPath;
import java.util.Objects;

/**
 * One leaf of a flattened schema: a scalar, an array (whose items appear as further leaves under
 * {@code path[]}), or an opaque node.
 *
 * @param path the full path, e.g. {@code spec.pools[].name}
 * @param node the schema node at that path
 * @param classification how the node is treated
 * @param required whether the parent lists it in {@code required}
 * @param shape a canonical text of everything that makes two leaves interchangeable ({@link Shape})
 */
public record Leaf(
    FieldPath path,
    SchemaNode node,
    Classification classification,
    boolean required,
    String shape) {
  public Leaf {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(node, "node");
    Objects.requireNonNull(classification, "classification");
    Objects.requireNonNull(shape, "shape");
  }

  public LeafKind kind() {
    return classification.kind();
  }

  public boolean opaque() {
    return classification.opaque();
  }

  /** The combinator that made this leaf opaque ({@code oneOf}, {@code $ref}, ...), or null. */
  public String construct() {
    return node.construct();
  }

  /** A short human description, e.g. {@code string enum [A, B]} or {@code map of integer}. */
  public String describe() {
    return Shape.describe(node);
  }
}
