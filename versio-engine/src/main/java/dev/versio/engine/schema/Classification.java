package dev.versio.engine.schema;

/**
 * How the flattener treats one schema node.
 *
 * @param kind the leaf kind
 * @param opaque whether the node is copied as a whole (maps, preserve-unknown-fields, combinators,
 *     int-or-string, arrays without items)
 * @param structured whether the node is an object with declared properties (recursed into, no leaf
 *     of its own)
 * @param empty whether the node is an object with neither properties nor additionalProperties (no
 *     leaf at all)
 */
public record Classification(LeafKind kind, boolean opaque, boolean structured, boolean empty) {

  /** Classifies a node; combinators and preserve-unknown-fields win over everything else. */
  public static Classification of(SchemaNode node) {
    var type = node.type().orElse("");
    if (node.construct() != null) {
      return of(kindOf(type), true, false, false);
    }
    if (node.preserveUnknownFields()) {
      return of(LeafKind.OBJECT, true, false, false);
    }
    if (node.intOrString()) {
      return of(LeafKind.UNKNOWN, true, false, false);
    }
    return switch (type) {
      case "object" -> {
        if (!node.properties().isEmpty()) {
          yield of(LeafKind.OBJECT, false, true, false);
        }
        if (node.additionalPropertiesDeclared()) {
          yield of(LeafKind.OBJECT, true, false, false);
        }
        yield of(LeafKind.OBJECT, false, false, true);
      }
      case "array" -> of(LeafKind.ARRAY, node.items() == null, false, false);
      case "string", "integer", "number", "boolean" -> of(kindOf(type), false, false, false);
      default ->
          node.properties().isEmpty()
              ? of(LeafKind.UNKNOWN, true, false, false)
              : of(LeafKind.OBJECT, false, true, false);
    };
  }

  /** Every classification, built once: classifying a node allocates nothing. */
  private static final Classification[] ALL = new Classification[LeafKind.values().length * 8];

  static {
    for (var kind : LeafKind.values()) {
      for (int flags = 0; flags < 8; flags++) {
        ALL[index(kind, (flags & 4) != 0, (flags & 2) != 0, (flags & 1) != 0)] =
            new Classification(kind, (flags & 4) != 0, (flags & 2) != 0, (flags & 1) != 0);
      }
    }
  }

  private static int index(LeafKind kind, boolean opaque, boolean structured, boolean empty) {
    return kind.ordinal() * 8 + (opaque ? 4 : 0) + (structured ? 2 : 0) + (empty ? 1 : 0);
  }

  private static Classification of(
      LeafKind kind, boolean opaque, boolean structured, boolean empty) {
    return ALL[index(kind, opaque, structured, empty)];
  }

  private static LeafKind kindOf(String type) {
    return switch (type) {
      case "object" -> LeafKind.OBJECT;
      case "array" -> LeafKind.ARRAY;
      case "string" -> LeafKind.STRING;
      case "integer" -> LeafKind.INTEGER;
      case "number" -> LeafKind.NUMBER;
      case "boolean" -> LeafKind.BOOLEAN;
      default -> LeafKind.UNKNOWN;
    };
  }

  /** Whether this node is a map (an opaque object whose values have a schema). */
  public boolean isMap() {
    return kind == LeafKind.OBJECT && opaque;
  }
}
