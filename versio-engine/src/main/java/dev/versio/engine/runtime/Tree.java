package dev.versio.engine.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.versio.engine.FieldPath;
import java.util.List;
import java.util.Locale;

/** Reads and writes of object trees along pre-split paths (object keys only, no array steps). */
public final class Tree {
  private Tree() {}

  /** The value at {@code path}, or null when any step is missing or not an object. */
  public static JsonNode get(JsonNode root, FieldPath path) {
    var node = root;
    for (var segment : path.segments()) {
      if (node == null || !node.isObject()) {
        return null;
      }
      node = node.get(segment);
    }
    return node;
  }

  /**
   * Writes {@code value} at {@code path}, creating missing parent objects and merging into existing
   * ones. Fails when a parent exists but is not an object.
   */
  public static void set(ObjectNode root, FieldPath path, JsonNode value) {
    var parent = parentForWrite(root, path);
    parent.set(path.last(), value);
  }

  /** The object that holds the last segment of {@code path}, created if missing. */
  static ObjectNode parentForWrite(ObjectNode root, FieldPath path) {
    ObjectNode node = root;
    List<String> segments = path.segments();
    for (int i = 0; i < segments.size() - 1; i++) {
      var segment = segments.get(i);
      var next = node.get(segment);
      if (next == null || next.isNull()) {
        node = node.putObject(segment);
      } else if (next.isObject()) {
        node = (ObjectNode) next;
      } else {
        throw new OpFailure(
            "cannot write "
                + path
                + ": '"
                + String.join(".", segments.subList(0, i + 1))
                + "' is a "
                + next.getNodeType().name().toLowerCase(Locale.ROOT)
                + ", not an object");
      }
    }
    return node;
  }

  /**
   * Removes {@code path} and then every parent map it leaves empty, stopping below {@code keep}.
   */
  static void deletePruning(ObjectNode root, FieldPath path, int keepDepth) {
    for (int depth = path.size(); depth > keepDepth; depth--) {
      var current = path.segments().subList(0, depth);
      var parent = get(root, new FieldPath(current.subList(0, depth - 1)));
      if (parent == null || !parent.isObject()) {
        return;
      }
      var obj = (ObjectNode) parent;
      var child = obj.get(current.getLast());
      if (depth == path.size() || (child != null && child.isObject() && child.isEmpty())) {
        obj.remove(current.getLast());
      } else {
        return;
      }
    }
  }
}
