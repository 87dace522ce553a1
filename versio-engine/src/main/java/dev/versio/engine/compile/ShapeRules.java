package dev.versio.engine.compile;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.versio.engine.FieldPath;
import dev.versio.engine.diagnostic.DiagnosticCode;
import dev.versio.engine.json.EngineJson;
import dev.versio.engine.rule.Rule;
import dev.versio.engine.rule.Rule.OnUnknown;
import dev.versio.engine.runtime.Op;
import dev.versio.engine.schema.Classification;
import dev.versio.engine.schema.LeafKind;
import dev.versio.engine.schema.SchemaNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Strategies that move or reshape values: renames, wraps, singleton arrays, fields ⇄ maps. */
final class ShapeRules {
  private ShapeRules() {}

  static Resolved fieldRename(Scope s, int index, Rule.FieldRename r) {
    var hub = s.hubNode(r, r.hubPath());
    var spoke = s.spokeNode(r, r.spokePath());
    if (hub == null || spoke == null) {
      return null;
    }
    var hc = Classification.of(hub);
    var sc = Classification.of(spoke);
    if (hc.kind() != sc.kind()) {
      s.diagnostics()
          .error(
              DiagnosticCode.TYPE_MISMATCH,
              s.hubName(r.hubPath()),
              Scope.label(r)
                  + ": type mismatch: hub "
                  + s.hubName(r.hubPath())
                  + " is "
                  + hc.kind().wireName()
                  + ", spoke "
                  + s.spokeName(r.spokePath())
                  + " is "
                  + sc.kind().wireName(),
              "use TypeCoerce (scalars), ScalarToObject/ObjectToScalar (scalar ⇄ object) or SingletonArrayToObject (array ⇄ object)");
      return null;
    }
    // Same shape all the way down: the rename carries the whole subtree (items, map values,
    // children).
    var difference =
        Structures.firstDifference(s.hub(), r.hubPath(), s.spokeSchema(), r.spokePath());
    boolean subtree = difference == null;
    if (!subtree && !hc.structured()) {
      s.diagnostics()
          .error(
              DiagnosticCode.SHAPE_MISMATCH,
              s.hubName(r.hubPath()),
              Scope.label(r)
                  + ": hub "
                  + s.hubName(r.hubPath())
                  + " and spoke "
                  + s.spokeName(r.spokePath())
                  + " differ in shape: "
                  + difference,
              hc.kind() == LeafKind.ARRAY
                  ? "use ForEach over the array to convert its elements"
                  : "use EnumRemap for differing enums, or a rule that converts the values");
      return null;
    }
    var ok =
        s.claimHub(r, index, r.hubPath(), subtree) & s.claimSpoke(r, index, r.spokePath(), subtree);
    for (var alias : r.spokeAliases()) {
      ok &= alias(s, index, r, alias, subtree);
    }
    if (!ok) {
      return null;
    }
    if (r.spokeAliases().isEmpty()) {
      return new Resolved(
          new Op.Copy(r.hubPath(), r.spokePath()),
          new Op.Copy(r.spokePath(), r.hubPath()),
          Verdict.LOSSLESS,
          List.of(s.hubName(r.hubPath())),
          List.of(s.spokeName(r.spokePath())));
    }
    var sources = new java.util.ArrayList<FieldPath>();
    sources.add(r.spokePath());
    sources.addAll(r.spokeAliases());
    var spokeNames = sources.stream().map(s::spokeName).toList();
    return new Resolved(
        new Op.Copy(r.hubPath(), r.spokePath()),
        new Op.CopyFirst(sources, r.hubPath()),
        // an alias comes back under spokePath, and it loses to spokePath when both are set
        new Verdict(true, false),
        List.of(s.hubName(r.hubPath())),
        spokeNames);
  }

  /** An older spoke name of the field: it must be the same shape as spokePath, and is claimed. */
  private static boolean alias(
      Scope s, int index, Rule.FieldRename r, FieldPath alias, boolean subtree) {
    if (s.spokeNode(r, alias) == null) {
      return false;
    }
    var difference =
        Structures.firstDifference(s.spokeSchema(), alias, s.spokeSchema(), r.spokePath());
    if (difference != null) {
      s.diagnostics()
          .error(
              DiagnosticCode.SHAPE_MISMATCH,
              s.spokeName(alias),
              Scope.label(r)
                  + ": alias "
                  + s.spokeName(alias)
                  + " and "
                  + s.spokeName(r.spokePath())
                  + " differ in shape: "
                  + difference,
              "an alias is an older name of the same field; convert a different one with its own"
                  + " rule");
      return false;
    }
    return s.claimSpoke(r, index, alias, subtree);
  }

