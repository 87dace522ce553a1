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
      return new Classification(kindOf(type), true, false, false);
    }
    if (node.preserveUnknownFields()) {
      return new Classification(LeafKind.OBJECT, true, false, false);
    }
    if (node.intOrString()) {
      return new Classification(LeafKind.UNKNOWN, true, false, false);
    }
    return switch (type) {
      case "object" -> {
        if (!node.properties().isEmpty()) {
          yield new Classification(LeafKind.OBJECT, false, true, false);
        }
        if (node.additionalPropertiesDeclared()) {
          yield new Classification(LeafKind.OBJECT, true, false, false);
        }
        yield new Classification(LeafKind.OBJECT, false, false, true);
      }
      case "array" -> new Classification(LeafKind.ARRAY, node.items() == null, false, false);
      case "string", "integer", "number", "boolean" ->
          new Classification(kindOf(type), false, false, false);
      default ->
          node.properties().isEmpty()
              ? new Classification(LeafKind.UNKNOWN, true, false, false)
              : new Classification(LeafKind.OBJECT, false, true, false);
    };
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
