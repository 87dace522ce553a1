package dev.versio.engine.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.versio.engine.FieldPath;
import dev.versio.engine.json.EngineJson;
import dev.versio.engine.rule.Rule.FractionalPolicy;
import dev.versio.engine.schema.LeafKind;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/** Ops that reshape collections: joined lists, arrays keyed into maps, renamed map keys. */
public sealed interface CollectionOp extends Op {

  /** Joins an array of scalars into one string (ListJoin hub→spoke, ListSplit spoke→hub). */
  record JoinList(FieldPath from, FieldPath to, String separator) implements CollectionOp {
    @Override
    public void apply(JsonNode input, ObjectNode output) {
      var value = Tree.get(input, from);
      if (value == null) {
        return;
      }
      if (!value.isArray()) {
        throw new OpFailure("expected an array at " + from + ", found " + Coercion.kind(value));
      }
      var parts = new ArrayList<String>(value.size());
      for (int i = 0; i < value.size(); i++) {
        var element = value.get(i);
        if (element.isNull() || element.isContainerNode()) {
          throw new OpFailure(
              "element " + i + " of " + from + " is " + Coercion.kind(element) + ", not a scalar");
        }
        parts.add(Coercion.text(element));
      }
      Tree.set(output, to, EngineJson.nodes().textNode(String.join(separator, parts)));
    }
  }

  /** Splits a string into an array of {@code itemKind} ({@code ""} gives {@code []}). */
  record SplitList(FieldPath from, FieldPath to, String separator, LeafKind itemKind)
      implements CollectionOp {
    public SplitList {
      if (separator == null || separator.isEmpty()) {
        throw new IllegalArgumentException("a list is split on a separator that is not empty");
      }
    }

    @Override
    public void apply(JsonNode input, ObjectNode output) {
      var value = Tree.get(input, from);
      if (value == null) {
        return;
      }
      if (!value.isTextual()) {
        throw new OpFailure("expected a string at " + from + ", found " + Coercion.kind(value));
      }
      var array = EngineJson.nodes().arrayNode();
      if (!value.asText().isEmpty()) {
        // the separator is literal text: found by indexOf, never compiled into a regex per call
        var text = value.asText();
        int start = 0;
        int at;
        while ((at = text.indexOf(separator, start)) >= 0) {
          array.add(part(text.substring(start, at)));
          start = at + separator.length();
        }
        array.add(part(text.substring(start)));
      }
      Tree.set(output, to, array);
    }

    private JsonNode part(String text) {
      return Coercion.to(itemKind, EngineJson.nodes().textNode(text), FractionalPolicy.ERROR);
    }
  }

  /**
   * An array of objects → a map keyed by each element's {@code keyField} (removed from the value).
   */
  record ArrayToMap(FieldPath from, FieldPath to, String keyField) implements CollectionOp {
    @Override
    public void apply(JsonNode input, ObjectNode output) {
      var value = Tree.get(input, from);
      if (value == null) {
        return;
      }
      if (!value.isArray()) {
        throw new OpFailure("expected an array at " + from + ", found " + Coercion.kind(value));
      }
      var map = EngineJson.nodes().objectNode();
      for (int i = 0; i < value.size(); i++) {
        var element = value.get(i);
        if (!element.isObject()) {
          throw new OpFailure("element " + i + " of " + from + " is not an object");
        }
        var key = element.get(keyField);
        if (key == null || !key.isTextual()) {
          throw new OpFailure(
              "element " + i + " of " + from + " has no string '" + keyField + "' to key it by");
        }
        if (map.has(key.asText())) {
          throw new OpFailure(
              "two elements of "
                  + from
                  + " have "
                  + keyField
                  + " '"
                  + key.asText()
                  + "'; keys must be unique");
        }
        var entry = ((ObjectNode) element).deepCopy();
        entry.remove(keyField);
        map.set(key.asText(), entry);
      }
      Tree.set(output, to, map);
    }
  }

  /**
   * A map of objects → an array sorted by key (byte-wise), each element {keyField: key, ...value}.
   */
  record MapToArray(FieldPath from, FieldPath to, String keyField) implements CollectionOp {
    @Override
    public void apply(JsonNode input, ObjectNode output) {
      var value = Tree.get(input, from);
      if (value == null) {
        return;
      }
      if (!value.isObject()) {
        throw new OpFailure(
            "expected an object (map) at " + from + ", found " + Coercion.kind(value));
      }
      var sorted = new TreeMap<String, JsonNode>(MapToArray::byteOrder);
      for (var entry : value.properties()) {
        sorted.put(entry.getKey(), entry.getValue());
      }
      var array = EngineJson.nodes().arrayNode(sorted.size());
      for (var entry : sorted.entrySet()) {
        if (!entry.getValue().isObject()) {
          throw new OpFailure(
              "the value of key '" + entry.getKey() + "' in " + from + " is not an object");
        }
        var element = EngineJson.nodes().objectNode();
        element.put(keyField, entry.getKey());
        element.setAll((ObjectNode) entry.getValue().deepCopy());
        array.add(element);
      }
      Tree.set(output, to, array);
    }

    /** Byte-wise UTF-8 order (Go's sort.Strings), which is Unicode code point order. */
    private static int byteOrder(String a, String b) {
      int i = 0;
      int j = 0;
      while (i < a.length() && j < b.length()) {
        int ca = a.codePointAt(i);
        int cb = b.codePointAt(j);
        if (ca != cb) {
          return Integer.compare(ca, cb);
        }
        i += Character.charCount(ca);
        j += Character.charCount(cb);
      }
      return Integer.compare(a.length() - i, b.length() - j);
    }
  }

  /**
   * Renames the listed keys of a map; other keys pass through. A key that would collide, or that
   * would come back renamed on the reverse trip ({@code reserved}: the other direction's sources),
   * fails instead of silently changing the data.
   */
  record RenameKeys(FieldPath from, FieldPath to, Map<String, String> renames, Set<String> reserved)
      implements CollectionOp {
    public RenameKeys {
      renames = Map.copyOf(renames);
      reserved = Set.copyOf(reserved);
    }

    @Override
    public void apply(JsonNode input, ObjectNode output) {
      var value = Tree.get(input, from);
      if (value == null) {
        return;
      }
      if (!value.isObject()) {
        throw new OpFailure(
            "expected an object (map) at " + from + ", found " + Coercion.kind(value));
      }
      var result = EngineJson.nodes().objectNode();
      var seen = new HashSet<String>();
      for (var entry : value.properties()) {
        var key = entry.getKey();
        var renamed = renames.get(key);
        if (renamed == null && reserved.contains(key)) {
          throw new OpFailure(
              "key '"
                  + key
                  + "' in "
                  + from
                  + " is a renamed key's target name, so it would not come back as '"
                  + key
                  + "'; rename or remove it");
        }
        var target = renamed != null ? renamed : key;
        if (!seen.add(target)) {
          throw new OpFailure("keys of " + from + " collide on '" + target + "' after renaming");
        }
        result.set(target, entry.getValue().deepCopy());
      }
      Tree.set(output, to, result);
    }
  }
}
