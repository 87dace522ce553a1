package dev.versio.engine.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.versio.engine.FieldPath;
import dev.versio.engine.json.EngineJson;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which element a {@code ForEach} is converting, and what its element ops keep on the whole object.
 * An array element has no {@code metadata}, so a hub-only field of list elements is kept in one
 * annotation of the object: a JSON map from element id (its list-map key, or its position) to the
 * value, nested one level per {@code ForEach}. One scope lives for one conversion of one top-level
 * {@code ForEach}; it is not shared between threads.
 */
public final class ElementScope {
  private final JsonNode root;
  private final List<String> ids;
  private final Map<String, ObjectNode> kept;
  private final Map<String, JsonNode> stored;

  private ElementScope(
      JsonNode root, List<String> ids, Map<String, ObjectNode> kept, Map<String, JsonNode> stored) {
    this.root = root;
    this.ids = ids;
    this.kept = kept;
    this.stored = stored;
  }

  /** The scope of a top-level {@code ForEach} converting {@code root}, the whole object. */
  static ElementScope of(JsonNode root) {
    return new ElementScope(root, List.of(), new LinkedHashMap<>(), new LinkedHashMap<>());
  }

  /** The scope of the element {@code id} of an array in this scope. */
  ElementScope child(String id) {
    var next = new ArrayList<>(ids);
    next.add(id);
    return new ElementScope(root, List.copyOf(next), kept, stored);
  }

  /** Keeps {@code value} for this element under annotation {@code key}. */
  void keep(String key, JsonNode value) {
    var node = kept.computeIfAbsent(key, k -> EngineJson.nodes().objectNode());
    for (int i = 0; i < ids.size() - 1; i++) {
      var next = node.get(ids.get(i));
      node = next instanceof ObjectNode o ? o : node.putObject(ids.get(i));
    }
    node.set(ids.getLast(), value.deepCopy());
  }

  /** What annotation {@code key} of the object converted keeps for this element, or null. */
  JsonNode kept(String key, CanonicalJson json) {
    var tree =
        stored.computeIfAbsent(
            key,
            k -> {
              var raw = Tree.get(root, annotation(k));
              if (raw == null) {
                return EngineJson.nodes().nullNode();
              }
              if (!raw.isTextual()) {
                throw new OpFailure("metadata.annotations['" + k + "'] is not a string");
              }
              var parsed = json.read(raw.asText());
              if (!parsed.isObject()) {
                throw new OpFailure(
                    "metadata.annotations['"
                        + k
                        + "'] must hold a JSON object of the elements' values, found "
                        + parsed.getNodeType().name().toLowerCase(java.util.Locale.ROOT));
              }
              return parsed;
            });
    JsonNode node = tree;
    for (var id : ids) {
      node = node == null || !node.isObject() ? null : node.get(id);
    }
    return node;
  }

  /** Writes every kept map into the annotations of {@code output} (the whole converted object). */
  void writeKept(ObjectNode output, CanonicalJson json) {
    kept.forEach(
        (key, values) -> Tree.parentForWrite(output, annotation(key)).put(key, json.write(values)));
  }

  static FieldPath annotation(String key) {
    return new FieldPath(List.of("metadata", "annotations", key));
  }
}
