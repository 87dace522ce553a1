package dev.versio.engine.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.versio.engine.schema.SchemaNode;
import java.util.Map;
import java.util.TreeMap;

/**
 * Where an object may hold a JSON {@code null} in place of an object or an array its schema
 * declares, and how to read the object without them. Server-side apply sends such objects through
 * conversion: a map or list it pruned arrives as {@code null} ({@code "spec": null}, {@code
 * "rules": null}), and an answer that keeps one makes the apiserver store it ("status in body must
 * be of type object"). The apiserver itself prunes a {@code null} in a field that is not {@code
 * nullable}, so reading it as absent loses nothing. A field whose schema says {@code nullable:
 * true}, a {@code null} scalar and anything below an opaque node keep their {@code null}. {@code
 * metadata} and its {@code labels} and {@code annotations} count as declared objects.
 *
 * <p>Describes one object position of the schema; immutable, built once per plan.
 */
public final class NullContainers {
  /** Reads every {@code null} as it is: for plans built without schemas, and opaque nodes. */
  public static final NullContainers NONE = new NullContainers(NameIndex.EMPTY, new Slot[0], null);

  /**
   * What a field (or a map's value) may hold.
   *
   * @param droppable an object or an array that is not {@code nullable}: a {@code null} there is
   *     read as absent
   * @param object the positions below it when it holds an object, or null
   * @param elements the positions below each element when it holds an array of objects, or null
   */
  private record Slot(boolean droppable, NullContainers object, NullContainers elements) {}

  private final NameIndex names; // the declared properties that may hold a null to drop
  private final Slot[] slots; // in the order of names
  private final Slot values; // a map's values, or null

  private NullContainers(NameIndex names, Slot[] slots, Slot values) {
    this.names = names;
    this.slots = slots;
    this.values = values;
  }

  /**
   * The null containers of a version's root schema (the one with {@code spec} and {@code status}).
   */
  public static NullContainers of(SchemaNode root) {
    var fields = new TreeMap<String, Slot>();
    collect(root, 0, fields);
    var maps = new Slot(true, null, null);
    var metadata = of(Map.of("annotations", maps, "labels", maps), null);
    fields.put("metadata", new Slot(true, metadata, null));
    return of(fields, null);
  }

  private static NullContainers of(Map<String, Slot> fields, Slot values) {
    var names = NameIndex.of(fields.keySet());
    var slots = new Slot[names.size()];
    for (int i = 0; i < slots.length; i++) {
      slots[i] = fields.get(names.name(i));
    }
    return new NullContainers(names, slots, values);
  }

  /** The object position of {@code node}, or null when nothing below it can be dropped. */
  private static NullContainers object(SchemaNode node, int depth) {
    var fields = new TreeMap<String, Slot>();
    collect(node, depth, fields);
    var values =
        node.properties().isEmpty() && node.additionalProperties() != null
            ? slot(node.additionalProperties(), depth + 1)
            : null;
    return fields.isEmpty() && values == null ? null : of(fields, values);
  }

  private static void collect(SchemaNode node, int depth, Map<String, Slot> into) {
    if (depth > 64) {
      return; // deeper than any schema the apiserver accepts; left as it is
    }
    node.properties()
        .forEach(
            (name, child) -> {
              var slot = slot(child, depth + 1);
              if (slot != null) {
                into.put(name, slot);
              }
            });
  }

  /** What a field of schema {@code node} may hold, or null when nothing there is dropped. */
  private static Slot slot(SchemaNode node, int depth) {
    var type = node.type().orElse("");
    boolean droppable = !node.nullable();
    return switch (type) {
      case "object" -> {
        boolean opaque = node.properties().isEmpty() && node.additionalProperties() == null;
        yield new Slot(droppable, opaque ? null : object(node, depth), null);
      }
      case "array" -> {
        var items = node.items();
        var elements =
            items != null && items.type().orElse("").equals("object") ? object(items, depth) : null;
        yield new Slot(droppable, null, elements);
      }
      default -> null;
    };
  }

  /**
   * {@code object} itself when it holds no {@code null} to drop (no copy), else a copy without
   * them.
   */
  public JsonNode without(JsonNode object) {
    // objects read from storage hold no null (the apiserver prunes them): a pass that looks only
    // where a null could be dropped settles most conversions, without descending into what the
    // schema keeps as it is (metadata.managedFields, maps of strings, opaque nodes)
    if (this == NONE || !(object instanceof ObjectNode root) || !holdsDroppable(root)) {
      return object;
    }
    var copy = object.deepCopy();
    strip(copy);
    return copy;
  }

  private Slot slot(String name) {
    if (values != null) {
      return values;
    }
    int i = names.indexOf(name);
    return i >= 0 ? slots[i] : null;
  }

  private boolean holdsDroppable(ObjectNode object) {
    if (values != null) {
      for (var value : object) {
        if (drops(values, value)) {
          return true;
        }
      }
      return false;
    }
    if (names.size() <= object.size()) {
      // fewer positions than keys: ask the object for each (the usual case at the top level)
      for (int i = 0; i < slots.length; i++) {
        var value = object.get(names.name(i));
        if (value != null && drops(slots[i], value)) {
          return true;
        }
      }
      return false;
    }
    for (var entry : object.properties()) {
      int i = names.indexOf(entry.getKey());
      if (i >= 0 && drops(slots[i], entry.getValue())) {
        return true;
      }
    }
    return false;
  }

  /** Whether {@code value}, held where {@code slot} describes, is or holds a null to drop. */
  private static boolean drops(Slot slot, JsonNode value) {
    if (value instanceof NullNode) {
      return slot.droppable();
    }
    if (value instanceof ObjectNode object) {
      return slot.object() != null && slot.object().holdsDroppable(object);
    }
    if (value instanceof ArrayNode array && slot.elements() != null) {
      for (var element : array) {
        if (element instanceof ObjectNode object && slot.elements().holdsDroppable(object)) {
          return true;
        }
      }
    }
    return false;
  }

  private void strip(JsonNode node) {
    if (!(node instanceof ObjectNode object)) {
      return;
    }
    var fields = object.properties().iterator();
    while (fields.hasNext()) {
      var entry = fields.next();
      var slot = slot(entry.getKey());
      if (slot == null) {
        continue;
      }
      var value = entry.getValue();
      if (value.isNull()) {
        if (slot.droppable()) {
          fields.remove();
        }
      } else if (value.isObject() && slot.object() != null) {
        slot.object().strip(value);
      } else if (value.isArray() && slot.elements() != null) {
        value.forEach(slot.elements()::strip);
      }
    }
  }
}
