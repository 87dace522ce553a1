package dev.versio.engine.compile;

import dev.versio.engine.FieldPath;
import dev.versio.engine.schema.FlatSchema;
import java.util.HashMap;
import java.util.Map;

/** Which leaves of one side are covered, and by which rule (-1: auto-covered as identical). */
final class Claims {
  private final FlatSchema schema;
  private final Map<FieldPath, Integer> owners = new HashMap<>();

  Claims(FlatSchema schema) {
    this.schema = schema;
  }

  boolean isClaimed(FieldPath path) {
    return owners.containsKey(path);
  }

  Integer owner(FieldPath path) {
    return owners.get(path);
  }

  /** The claimed paths strictly below {@code path}, relative to it (rules below an opaque node). */
  java.util.List<FieldPath> claimedBelow(FieldPath path) {
    var out = new java.util.ArrayList<FieldPath>();
    for (var claimed : owners.keySet()) {
      if (claimed.size() > path.size()
          && claimed.segments().subList(0, path.size()).equals(path.segments())) {
        out.add(new FieldPath(claimed.segments().subList(path.size(), claimed.size())));
      }
    }
    out.sort(java.util.Comparator.comparing(FieldPath::toString));
    return out;
  }

  /** Claims exactly {@code path}; returns the earlier owner on a double claim, else null. */
  Integer claim(FieldPath path, int rule) {
    return owners.putIfAbsent(path, rule);
  }

  /**
   * Claims {@code path} and every leaf below it; returns the first earlier owner met, else null.
   */
  Integer claimSubtree(FieldPath path, int rule) {
    Integer clash = claim(path, rule);
    for (var leaf : schema.subtree(path)) {
      if (!leaf.path().equals(path)) {
        var earlier = claim(leaf.path(), rule);
        if (clash == null && earlier != null) {
          clash = earlier;
        }
      }
    }
    return clash;
  }
}
