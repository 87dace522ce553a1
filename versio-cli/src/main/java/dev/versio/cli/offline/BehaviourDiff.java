package dev.versio.cli.offline;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.versio.engine.compile.Plan;
import dev.versio.engine.compile.ProbeObjects;
import dev.versio.engine.json.EngineJson;
import dev.versio.engine.runtime.ConversionException;
import dev.versio.engine.runtime.Tree;
import dev.versio.engine.schema.SchemaNode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.function.Function;

/**
 * What two plans of one spoke do differently: both convert the same probe objects of each side
 * ({@link ProbeObjects}) and go back, and every difference is named by path. This sees what the
 * verdicts cannot: a rule changed inside a {@code ForEach}, a changed CEL expression, a {@code
 * Duration} replaced by a {@code Delete}.
 */
final class BehaviourDiff {
  /** How many probe values of one field are tried on the base object. */
  static final int PER_FIELD = 16;

  private static final int SHOWN = 3;
  private static final String FAILS = "(conversion fails)";

  private BehaviourDiff() {}

  /**
   * One direction's differences.
   *
   * @param direction {@code hub->spoke} or {@code spoke->hub}
   * @param differing how many probe objects convert differently
   * @param tried how many were converted
   * @param paths where the converted objects differ (the first few)
   * @param newlyLost fields a round trip keeps with the old plan and loses with the new one
   * @param noLongerWritten fields the old plan wrote on the other side and the new one does not
   */
  record Direction(
      String direction,
      int differing,
      int tried,
      List<String> paths,
      List<String> newlyLost,
      List<String> noLongerWritten) {
    boolean changed() {
      return differing > 0;
    }

    boolean worse() {
      return !newlyLost.isEmpty() || !noLongerWritten.isEmpty();
    }

    String describe() {
      var text =
          direction
              + ": "
              + differing
              + " of "
              + tried
              + " probe objects convert differently, at "
              + String.join(", ", paths);
      if (!noLongerWritten.isEmpty()) {
        text += "; no longer writes " + String.join(", ", noLongerWritten) + " (written before)";
      }
      if (!newlyLost.isEmpty()) {
        text += "; the round trip now loses " + String.join(", ", newlyLost) + " (kept before)";
      }
      return text;
    }
  }

  static List<Direction> of(Plan before, Plan after, SchemaNode hub, SchemaNode spoke) {
    var out = new ArrayList<Direction>();
    var h =
        direction(
            "hub->spoke",
            objects(hub, before::toSpoke, before::toHub),
            before::toSpoke,
            before::toHub,
            after::toSpoke,
            after::toHub);
    var s =
        direction(
            "spoke->hub",
            objects(spoke, before::toHub, before::toSpoke),
            before::toHub,
            before::toSpoke,
            after::toHub,
            after::toSpoke);
    for (var d : List.of(h, s)) {
      if (d.changed()) {
        out.add(d);
      }
    }
    return out;
  }

  private static Direction direction(
      String name,
      List<? extends JsonNode> objects,
      Function<JsonNode, JsonNode> forthBefore,
      Function<JsonNode, JsonNode> backBefore,
      Function<JsonNode, JsonNode> forthAfter,
      Function<JsonNode, JsonNode> backAfter) {
    int differing = 0;
    var paths = new LinkedHashSet<String>();
    var newlyLost = new LinkedHashSet<String>();
    var noLongerWritten = new LinkedHashSet<String>();
    for (var object : objects) {
      var thereBefore = run(forthBefore, object);
      var thereAfter = run(forthAfter, object);
      if (!same(thereBefore, thereAfter)) {
        differing++;
        paths.addAll(differences(thereBefore, thereAfter));
      }
      if (failed(thereBefore) || failed(thereAfter)) {
        continue; // a refusal on either side is a difference above, not a silent loss
      }
      for (var change : LeafDiff.changes(thereBefore, thereAfter)) {
        if (change.removed()) {
          noLongerWritten.add(change.path().replaceAll("\\[\\d+\\]", "[]"));
        }
      }
      var lostBefore = lost(object, thereBefore, backBefore);
      for (var path : lost(object, thereAfter, backAfter)) {
        if (!lostBefore.contains(path)) {
          newlyLost.add(path);
        }
      }
    }
    return new Direction(
        name, differing, objects.size(), first(paths), first(newlyLost), first(noLongerWritten));
  }

