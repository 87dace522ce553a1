package dev.versio.engine.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.versio.engine.FieldPath;
import dev.versio.engine.json.EngineJson;
import dev.versio.engine.rule.LabelKeys;
import dev.versio.engine.rule.Rule.OnUnknown;
import dev.versio.engine.rule.Rule.Serialization;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * One pre-resolved step of a conversion. Every op reads the pristine input and writes only the
 * output, so the order of rules never changes the result. Ops are immutable and thread-safe.
 */
public sealed interface Op
    permits Op.Copy,
        Op.CopyExcept,
        Op.CopyFirst,
        Op.Wrap,
        Op.Unwrap,
        Op.FirstElement,
        Op.WrapInArray,
        Op.Reshaped,
        Op.CollapseToMap,
        Op.ExpandFromMap,
        Op.Stash,
        Op.Restore,
        Op.StripMetadataKey,
        Op.ElementStash,
        Op.ElementRestore,
        Op.RemapEnum,
        Op.Inject,
        Op.ForEach,
        Op.When,
        Op.Passthrough,
        ValueOp,
        CollectionOp,
        TextOp,
        ScriptOp {
  void apply(JsonNode input, ObjectNode output);

  /**
   * Runs this op on one element a {@code ForEach} converts, which {@code scope} names (null outside
   * any {@code ForEach}). Only the ops that keep element values on the whole object need it.
   */
  default void apply(JsonNode input, ObjectNode output, ElementScope scope) {
    apply(input, output);
  }

  /** Deep-copies {@code from} to {@code to} when present (identity and FieldRename). */
  record Copy(FieldPath from, FieldPath to) implements Op {
    @Override
    public void apply(JsonNode input, ObjectNode output) {
      var value = Tree.get(input, from);
      if (value != null) {
        Tree.set(output, to, value.deepCopy());
      }
    }
  }

  /**
   * Copies a node that keeps unknown fields, less the paths below it that rules convert ({@code
   * except}, relative to it), into whatever those rules wrote there (what they wrote wins), so that
   * the order of ops still never matters.
   */
  record CopyExcept(FieldPath from, FieldPath to, List<FieldPath> except) implements Op {
    public CopyExcept {
      except = List.copyOf(except);
    }

    @Override
    public void apply(JsonNode input, ObjectNode output) {
      var value = Tree.get(input, from);
      if (value == null) {
        return;
      }
      var copy = value.deepCopy();
      if (copy instanceof ObjectNode object) {
        for (var path : except) {
          Tree.deletePruning(object, path, 0);
        }
        if (object.isEmpty() && !value.isEmpty()) {
          return; // every field it held is converted by rules
        }
      }
      var existing = Tree.get(output, to);
      if (existing == null) {
        Tree.set(output, to, copy);
      } else {
        merge(existing, copy);
      }
    }

    /** Adds to {@code into} what {@code from} has that it lacks, recursively. */
    private static void merge(JsonNode into, JsonNode from) {
      if (!(into instanceof ObjectNode target) || !from.isObject()) {
        return;
      }
      for (var entry : from.properties()) {
        var mine = target.get(entry.getKey());
        if (mine == null) {
          target.set(entry.getKey(), entry.getValue());
        } else {
          merge(mine, entry.getValue());
        }
      }
    }
  }

  /**
   * Deep-copies the first of {@code from} that is present to {@code to} (a field and its aliases).
   */
  record CopyFirst(List<FieldPath> from, FieldPath to) implements Op {
    public CopyFirst {
      from = List.copyOf(from);
    }

    @Override
    public void apply(JsonNode input, ObjectNode output) {
      for (var path : from) {
        var value = Tree.get(input, path);
        if (value != null) {
          Tree.set(output, to, value.deepCopy());
          return;
        }
      }
    }
  }

  /** Writes {@code {defaults..., key: value}} at {@code to} when {@code from} is present. */
  record Wrap(FieldPath from, FieldPath to, String key, ObjectNode defaults) implements Op {
    public Wrap {
      defaults = defaults.deepCopy();
    }

    @Override
    public void apply(JsonNode input, ObjectNode output) {
      var value = Tree.get(input, from);
      if (value != null) {
        var object = defaults.deepCopy();
        object.set(key, value.deepCopy());
        Tree.set(output, to, object);
      }
    }
  }

  /** Copies {@code from[key]} to {@code to}; a non-object or missing key is skipped. */
  record Unwrap(FieldPath from, FieldPath to, String key) implements Op {
    @Override
    public void apply(JsonNode input, ObjectNode output) {
      var value = Tree.get(input, from);
      if (value != null && value.isObject() && value.has(key)) {
        Tree.set(output, to, value.get(key).deepCopy());
      }
    }
  }

  /** Copies the first element of an array; empty or non-array input is skipped. */
  record FirstElement(FieldPath from, FieldPath to) implements Op {
    @Override
    public void apply(JsonNode input, ObjectNode output) {
      var value = Tree.get(input, from);
      if (value != null && value.isArray() && !value.isEmpty()) {
        Tree.set(output, to, value.get(0).deepCopy());
      }
    }
  }

  /** Writes {@code [value]}. */
  record WrapInArray(FieldPath from, FieldPath to) implements Op {
    @Override
    public void apply(JsonNode input, ObjectNode output) {
      var value = Tree.get(input, from);
      if (value != null) {
        Tree.set(output, to, EngineJson.nodes().arrayNode().add(value.deepCopy()));
      }
    }
  }

  /**
   * Copies a value reshaped: singleton arrays unwrapped or wrapped at any depth ({@code
   * SingletonArrayToObject} and {@code ObjectToSingletonArray} with {@code nested}).
   */
  record Reshaped(FieldPath from, FieldPath to, Reshape reshape) implements Op {
    @Override
    public void apply(JsonNode input, ObjectNode output) {
      var value = Tree.get(input, from);
      if (value != null) {
        var changed = reshape.apply(value.deepCopy());
        if (changed != null) {
          Tree.set(output, to, changed);
        }
      }
    }
  }

  /** One field gathered into a map under {@code key}. */
  record MapEntrySource(FieldPath path, String key) {}

  /** Gathers present fields into a new map; writes nothing when none is present. */
  record CollapseToMap(List<MapEntrySource> sources, FieldPath to) implements Op {
    public CollapseToMap {
      sources = List.copyOf(sources);
    }

    @Override
    public void apply(JsonNode input, ObjectNode output) {
      ObjectNode map = null;
      for (var source : sources) {
        var value = Tree.get(input, source.path());
        if (value != null) {
          if (map == null) {
            map = EngineJson.nodes().objectNode();
          }
          map.set(source.key(), value.deepCopy());
        }
      }
      if (map != null) {
        Tree.set(output, to, map);
      }
    }
  }

  /** Spreads a map's known keys into fields; other keys fail (ERROR) or are dropped (DROP). */
  record ExpandFromMap(FieldPath from, Map<String, FieldPath> targets, OnUnknown onUnknown)
      implements Op {
    public ExpandFromMap {
      targets = Map.copyOf(targets);
    }

    @Override
    public void apply(JsonNode input, ObjectNode output) {
      var value = Tree.get(input, from);
      if (value == null) {
        return;
      }
      if (!value.isObject()) {
        throw new OpFailure("expected an object at " + from + ", found " + kind(value));
      }
      for (var entry : value.properties()) {
        var target = targets.get(entry.getKey());
        if (target != null) {
          Tree.set(output, target, entry.getValue().deepCopy());
        } else if (onUnknown == OnUnknown.ERROR) {
          throw new OpFailure(
              "unexpected key '"
                  + entry.getKey()
                  + "' in "
                  + from
                  + " (known keys: "
                  + String.join(", ", targets.keySet().stream().sorted().toList())
                  + "); add a field for it or set the unknown-key policy to Drop");
        }
      }
    }
  }

  /** {@code metadata.annotations} or {@code metadata.labels}. */
  enum MetadataBucket {
    ANNOTATIONS("annotations"),
    LABELS("labels");

    final String key;

    MetadataBucket(String key) {
      this.key = key;
    }
  }

  /** Stores a field's value in an annotation or label of the output. */
  record Stash(
      FieldPath from,
      MetadataBucket bucket,
      String key,
      Serialization serialization,
      CanonicalJson json)
      implements Op {
    public Stash {
      Objects.requireNonNull(json, "json");
    }

    @Override
    public void apply(JsonNode input, ObjectNode output) {
      var value = Tree.get(input, from);
      if (value == null) {
        return;
      }
      String text;
      if (serialization == Serialization.STRING) {
        if (!value.isTextual()) {
          throw new OpFailure(
              "serialization String needs a string at "
                  + from
                  + ", found "
                  + kind(value)
                  + "; use serialization: JSON");
        }
        text = value.asText();
      } else {
        text = json.write(value);
      }
      if (bucket == MetadataBucket.LABELS) {
        var problem = LabelKeys.valueProblem(text);
        if (problem != null) {
          throw new OpFailure(problem + " (from " + from + ")");
        }
      }
      var metadata =
          Tree.parentForWrite(output, new FieldPath(List.of("metadata", bucket.key, key)));
      metadata.put(key, text);
    }
  }

  /** Reads an annotation or label of the input into a field, and removes it from the output. */
  record Restore(
      MetadataBucket bucket,
      String key,
      FieldPath to,
      Serialization serialization,
      CanonicalJson json)
      implements Op {
    @Override
    public void apply(JsonNode input, ObjectNode output) {
      var raw = Tree.get(input, new FieldPath(List.of("metadata", bucket.key, key)));
      if (raw == null) {
        return;
      }
      if (!raw.isTextual()) {
        throw new OpFailure("metadata." + bucket.key + "['" + key + "'] is not a string");
      }
      var value =
          serialization == Serialization.STRING
              ? EngineJson.nodes().textNode(raw.asText())
              : json.read(raw.asText());
      Tree.set(output, to, value);
      StripMetadataKey.strip(output, bucket, key);
    }
  }

  /** Removes a bookkeeping annotation or label from the output (the reverse of a stash). */
  record StripMetadataKey(MetadataBucket bucket, String key) implements Op {
    @Override
    public void apply(JsonNode input, ObjectNode output) {
      strip(output, bucket, key);
    }

    static void strip(ObjectNode output, MetadataBucket bucket, String key) {
      // prune an emptied annotations/labels map, but keep metadata itself
      Tree.deletePruning(output, new FieldPath(List.of("metadata", bucket.key, key)), 1);
    }
  }

  /** Replaces an enum value through a typed lookup table. */
  record RemapEnum(FieldPath from, FieldPath to, Map<String, JsonNode> table, OnUnknown onUnmapped)
      implements Op {
    public RemapEnum {
      table = Map.copyOf(table);
    }

    @Override
    public void apply(JsonNode input, ObjectNode output) {
      var value = Tree.get(input, from);
      if (value == null) {
        return;
      }
      var mapped = table.get(EnumKeys.of(value));
      if (mapped != null) {
        Tree.set(output, to, mapped.deepCopy());
      } else if (onUnmapped == OnUnknown.ERROR) {
        throw new OpFailure(
            "unmapped value "
                + value
                + " (mapped values: "
                + String.join(
                    ", ", table.keySet().stream().map(EnumKeys::display).sorted().toList())
                + "); add it to the mapping or set the unmapped-value policy to Drop");
      }
    }
  }

  /** Writes a fixed value, always (DefaultValue and Constant towards the declaring side). */
  record Inject(FieldPath path, JsonNode value) implements Op {
    public Inject {
      value = value.deepCopy();
    }

    @Override
    public void apply(JsonNode input, ObjectNode output) {
      Tree.set(output, path, value.deepCopy());
    }
  }

  /**
   * Converts every element of an array with nested ops; the result replaces the destination.
   *
   * @param keyFields the list-map keys that name an element for the values its ops keep on the
   *     object ({@link ElementStash}); empty to name it by position
   * @param json how a top-level {@code ForEach} writes the kept values into annotations
   * @param restored the annotations its elements read back (found once, from {@code steps})
   * @param keepsValues whether its elements keep values in annotations (found once)
   */
  record ForEach(
      FieldPath from,
      FieldPath to,
      Steps steps,
      List<String> keyFields,
      CanonicalJson json,
      java.util.Set<String> restored,
      boolean keepsValues)
      implements Op {
    public ForEach {
      keyFields = List.copyOf(keyFields);
      Objects.requireNonNull(json, "json");
      restored = java.util.Set.copyOf(restored);
    }

    /** A ForEach whose element-annotation keys are read from its steps, once, here. */
    public ForEach(
        FieldPath from, FieldPath to, Steps steps, List<String> keyFields, CanonicalJson json) {
      this(
          from,
          to,
          steps,
          keyFields,
          json,
          ElementKeys.restored(steps),
          !ElementKeys.kept(steps).isEmpty());
    }

    @Override
    public void apply(JsonNode input, ObjectNode output) {
      var scope = ElementScope.of(input);
      apply(input, output, scope);
      // the top-level ForEach owns the annotations its elements keep values in: written here, and
      // on the way back (where its elements read them) removed, even when the array is empty
      for (var key : restored) {
        StripMetadataKey.strip(output, MetadataBucket.ANNOTATIONS, key);
      }
      scope.writeKept(output, json);
    }

    @Override
    public void apply(JsonNode input, ObjectNode output, ElementScope scope) {
      if (scope == null) {
        apply(input, output); // a top-level ForEach under a when
        return;
      }
      var source = Tree.get(input, from);
      if (source == null) {
        return;
      }
      if (!source.isArray()) {
        throw new OpFailure("expected an array at " + from + ", found " + kind(source));
      }
      if (!from.equals(to)) {
        var existing = Tree.get(input, to);
        if (existing != null && (!existing.isArray() || existing.size() != source.size())) {
          throw new OpFailure(
              "length mismatch: "
                  + from
                  + " has "
                  + source.size()
                  + " elements but "
                  + to
                  + " in the same object "
                  + (existing.isArray() ? "has " + existing.size() : "is not an array"));
        }
      }
      ArrayNode result = EngineJson.nodes().arrayNode(source.size());
      boolean emptied = true;
      boolean anyHeld = false;
      for (int i = 0; i < source.size(); i++) {
        var element = source.get(i);
        if (!element.isObject()) {
          throw new OpFailure(
              "element " + i + " of " + from + " is not an object (found " + kind(element) + ")");
        }
        var converted = EngineJson.nodes().objectNode();
        steps.apply(element, converted, scope.child(id(element, i)));
        result.add(converted);
        emptied &= converted.isEmpty();
        anyHeld |= !element.isEmpty();
      }
      if (emptied && anyHeld && !keepsValues) {
        // every element lost all it held (its only fields dropped): no list of {} left behind;
        // unless its values went to an annotation, which needs the elements to come back to
        return;
      }
      Tree.set(output, to, result);
    }

    /** The element's list-map key values joined with "/", or its position. */
    private String id(JsonNode element, int index) {
      if (keyFields.isEmpty()) {
        return String.valueOf(index);
      }
      var parts = new java.util.ArrayList<String>();
      for (var field : keyFields) {
        var value = element.get(field);
        if (value == null || value.isNull()) {
          throw new OpFailure(
              "element " + index + " of " + from + " has no " + field + " (its list-map key)");
        }
        parts.add(value.isTextual() ? value.asText() : value.toString());
      }
      return String.join("/", parts);
    }
  }

  /**
   * Keeps a field of an array element in one annotation of the whole object (a JSON map by element,
   * see {@link ElementScope}); outside a {@code ForEach} it keeps nothing.
   */
  record ElementStash(FieldPath from, String key) implements Op {
    @Override
    public void apply(JsonNode input, ObjectNode output) {
      // an element op run on its own (a rule's probes) has no object to keep values on
    }

    @Override
    public void apply(JsonNode input, ObjectNode output, ElementScope scope) {
      var value = Tree.get(input, from);
      if (value != null && scope != null) {
        scope.keep(key, value);
      }
    }
  }

  /**
   * Reads back what {@link ElementStash} kept for this element into {@code to} (null: read nothing;
   * the top-level {@code ForEach} still removes the annotation).
   */
  record ElementRestore(String key, FieldPath to, CanonicalJson json) implements Op {
    @Override
    public void apply(JsonNode input, ObjectNode output) {
      // nothing kept outside a ForEach
    }

    @Override
    public void apply(JsonNode input, ObjectNode output, ElementScope scope) {
      if (scope == null || to == null) {
        return;
      }
      var value = scope.kept(key, json);
      if (value != null) {
        Tree.set(output, to, value.deepCopy());
      }
    }
  }

  /** Applies {@code inner} only when the input's {@code path} equals {@code equals}. */
  record When(FieldPath path, JsonNode equals, Op inner) implements Op {
    @Override
    public void apply(JsonNode input, ObjectNode output) {
      apply(input, output, null);
    }

    @Override
    public void apply(JsonNode input, ObjectNode output, ElementScope scope) {
      var actual = Tree.get(input, path);
      if (actual != null && EngineJson.sameValue(actual, equals)) {
        inner.apply(input, output, scope);
      }
    }
  }

  /**
   * Copies every key that neither schema declares (below the top level), untouched. {@code toSpoke}
   * says which side is written to: an empty object that side declares stays an empty object.
   */
  record Passthrough(KnownTree known, boolean toSpoke) implements Op {
    @Override
    public void apply(JsonNode input, ObjectNode output) {
      if (!input.isObject()) {
        return;
      }
      // only the declared objects with properties are walked here (spec, status): asking the
      // input for each costs a lookup apiece, where going over its keys would look every one up
      // (apiVersion, kind, metadata); they are walked in the order of their names
      for (int i = 0; i < known.walkableCount(); i++) {
        var name = known.walkableName(i);
        var value = input.get(name);
        if (value != null && value.isObject()) {
          walk(value, known.walkableChild(i), output, name);
        }
      }
    }

    /**
     * The first key this op would copy untouched because neither schema declares it, as a dotted
     * path (e.g. {@code spec.tls.minVersion}), or null. Arrays are not looked into.
     */
    public String firstUnknown(JsonNode input) {
      if (!input.isObject()) {
        return null;
      }
      for (var entry : input.properties()) {
        var child = known.child(entry.getKey());
        if (entry.getValue().isObject() && child != null && child.walkable()) {
          var found = firstUnknown(entry.getValue(), child, entry.getKey());
          if (found != null) {
            return found;
          }
        }
      }
      return null;
    }

    private static String firstUnknown(JsonNode input, KnownTree known, String path) {
      for (var entry : input.properties()) {
        var child = known.child(entry.getKey());
        var at = path + "." + entry.getKey();
        if (child == null) {
          return at;
        }
        if (entry.getValue().isObject() && child.walkable()) {
          var found = firstUnknown(entry.getValue(), child, at);
          if (found != null) {
            return found;
          }
        }
      }
      return null;
    }

    private void walk(JsonNode input, KnownTree known, ObjectNode parentOut, String key) {
      var out = parentOut.get(key);
      var declaredHere = toSpoke ? known.inSpoke() : known.inHub(); // the side written to
      for (var entry : input.properties()) {
        var child = known.child(entry.getKey());
        if (child == null) {
          out = ensureObject(parentOut, key, out);
          if (out == null) {
            return;
          }
          ((ObjectNode) out).set(entry.getKey(), entry.getValue().deepCopy());
        } else if (entry.getValue().isObject() && child.walkable()) {
          out = ensureObject(parentOut, key, out);
          if (out == null) {
            return;
          }
          walk(entry.getValue(), child, (ObjectNode) out, entry.getKey());
        }
      }
      if (declaredHere && out == null && input.isEmpty()) {
        parentOut.putObject(key); // keep an empty declared object ({} stays {})
      }
      if (out != null && out.isObject() && out.isEmpty() && !declaredHere) {
        parentOut.remove(key);
      }
    }

    private static JsonNode ensureObject(ObjectNode parent, String key, JsonNode current) {
      if (current == null) {
        return parent.putObject(key);
      }
      return current.isObject() ? current : null;
    }
  }

  private static String kind(JsonNode value) {
    return value.getNodeType().name().toLowerCase(Locale.ROOT);
  }
}
