package dev.versio.engine.compile;

import dev.versio.engine.FieldPath;
import dev.versio.engine.schema.FlatSchema;
import dev.versio.engine.schema.Leaf;
import java.util.LinkedHashMap;
import java.util.Map;

/** Structural comparison of two subtrees of flattened schemas, relative to their roots. */
final class Structures {
  private Structures() {}

  /**
   * The first difference between the leaves under {@code hubPath} and under {@code spokePath}
   * (compared relative to those paths), or null when they have the same shape.
   */
  static String firstDifference(
      FlatSchema hub, FieldPath hubPath, FlatSchema spoke, FieldPath spokePath) {
    var hubLeaves = hub.subtree(hubPath);
    var spokeLeaves = spoke.subtree(spokePath);
    if (hubLeaves.size() == 1
        && spokeLeaves.size() == 1
        && hubLeaves.getFirst().path().equals(hubPath)
        && spokeLeaves.getFirst().path().equals(spokePath)
        && hubLeaves.getFirst().shape().equals(spokeLeaves.getFirst().shape())) {
      return null; // the common case: two single leaves of one shape
    }
    var left = relative(hub, hubPath);
    var right = relative(spoke, spokePath);
    for (var e : left.entrySet()) {
      var other = right.get(e.getKey());
      var where = e.getKey().isEmpty() ? "" : " at " + e.getKey();
      if (other == null) {
        return "hub has" + where + " " + e.getValue().describe() + " that the spoke lacks";
      }
      if (!other.shape().equals(e.getValue().shape())) {
        return "hub" + where + " is " + e.getValue().describe() + ", spoke is " + other.describe();
      }
    }
    for (var e : right.entrySet()) {
      if (!left.containsKey(e.getKey())) {
        return "spoke has"
            + (e.getKey().isEmpty() ? "" : " at " + e.getKey())
            + " "
            + e.getValue().describe()
            + " that the hub lacks";
      }
    }
    return null;
  }

  private static Map<String, Leaf> relative(FlatSchema schema, FieldPath root) {
    var out = new LinkedHashMap<String, Leaf>();
    for (var leaf : schema.subtree(root)) {
      var rel = new FieldPath(leaf.path().segments().subList(root.size(), leaf.path().size()));
      out.put(rel.toString(), leaf);
    }
    return out;
  }
}