  /**
   * A base object the old plan converts there and back, built field by field from the first probe
   * value it accepts, then the base with each field set to each of its probe values, or left out:
   * one field varies at a time, so a value one rule refuses does not hide what another does.
   */
  private static List<JsonNode> objects(
      SchemaNode schema, Function<JsonNode, JsonNode> forth, Function<JsonNode, JsonNode> back) {
    var fields = ProbeObjects.fields(schema);
    var base = EngineJson.nodes().objectNode();
    base.putObject("metadata").put("name", "probe");
    for (var field : fields) {
      set(base, field, field.values().getFirst());
    }
    // another value for a field the old plan refuses, else fewer fields, until it converts
    for (var field : fields) {
      if (converts(base, forth, back)) {
        break;
      }
      for (var value : field.values()) {
        var candidate = base.deepCopy();
        if (set(candidate, field, value) && converts(candidate, forth, back)) {
          base = candidate;
          break;
        }
      }
    }
    for (var field : fields) {
      if (converts(base, forth, back)) {
        break;
      }
      var candidate = base.deepCopy();
      if (remove(candidate, field)) {
        base = candidate;
      }
    }
    var out = new ArrayList<JsonNode>();
    out.add(base);
    for (var field : fields) {
      var without = base.deepCopy();
      if (remove(without, field)) {
        out.add(without);
      }
      for (int v = 0; v < Math.min(PER_FIELD, field.values().size()); v++) {
        var variant = base.deepCopy();
        if (set(variant, field, field.values().get(v))) {
          out.add(variant);
        }
      }
    }
    return out;
  }

  private static boolean set(ObjectNode object, ProbeObjects.Field field, JsonNode value) {
    try {
      Tree.set(object, field.path(), value.deepCopy());
      return true;
    } catch (RuntimeException e) {
      return false; // nested in a field this object holds as a scalar
    }
  }

  private static boolean remove(ObjectNode object, ProbeObjects.Field field) {
    var parent = Tree.get(object, field.path().parent());
    return parent instanceof ObjectNode o && o.remove(field.path().segments().getLast()) != null;
  }

  private static boolean converts(
      JsonNode object, Function<JsonNode, JsonNode> forth, Function<JsonNode, JsonNode> back) {
    var there = run(forth, object);
    return !failed(there) && !failed(run(back, there));
  }

  /** The converted object, or a node naming the failure. */
  private static JsonNode run(Function<JsonNode, JsonNode> plan, JsonNode object) {
    try {
      return plan.apply(object);
    } catch (ConversionException e) {
      return EngineJson.nodes().objectNode().put(FAILS, e.getMessage());
    }
  }

  private static boolean failed(JsonNode converted) {
    return converted.has(FAILS);
  }

  /** Equal objects, or two refusals (their messages name rules by index, which may shift). */
  private static boolean same(JsonNode a, JsonNode b) {
    return failed(a) && failed(b) || EngineJson.sameValue(a, b);
  }

  private static List<String> differences(JsonNode a, JsonNode b) {
    if (failed(a) || failed(b)) {
      return List.of(
          failed(a) ? "(refused before, converts now)" : "(converted before, refused now)");
    }
    return LeafDiff.paths(a, b);
  }

  /** The fields of {@code object} that do not come back through {@code back}. */
  private static LinkedHashSet<String> lost(
      JsonNode object, JsonNode there, Function<JsonNode, JsonNode> back) {
    var out = new LinkedHashSet<String>();
    var returned = run(back, there);
    if (failed(returned)) {
      out.add("(the way back fails)");
      return out;
    }
    for (var change : LeafDiff.changes(object, returned)) {
      out.add(change.path().replaceAll("\\[\\d+\\]", "[]"));
    }
    return out;
  }

  private static List<String> first(LinkedHashSet<String> all) {
    var list = new ArrayList<>(all);
    if (list.size() > SHOWN) {
      int more = list.size() - SHOWN;
      list = new ArrayList<>(list.subList(0, SHOWN));
      list.add("and " + more + " more");
    }
    return list;
  }
}
