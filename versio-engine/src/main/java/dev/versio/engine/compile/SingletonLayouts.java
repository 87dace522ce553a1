package dev.versio.engine.compile;

import dev.versio.engine.FieldPath;
import dev.versio.engine.runtime.Reshape;
import dev.versio.engine.schema.Classification;
import dev.versio.engine.schema.FlatSchema;
import dev.versio.engine.schema.LeafKind;
import dev.versio.engine.schema.SchemaNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;

/**
 * Compares a hub value's schema with a spoke value's, allowing singleton arrays on either side
 * wherever the other side holds the object, at any depth: the result is how hub values are reshaped
 * into spoke values, and which arrays lose their later elements on the way.
 */
final class SingletonLayouts {
  private SingletonLayouts() {}

  /** What comparing the two sides found. */
  sealed interface Layout {}

  /**
   * The two sides hold the same data up to singleton arrays.
   *
   * @param hubToSpoke how a hub value becomes a spoke value (its inverse goes back)
   * @param hubUnwrapped the hub arrays hub→spoke keeps only the first element of, that may hold
   *     more (no {@code maxItems} of 1)
   * @param spokeUnwrapped the same for spoke→hub
   */
  record Same(Reshape hubToSpoke, List<FieldPath> hubUnwrapped, List<FieldPath> spokeUnwrapped)
      implements Layout {}

  /** The sides differ by more than singleton arrays, first at {@code hubPath}. */
  record Different(FieldPath hubPath, String difference) implements Layout {}

  static Layout compare(
      FlatSchema hub,
      FieldPath hubPath,
      SchemaNode hubNode,
      FlatSchema spoke,
      FieldPath spokePath,
      SchemaNode spokeNode) {
    var walk = new Walk(hub, spoke);
    var reshape = walk.compare(hubPath, hubNode, spokePath, spokeNode);
    return walk.different != null
        ? walk.different
        : new Same(reshape, List.copyOf(walk.hubUnwrapped), List.copyOf(walk.spokeUnwrapped));
  }

  private static final class Walk {
    private final FlatSchema hub;
    private final FlatSchema spoke;
    private final List<FieldPath> hubUnwrapped = new ArrayList<>();
    private final List<FieldPath> spokeUnwrapped = new ArrayList<>();
    private Different different;

    Walk(FlatSchema hub, FlatSchema spoke) {
      this.hub = hub;
      this.spoke = spoke;
    }

    private static final Reshape KEEP = new Reshape(Reshape.Step.KEEP, java.util.Map.of(), null);

    Reshape compare(
        FieldPath hubPath, SchemaNode hubNode, FieldPath spokePath, SchemaNode spokeNode) {
      var h = Classification.of(hubNode);
      var s = Classification.of(spokeNode);
      if (objectArray(h, hubNode) && structuredObject(s)) {
        if (!singleton(hubNode)) {
          hubUnwrapped.add(hubPath);
        }
        var inner = compare(hubPath.child(FieldPath.ITEMS), hubNode.items(), spokePath, spokeNode);
        return new Reshape(Reshape.Step.FIRST_ELEMENT, inner.fields(), inner.items());
      }
      if (structuredObject(h) && objectArray(s, spokeNode)) {
        if (!singleton(spokeNode)) {
          spokeUnwrapped.add(spokePath);
        }
        var inner = compare(hubPath, hubNode, spokePath.child(FieldPath.ITEMS), spokeNode.items());
        return new Reshape(Reshape.Step.WRAP, inner.fields(), inner.items());
      }
      if (structuredObject(h)
          && structuredObject(s)
          && hubNode.properties().keySet().equals(spokeNode.properties().keySet())) {
        var fields = new LinkedHashMap<String, Reshape>();
        for (var e : hubNode.properties().entrySet()) {
          var name = e.getKey();
          var inner =
              compare(
                  hubPath.child(name),
                  e.getValue(),
                  spokePath.child(name),
                  spokeNode.properties().get(name));
          if (!inner.keepsAll()) {
            fields.put(name, inner);
          }
        }
        return new Reshape(Reshape.Step.KEEP, fields, null);
      }
      if (objectArray(h, hubNode) && objectArray(s, spokeNode)) {
        var inner =
            compare(
                hubPath.child(FieldPath.ITEMS),
                hubNode.items(),
                spokePath.child(FieldPath.ITEMS),
                spokeNode.items());
        return new Reshape(Reshape.Step.KEEP, java.util.Map.of(), inner.keepsAll() ? null : inner);
      }
      var difference = Structures.firstDifference(hub, hubPath, spoke, spokePath);
      if (difference != null && different == null) {
        different = new Different(hubPath, difference);
      }
      return KEEP;
    }

    private static boolean structuredObject(Classification c) {
      return c.kind() == LeafKind.OBJECT && c.structured();
    }

    private static boolean objectArray(Classification c, SchemaNode node) {
      return c.kind() == LeafKind.ARRAY
          && !c.opaque()
          && structuredObject(Classification.of(node.items()));
    }

    private static boolean singleton(SchemaNode array) {
      return array.maxItems() != null && array.maxItems() <= 1;
    }
  }
}