  static Resolved scalarToObject(Scope s, int index, Rule.ScalarToObject r) {
    var hub = s.hubNode(r, r.hubPath());
    var spoke = s.spokeNode(r, r.spokePath());
    if (hub == null
        || spoke == null
        || !requireObject(s, r, spoke, s.spokeName(r.spokePath()), r.key())) {
      return null;
    }
    var ok = s.claimHub(r, index, r.hubPath(), false) & s.claimSpoke(r, index, r.spokePath(), true);
    if (!ok) {
      return null;
    }
    var lossless = onlyKey(spoke, r.key());
    return new Resolved(
        new Op.Wrap(r.hubPath(), r.spokePath(), r.key(), defaults(r.defaultsForOtherKeys())),
        new Op.Unwrap(r.spokePath(), r.hubPath(), r.key()),
        new Verdict(true, lossless),
        List.of(s.hubName(r.hubPath())),
        List.of(s.spokeName(r.spokePath())));
  }

  static Resolved objectToScalar(Scope s, int index, Rule.ObjectToScalar r) {
    var hub = s.hubNode(r, r.hubPath());
    var spoke = s.spokeNode(r, r.spokePath());
    if (hub == null
        || spoke == null
        || !requireObject(s, r, hub, s.hubName(r.hubPath()), r.key())) {
      return null;
    }
    var ok = s.claimHub(r, index, r.hubPath(), true) & s.claimSpoke(r, index, r.spokePath(), false);
    if (!ok) {
      return null;
    }
    return new Resolved(
        new Op.Unwrap(r.hubPath(), r.spokePath(), r.key()),
        new Op.Wrap(r.spokePath(), r.hubPath(), r.key(), defaults(r.defaultsForOtherKeys())),
        new Verdict(onlyKey(hub, r.key()), true),
        List.of(s.hubName(r.hubPath())),
        List.of(s.spokeName(r.spokePath())));
  }

  static Resolved singletonArrayToObject(Scope s, int index, Rule.SingletonArrayToObject r) {
    var hub = s.hubNode(r, r.hubPath());
    var spoke = s.spokeNode(r, r.spokePath());
    if (hub == null
        || spoke == null
        || !singletonKinds(
            s, r, hub, r.hubPath(), true, spoke, r.spokePath(), "ObjectToSingletonArray")) {
      return null;
    }
    var layout = singletonLayout(s, r, r.nested(), true, hub, spoke, r.hubPath(), r.spokePath());
    var ok = s.claimHub(r, index, r.hubPath(), true) & s.claimSpoke(r, index, r.spokePath(), true);
    if (layout == null || !ok) {
      return null;
    }
    return r.nested()
        ? reshaped(s, r.hubPath(), r.spokePath(), layout)
        : new Resolved(
            new Op.FirstElement(r.hubPath(), r.spokePath()),
            new Op.WrapInArray(r.spokePath(), r.hubPath()),
            new Verdict(atMostOne(hub), true),
            List.of(s.hubName(r.hubPath())),
            List.of(s.spokeName(r.spokePath())));
  }

  static Resolved objectToSingletonArray(Scope s, int index, Rule.ObjectToSingletonArray r) {
    var hub = s.hubNode(r, r.hubPath());
    var spoke = s.spokeNode(r, r.spokePath());
    if (hub == null
        || spoke == null
        || !singletonKinds(
            s, r, spoke, r.spokePath(), false, hub, r.hubPath(), "SingletonArrayToObject")) {
      return null;
    }
    var layout = singletonLayout(s, r, r.nested(), false, hub, spoke, r.hubPath(), r.spokePath());
    var ok = s.claimHub(r, index, r.hubPath(), true) & s.claimSpoke(r, index, r.spokePath(), true);
    if (layout == null || !ok) {
      return null;
    }
    return r.nested()
        ? reshaped(s, r.hubPath(), r.spokePath(), layout)
        : new Resolved(
            new Op.WrapInArray(r.hubPath(), r.spokePath()),
            new Op.FirstElement(r.spokePath(), r.hubPath()),
            new Verdict(true, atMostOne(spoke)),
            List.of(s.hubName(r.hubPath())),
            List.of(s.spokeName(r.spokePath())));
  }

  /** A nested singleton rule: both directions reshape, and lose what arrays of many drop. */
  private static Resolved reshaped(
      Scope s, FieldPath hubPath, FieldPath spokePath, SingletonLayouts.Same layout) {
    return new Resolved(
        new Op.Reshaped(hubPath, spokePath, layout.hubToSpoke()),
        new Op.Reshaped(spokePath, hubPath, layout.hubToSpoke().inverse()),
        new Verdict(layout.hubUnwrapped().isEmpty(), layout.spokeUnwrapped().isEmpty()),
        List.of(s.hubName(hubPath)),
        List.of(s.spokeName(spokePath)));
  }

