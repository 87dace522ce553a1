package dev.versio.engine.compile;

import dev.versio.engine.schema.SchemaNode;
import java.util.List;

/** How a {@code ForEach} names an element for the values it keeps in annotations. */
final class ElementIds {
  private ElementIds() {}

  /**
   * The list-map keys both arrays declare alike (and both element schemas declare as fields), so
   * that an element is found again by its key whatever its position; empty to use the position.
   */
  static List<String> keyFields(SchemaNode hub, SchemaNode spoke) {
    var keys = hub.listMapKeys();
    if (keys.isEmpty()
        || !"map".equals(hub.listType())
        || !"map".equals(spoke.listType())
        || !keys.equals(spoke.listMapKeys())) {
      return List.of();
    }
    for (var key : keys) {
      if (!hub.items().properties().containsKey(key)
          || !spoke.items().properties().containsKey(key)) {
        return List.of();
      }
    }
    return keys;
  }
}
