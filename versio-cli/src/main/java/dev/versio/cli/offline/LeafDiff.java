package dev.versio.cli.offline;

import com.fasterxml.jackson.databind.JsonNode;
import dev.versio.engine.json.EngineJson;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Where two objects differ, as dotted paths ({@code spec.pools[1].size}); server-set metadata is
 * ignored.
 */
final class LeafDiff {
  private static final Set<String> IGNORED =
      Set.of(
          "apiVersion",
          "kind",
          "metadata.resourceVersion",
          "metadata.uid",
          "metadata.creationTimestamp",
          "metadata.generation",
          "metadata.managedFields");

  private LeafDiff() {}

  /**
   * One difference.
   *
   * @param added whether {@code b} has the field and {@code a} does not
   * @param removed whether {@code a} has the field and {@code b} does not
   */
  record Change(String path, boolean added, boolean removed) {}

  static List<String> paths(JsonNode a, JsonNode b) {
    return changes(a, b).stream().map(Change::path).toList();
  }

  /** Where {@code b} differs from {@code a}, and whether each field was added. */
  static List<Change> changes(JsonNode a, JsonNode b) {
    var out = new ArrayList<Change>();
    walk("", a, b, out);
    return out;
  }

  private static void walk(String path, JsonNode a, JsonNode b, List<Change> out) {
    if (IGNORED.contains(path)) {
      return;
    }
    if (a != null && b != null && a.isObject() && b.isObject()) {
      var keys = new TreeSet<String>();
      a.properties().forEach(e -> keys.add(e.getKey()));
      b.properties().forEach(e -> keys.add(e.getKey()));
      for (var key : keys) {
        walk(path.isEmpty() ? key : path + "." + key, a.get(key), b.get(key), out);
      }
      return;
    }
    if (a != null && b != null && a.isArray() && b.isArray() && a.size() == b.size()) {
      for (int i = 0; i < a.size(); i++) {
        walk(path + "[" + i + "]", a.get(i), b.get(i), out);
      }
      return;
    }
    if (a == null || b == null || !EngineJson.sameValue(a, b)) {
      out.add(new Change(path, a == null, b == null));
    }
  }
}