  static Resolved fieldsToMap(Scope s, int index, Rule.FieldsToMap r) {
    var map = s.spokeNode(r, r.spokeMapPath());
    var fields = fields(s, r, r.hubPaths(), r.keyNames(), true);
    if (map == null || fields == null) {
      return null;
    }
    boolean ok = true;
    for (var path : r.hubPaths()) {
      ok &= s.claimHub(r, index, path, false);
    }
    if (!(s.claimSpoke(r, index, r.spokeMapPath(), true) & ok)) {
      return null;
    }
    return new Resolved(
        new Op.CollapseToMap(fields.sources(), r.spokeMapPath()),
        new Op.ExpandFromMap(r.spokeMapPath(), fields.targets(), r.onUnknownSpokeKey()),
        new Verdict(true, r.onUnknownSpokeKey() == OnUnknown.ERROR),
        fields.names(),
        List.of(s.spokeName(r.spokeMapPath())));
  }

  static Resolved mapToFields(Scope s, int index, Rule.MapToFields r) {
    var map = s.hubNode(r, r.hubMapPath());
    var fields = fields(s, r, r.spokePaths(), r.keyNames(), false);
    if (map == null || fields == null) {
      return null;
    }
    boolean ok = s.claimHub(r, index, r.hubMapPath(), true);
    for (var path : r.spokePaths()) {
      ok &= s.claimSpoke(r, index, path, false);
    }
    if (!ok) {
      return null;
    }
    return new Resolved(
        new Op.ExpandFromMap(r.hubMapPath(), fields.targets(), r.onUnknownHubKey()),
        new Op.CollapseToMap(fields.sources(), r.hubMapPath()),
        new Verdict(r.onUnknownHubKey() == OnUnknown.ERROR, true),
        List.of(s.hubName(r.hubMapPath())),
        fields.names());
  }

  /** The fields of one side of FieldsToMap/MapToFields, each with its map key. */
  private record MapFields(
      List<Op.MapEntrySource> sources, Map<String, FieldPath> targets, List<String> names) {}

  /** Resolves the listed fields and their keys; null (with diagnostics) on any problem. */
  private static MapFields fields(
      Scope s, Rule r, List<FieldPath> paths, Map<String, String> keyNames, boolean hubSide) {
    var sources = new ArrayList<Op.MapEntrySource>();
    var targets = new LinkedHashMap<String, FieldPath>();
    var names = new ArrayList<String>();
    var side = hubSide ? "hub" : "spoke";
    boolean ok = true;
    for (var path : paths) {
      ok &= (hubSide ? s.hubNode(r, path) : s.spokeNode(r, path)) != null;
      var name = hubSide ? s.hubName(path) : s.spokeName(path);
      var key = keyNames.getOrDefault(path.toString(), path.last());
      if (targets.put(key, path) != null) {
        s.diagnostics()
            .error(
                DiagnosticCode.INVALID_PARAM,
                name,
                Scope.label(r) + ": two " + side + " fields map to the same key '" + key + "'",
                "give each field its own key in keyNames");
        ok = false;
      }
      sources.add(new Op.MapEntrySource(path, key));
      names.add(name);
    }
    ok &= unknownKeyNames(s, r, keyNames, paths);
    return ok ? new MapFields(sources, targets, names) : null;
  }

  private static boolean unknownKeyNames(
      Scope s, Rule r, Map<String, String> keyNames, List<FieldPath> paths) {
    var known = paths.stream().map(FieldPath::toString).toList();
    boolean ok = true;
    for (var key : keyNames.keySet()) {
      if (!known.contains(key)) {
        s.diagnostics()
            .error(
                DiagnosticCode.INVALID_PARAM,
                key,
                Scope.label(r)
                    + ": keyNames names '"
                    + key
                    + "', which is not one of the listed paths "
                    + known,
                "keyNames is keyed by the full dotted path exactly as listed");
        ok = false;
      }
    }
    return ok;
  }

  private static boolean requireObject(Scope s, Rule r, SchemaNode node, String path, String key) {
    if (Classification.of(node).kind() != LeafKind.OBJECT) {
      s.diagnostics()
          .error(
              DiagnosticCode.TYPE_MISMATCH,
              path,
              Scope.label(r) + ": " + path + " must be an object to hold key '" + key + "'",
              null);
      return false;
    }
    return true;
  }

  /** Whether an object declares nothing but {@code key} (so wrapping/unwrapping loses nothing). */
  private static boolean onlyKey(SchemaNode object, String key) {
    return object.properties().keySet().stream().allMatch(key::equals);
  }

