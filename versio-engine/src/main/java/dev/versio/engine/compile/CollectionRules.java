package dev.versio.engine.compile;

import dev.versio.engine.FieldPath;
import dev.versio.engine.diagnostic.DiagnosticCode;
import dev.versio.engine.rule.Rule;
import dev.versio.engine.runtime.Coercion;
import dev.versio.engine.runtime.CollectionOp;
import dev.versio.engine.schema.Classification;
import dev.versio.engine.schema.FlatSchema;
import dev.versio.engine.schema.LeafKind;
import dev.versio.engine.schema.SchemaNode;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;

/** Strategies that reshape collections: ListJoin/ListSplit, Array/MapByKey, MapKeyRename. */
final class CollectionRules {
  private CollectionRules() {}

  static Resolved listJoin(Scope s, int index, Rule.ListJoin r) {
    var hub = s.hubNode(r, r.hubPath());
    var spoke = s.spokeNode(r, r.spokePath());
    if (hub == null || spoke == null) {
      return null;
    }
    var items = scalarItems(s, r, hub, s.hubName(r.hubPath()));
    if (items == null || !requireString(s, r, spoke, s.spokeName(r.spokePath()))) {
      return null;
    }
    if (!(s.claimHub(r, index, r.hubPath(), true) & s.claimSpoke(r, index, r.spokePath(), false))) {
      return null;
    }
    return new Resolved(
        new CollectionOp.JoinList(r.hubPath(), r.spokePath(), r.separator()),
        new CollectionOp.SplitList(
            r.spokePath(), r.hubPath(), r.separator(), Classification.of(items).kind()),
        new Verdict(joinKeeps(items, r.separator()), splitKeeps(items)),
        List.of(s.hubName(r.hubPath())),
        List.of(s.spokeName(r.spokePath())));
  }

  static Resolved listSplit(Scope s, int index, Rule.ListSplit r) {
    var hub = s.hubNode(r, r.hubPath());
    var spoke = s.spokeNode(r, r.spokePath());
    if (hub == null || spoke == null) {
      return null;
    }
    var items = scalarItems(s, r, spoke, s.spokeName(r.spokePath()));
    if (items == null || !requireString(s, r, hub, s.hubName(r.hubPath()))) {
      return null;
    }
    if (!(s.claimHub(r, index, r.hubPath(), false) & s.claimSpoke(r, index, r.spokePath(), true))) {
      return null;
    }
    return new Resolved(
        new CollectionOp.SplitList(
            r.hubPath(), r.spokePath(), r.separator(), Classification.of(items).kind()),
        new CollectionOp.JoinList(r.spokePath(), r.hubPath(), r.separator()),
        new Verdict(splitKeeps(items), joinKeeps(items, r.separator())),
        List.of(s.hubName(r.hubPath())),
        List.of(s.spokeName(r.spokePath())));
  }

  /**
   * Joining keeps everything only when no element can contain the separator or be empty: numbers
   * and booleans with a separator of punctuation, or strings whose enum, pattern or length rules
   * that out.
   */
  private static boolean joinKeeps(SchemaNode items, String separator) {
    var kind = Classification.of(items).kind();
    if (kind == LeafKind.STRING) {
      return TextLosses.ruledOut(items, TextLosses.joinedItems(separator));
    }
    return separator
        .chars()
        .noneMatch(c -> Character.isLetterOrDigit(c) || c == '.' || c == '-' || c == '+');
  }

  /** Splitting keeps everything for strings; parsing numbers and booleans loses their spelling. */
  private static boolean splitKeeps(SchemaNode items) {
    return Classification.of(items).kind() == LeafKind.STRING;
  }

  static Resolved arrayToMapByKey(Scope s, int index, Rule.ArrayToMapByKey r) {
    var hub = s.hubNode(r, r.hubPath());
    var spoke = s.spokeNode(r, r.spokePath());
    if (hub == null
        || spoke == null
        || !keyedShapesMatch(
            s, r, hub, s.hubName(r.hubPath()), spoke, s.spokeName(r.spokePath()), r.keyField())) {
      return null;
    }
    if (!(s.claimHub(r, index, r.hubPath(), true) & s.claimSpoke(r, index, r.spokePath(), true))) {
      return null;
    }
    // array → map drops the order of the elements; map → array keeps every entry
    return new Resolved(
        new CollectionOp.ArrayToMap(r.hubPath(), r.spokePath(), r.keyField()),
        new CollectionOp.MapToArray(r.spokePath(), r.hubPath(), r.keyField()),
        new Verdict(false, true),
        List.of(s.hubName(r.hubPath())),
        List.of(s.spokeName(r.spokePath())));
  }

  static Resolved mapToArrayByKey(Scope s, int index, Rule.MapToArrayByKey r) {
    var hub = s.hubNode(r, r.hubPath());
    var spoke = s.spokeNode(r, r.spokePath());
    if (hub == null
        || spoke == null
        || !keyedShapesMatch(
            s, r, spoke, s.spokeName(r.spokePath()), hub, s.hubName(r.hubPath()), r.keyField())) {
      return null;
    }
    if (!(s.claimHub(r, index, r.hubPath(), true) & s.claimSpoke(r, index, r.spokePath(), true))) {
      return null;
    }
    return new Resolved(
        new CollectionOp.MapToArray(r.hubPath(), r.spokePath(), r.keyField()),
        new CollectionOp.ArrayToMap(r.spokePath(), r.hubPath(), r.keyField()),
        new Verdict(true, false),
        List.of(s.hubName(r.hubPath())),
        List.of(s.spokeName(r.spokePath())));
  }