  /**
   * Whether a singleton rule's two sides are the kinds it claims: an array on one side, an object
   * on the other. Reports the error otherwise, naming the reverse strategy when the sides are
   * swapped.
   *
   * @param arrayOnHub whether the array is the hub side
   */
  private static boolean singletonKinds(
      Scope s,
      Rule r,
      SchemaNode array,
      FieldPath arrayPath,
      boolean arrayOnHub,
      SchemaNode object,
      FieldPath objectPath,
      String reverse) {
    var arrayName = arrayOnHub ? s.hubName(arrayPath) : s.spokeName(arrayPath);
    var objectName = arrayOnHub ? s.spokeName(objectPath) : s.hubName(objectPath);
    var arraySide = arrayOnHub ? "hub" : "spoke";
    var objectSide = arrayOnHub ? "spoke" : "hub";
    var arrayKind = Classification.of(array).kind();
    var objectKind = Classification.of(object).kind();
    if (arrayKind == LeafKind.ARRAY && objectKind == LeafKind.OBJECT) {
      return true;
    }
    boolean swapped = arrayKind == LeafKind.OBJECT && objectKind == LeafKind.ARRAY;
    s.diagnostics()
        .error(
            DiagnosticCode.TYPE_MISMATCH,
            arrayName,
            Scope.label(r)
                + ": needs an array on the "
                + arraySide
                + " side and an object on the "
                + objectSide
                + " side, but "
                + arrayName
                + " is "
                + arrayKind.wireName()
                + " and "
                + objectName
                + " is "
                + objectKind.wireName(),
            swapped
                ? "the sides are the other way round: use " + reverse + " with the same paths"
                : "use it where one side is an array of objects and the other that object");
    return false;
  }

  /**
   * How a singleton rule reshapes values, or null (reported) when the element and the object
   * differ: without {@code nested} they must be the same shape all the way down (a nested singleton
   * or any other difference would be written the wrong shape, which the apiserver refuses or
   * prunes); with it, they may differ by singleton arrays at any depth, and nothing else.
   */
  private static SingletonLayouts.Same singletonLayout(
      Scope s,
      Rule r,
      boolean nested,
      boolean arrayOnHub,
      SchemaNode hub,
      SchemaNode spoke,
      FieldPath hubPath,
      FieldPath spokePath) {
    var arrayName = arrayOnHub ? s.hubName(hubPath) : s.spokeName(spokePath);
    var objectName = arrayOnHub ? s.spokeName(spokePath) : s.hubName(hubPath);
    var layout = SingletonLayouts.compare(s.hub(), hubPath, hub, s.spokeSchema(), spokePath, spoke);
    if (nested) {
      if (layout instanceof SingletonLayouts.Same same) {
        return same;
      }
      var different = (SingletonLayouts.Different) layout;
      s.diagnostics()
          .error(
              DiagnosticCode.SHAPE_MISMATCH,
              s.hubName(different.hubPath()),
              Scope.label(r)
                  + ": "
                  + arrayName
                  + " and "
                  + objectName
                  + " differ by more than singleton arrays, first at "
                  + s.hubName(different.hubPath())
                  + " ("
                  + different.difference()
                  + ")",
              "convert the differing part with its own rule (CEL over the whole value), or make"
                  + " the shapes agree");
      return null;
    }
    var items = (arrayOnHub ? hubPath : spokePath).child(FieldPath.ITEMS);
    var difference =
        arrayOnHub
            ? Structures.firstDifference(s.hub(), items, s.spokeSchema(), spokePath)
            : Structures.firstDifference(s.hub(), hubPath, s.spokeSchema(), items);
    if (difference == null) {
      return new SingletonLayouts.Same(null, List.of(), List.of());
    }
    s.diagnostics()
        .error(
            DiagnosticCode.SHAPE_MISMATCH,
            arrayName,
            Scope.label(r)
                + ": the elements of "
                + arrayName
                + " and "
                + objectName
                + " differ in shape ("
                + difference
                + "), so the element would be written the wrong shape",
            layout instanceof SingletonLayouts.Same
                ? "they differ only by singleton arrays inside: set nested: true to convert those"
                    + " too"
                : "make the element and the object the same shape, or convert the differing part"
                    + " with CEL");
    return null;
  }

  private static boolean atMostOne(SchemaNode array) {
    return array.maxItems() != null && array.maxItems() <= 1;
  }

  private static ObjectNode defaults(Map<String, JsonNode> values) {
    var node = EngineJson.nodes().objectNode();
    values.forEach(node::set);
    return node;
  }
}