  /**
   * The array's elements must be objects keyed by a string field, shaped like the map's values
   * without it.
   */
  private static boolean keyedShapesMatch(
      Scope s,
      Rule r,
      SchemaNode array,
      String arrayName,
      SchemaNode map,
      String mapName,
      String keyField) {
    var items = array.items();
    if (Classification.of(array).kind() != LeafKind.ARRAY
        || items == null
        || !Classification.of(items).structured()) {
      s.diagnostics()
          .error(
              DiagnosticCode.TYPE_MISMATCH,
              arrayName,
              Scope.label(r)
                  + ": "
                  + arrayName
                  + " must be an array of objects with declared properties",
              null);
      return false;
    }
    var key = items.properties().get(keyField);
    if (key == null || Classification.of(key).kind() != LeafKind.STRING) {
      s.diagnostics()
          .error(
              DiagnosticCode.INVALID_PARAM,
              arrayName,
              Scope.label(r)
                  + ": the elements of "
                  + arrayName
                  + " must declare '"
                  + keyField
                  + "' as a string to key the map by",
              "keyField names the element field whose value becomes the map key");
      return false;
    }
    if (!Classification.of(map).isMap() || map.additionalProperties() == null) {
      s.diagnostics()
          .error(
              DiagnosticCode.TYPE_MISMATCH,
              mapName,
              Scope.label(r)
                  + ": "
                  + mapName
                  + " must be a map (an object with additionalProperties)",
              null);
      return false;
    }
    var difference =
        Structures.firstDifference(
            FlatSchema.of(items.withoutProperty(keyField)),
            FieldPath.root(),
            FlatSchema.of(map.additionalProperties()),
            FieldPath.root());
    if (difference != null) {
      s.diagnostics()
          .error(
              DiagnosticCode.SHAPE_MISMATCH,
              mapName,
              Scope.label(r)
                  + ": the elements of "
                  + arrayName
                  + " (without '"
                  + keyField
                  + "') and the values of "
                  + mapName
                  + " differ: "
                  + difference.replace("hub", "element").replace("spoke", "value"),
              "make the map's value schema the element schema minus " + keyField);
      return false;
    }
    return true;
  }

  static Resolved mapKeyRename(Scope s, int index, Rule.MapKeyRename r) {
    var hub = s.hubNode(r, r.hubPath());
    var spoke = s.spokeNode(r, r.spokePath());
    if (hub == null || spoke == null) {
      return null;
    }
    boolean ok = true;
    for (var side : List.of(hub, spoke)) {
      if (!Classification.of(side).isMap()) {
        s.diagnostics()
            .error(
                DiagnosticCode.TYPE_MISMATCH,
                side == hub ? s.hubName(r.hubPath()) : s.spokeName(r.spokePath()),
                Scope.label(r)
                    + ": "
                    + (side == hub ? s.hubName(r.hubPath()) : s.spokeName(r.spokePath()))
                    + " must be a free-form map (an object with additionalProperties)",
                null);
        ok = false;
      }
    }
    var inverse = new HashMap<String, String>();
    for (var e : r.renames().entrySet()) {
      if (e.getKey().isEmpty() || e.getValue().isEmpty()) {
        s.diagnostics()
            .error(
                DiagnosticCode.INVALID_PARAM,
                null,
                Scope.label(r) + ": renames must not hold empty keys",
                null);
        ok = false;
      } else if (inverse.put(e.getValue(), e.getKey()) != null) {
        s.diagnostics()
            .error(
                DiagnosticCode.INVALID_PARAM,
                null,
                Scope.label(r)
                    + ": two keys are renamed to '"
                    + e.getValue()
                    + "'; the rename could not be reversed",
                "rename each key to its own name");
        ok = false;
      }
    }
    if (ok) {
      var difference =
          Structures.firstDifference(s.hub(), r.hubPath(), s.spokeSchema(), r.spokePath());
      if (difference != null) {
        s.diagnostics()
            .error(
                DiagnosticCode.SHAPE_MISMATCH,
                s.hubName(r.hubPath()),
                Scope.label(r) + ": the map values differ: " + difference,
                null);
        ok = false;
      }
    }
    if (!ok
        || !(s.claimHub(r, index, r.hubPath(), true)
            & s.claimSpoke(r, index, r.spokePath(), true))) {
      return null;
    }
    return new Resolved(
        new CollectionOp.RenameKeys(r.hubPath(), r.spokePath(), r.renames(), reserved(r.renames())),
        new CollectionOp.RenameKeys(r.spokePath(), r.hubPath(), inverse, reserved(inverse)),
        Verdict.LOSSLESS,
        List.of(s.hubName(r.hubPath())),
        List.of(s.spokeName(r.spokePath())));
  }

  /**
   * Names a renamed key lands on that are not renamed themselves: such a key could not come back.
   */
  private static HashSet<String> reserved(Map<String, String> renames) {
    var reserved = new HashSet<>(renames.values());
    reserved.removeAll(renames.keySet());
    return reserved;
  }

  private static SchemaNode scalarItems(Scope s, Rule r, SchemaNode array, String name) {
    if (Classification.of(array).kind() != LeafKind.ARRAY
        || array.items() == null
        || !Coercion.coercible(Classification.of(array.items()).kind())) {
      s.diagnostics()
          .error(
              DiagnosticCode.TYPE_MISMATCH,
              name,
              Scope.label(r)
                  + ": "
                  + name
                  + " must be an array of strings, integers, numbers or booleans",
              null);
      return null;
    }
    return array.items();
  }

  private static boolean requireString(Scope s, Rule r, SchemaNode node, String name) {
    if (Classification.of(node).kind() != LeafKind.STRING) {
      s.diagnostics()
          .error(
              DiagnosticCode.TYPE_MISMATCH,
              name,
              Scope.label(r) + ": " + name + " must be a string",
              null);
      return false;
    }
    return true;
  }
}
