package dev.versio.engine.compile;

import com.fasterxml.jackson.databind.JsonNode;
import dev.versio.engine.FieldPath;
import dev.versio.engine.diagnostic.DiagnosticCode;
import dev.versio.engine.json.EngineJson;
import dev.versio.engine.rule.Rule;
import dev.versio.engine.rule.Rule.ExistsOn;
import dev.versio.engine.rule.Rule.OnUnknown;
import dev.versio.engine.runtime.EnumKeys;
import dev.versio.engine.runtime.Op;
import dev.versio.engine.schema.Classification;
import dev.versio.engine.schema.LeafKind;
import dev.versio.engine.schema.SchemaNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Strategies about values: enum remapping, defaults, constants, deletion. */
final class ValueRules {
  private ValueRules() {}

  static Resolved enumRemap(Scope s, int index, Rule.EnumRemap r) {
    var hub = s.hubNode(r, r.hubPath());
    var spoke = s.spokeNode(r, r.spokePath());
    if (hub == null || spoke == null) {
      return null;
    }
    var toSpoke = new HashMap<String, JsonNode>();
    var bySpoke = new java.util.LinkedHashMap<String, List<Rule.EnumMapping>>();
    boolean ok = true;
    for (var m : r.mapping()) {
      var previous = toSpoke.put(EnumKeys.of(m.hub()), m.spoke());
      if (previous != null && !EngineJson.sameValue(previous, m.spoke())) {
        s.diagnostics()
            .error(
                DiagnosticCode.ENUM_VALUE_UNMAPPED,
                s.hubName(r.hubPath()),
                Scope.label(r)
                    + ": hub value "
                    + m.hub()
                    + " is mapped to both "
                    + previous
                    + " and "
                    + m.spoke()
                    + "; hub→spoke must know which one to write",
                "map each hub value once");
        ok = false;
      }
      bySpoke.computeIfAbsent(EnumKeys.of(m.spoke()), k -> new ArrayList<>()).add(m);
    }
    // spoke→hub: a spoke value that several hub values share goes back to the one the user
    // marked preferred, else to the identical one; never to whichever the list names last
    var toHub = new HashMap<String, JsonNode>();
    var shared = new ArrayList<String>();
    for (var entry : bySpoke.values()) {
      var distinct = new ArrayList<Rule.EnumMapping>();
      for (var m : entry) {
        if (distinct.stream().noneMatch(d -> EngineJson.sameValue(d.hub(), m.hub()))) {
          distinct.add(m);
        }
      }
      var spokeValue = entry.getFirst().spoke();
      if (distinct.size() == 1) {
        toHub.put(EnumKeys.of(spokeValue), distinct.getFirst().hub());
        continue;
      }
      var preferred = distinct.stream().filter(Rule.EnumMapping::preferred).toList();
      var identical =
          distinct.stream().filter(m -> EngineJson.sameValue(m.hub(), m.spoke())).toList();
      var hubs = distinct.stream().map(m -> m.hub().toString()).toList();
      Rule.EnumMapping chosen = null;
      String why = null;
      if (preferred.size() == 1) {
        chosen = preferred.getFirst();
        why = "preferred";
      } else if (preferred.isEmpty() && identical.size() == 1) {
        chosen = identical.getFirst();
        why = "the identical value";
      }
      if (chosen == null) {
        s.diagnostics()
            .error(
                DiagnosticCode.ENUM_VALUE_UNMAPPED,
                s.spokeName(r.spokePath()),
                Scope.label(r)
                    + ": spoke value "
                    + spokeValue
                    + " is mapped from hub values "
                    + String.join(", ", hubs)
                    + (preferred.size() > 1 ? ", more than one of them preferred" : "")
                    + "; spoke→hub must be told which one to write, never by the list order",
                "mark exactly one of those pairs preferred: true, e.g. {hub: "
                    + distinct.getFirst().hub()
                    + ", spoke: "
                    + spokeValue
                    + ", preferred: true}");
        ok = false;
        continue;
      }
      toHub.put(EnumKeys.of(spokeValue), chosen.hub());
      shared.add(
          "hub values "
              + String.join(", ", hubs)
              + " share spoke value "
              + spokeValue
              + " (spoke→hub writes "
              + chosen.hub()
              + ", "
              + why
              + ")");
    }
    boolean injective = shared.isEmpty();
    // Static check: with Error, every value the source enum allows must be mapped, and every value
    // written must be allowed by the destination enum.
    if (r.onUnmappedHubValue() == OnUnknown.ERROR) {
      ok &= allMapped(s, r, "hub", s.hubName(r.hubPath()), hub, toSpoke.keySet());
    }
    if (r.onUnmappedSpokeValue() == OnUnknown.ERROR) {
      ok &= allMapped(s, r, "spoke", s.spokeName(r.spokePath()), spoke, toHub.keySet());
    }
    ok &=
        allAllowed(
            s,
            r,
            "spoke",
            s.spokeName(r.spokePath()),
            spoke,
            r.mapping().stream().map(Rule.EnumMapping::spoke).toList());
    ok &=
        allAllowed(
            s,
            r,
            "hub",
            s.hubName(r.hubPath()),
            hub,
            r.mapping().stream().map(Rule.EnumMapping::hub).toList());
    if (!injective) {
      s.diagnostics()
          .warning(
              DiagnosticCode.ENUM_NOT_INJECTIVE,
              s.spokeName(r.spokePath()),
              Scope.label(r)
                  + ": the mapping is not one-to-one: "
                  + String.join("; ", shared)
                  + ", so a hub value converted to the spoke and back may come back as another",
              "map every hub value to its own spoke value, or acknowledge the loss");
    }
    if (!ok
        || !(s.claimHub(r, index, r.hubPath(), false)
            & s.claimSpoke(r, index, r.spokePath(), false))) {
      return null;
    }
    return new Resolved(
        new Op.RemapEnum(r.hubPath(), r.spokePath(), toSpoke, r.onUnmappedHubValue()),
        new Op.RemapEnum(r.spokePath(), r.hubPath(), toHub, r.onUnmappedSpokeValue()),
        // hub→spoke folds the hub values that share a spoke value into one: that direction
        // loses which it was; spoke→hub writes one hub value per spoke value, and it comes back
        new Verdict(
            r.onUnmappedHubValue() == OnUnknown.ERROR && injective,
            r.onUnmappedSpokeValue() == OnUnknown.ERROR),
        List.of(s.hubName(r.hubPath())),
        List.of(s.spokeName(r.spokePath())));
  }

  private static boolean allMapped(
      Scope s, Rule r, String side, String path, SchemaNode node, Set<String> mapped) {
    var missing = new ArrayList<String>();
    for (var value : node.enumValues()) {
      if (!mapped.contains(EnumKeys.of(value))) {
        missing.add(value.toString());
      }
    }
    if (missing.isEmpty()) {
      return true;
    }
    s.diagnostics()
        .error(
            DiagnosticCode.ENUM_VALUE_UNMAPPED,
            path,
            Scope.label(r)
                + ": the "
                + side
                + " enum of "
                + path
                + " allows "
                + String.join(", ", missing)
                + " but the mapping does not map "
                + (missing.size() == 1 ? "it" : "them"),
            "add mapping entries for "
                + String.join(", ", missing)
                + ", or set onUnmapped"
                + (side.equals("hub") ? "Hub" : "Spoke")
                + "Value: Drop (lossy)");
    return false;
  }

  private static boolean allAllowed(
      Scope s, Rule r, String side, String path, SchemaNode node, List<JsonNode> written) {
    if (node.enumValues().isEmpty()) {
      return true;
    }
    var allowed = new HashSet<String>();
    node.enumValues().forEach(v -> allowed.add(EnumKeys.of(v)));
    for (var value : written) {
      if (!allowed.contains(EnumKeys.of(value))) {
        s.diagnostics()
            .error(
                DiagnosticCode.ENUM_VALUE_UNMAPPED,
                path,
                Scope.label(r)
                    + ": the mapping writes "
                    + value
                    + " to "
                    + side
                    + " "
                    + path
                    + ", which its enum does not allow",
                "map to one of " + node.enumValues());
        return false;
      }
    }
    return true;
  }

  /** DefaultValue and Constant: inject towards the declaring side, drop away from it. */
  static Resolved inject(
      Scope s, int index, Rule r, FieldPath path, ExistsOn existsOn, JsonNode value) {
    boolean onSpoke = existsOn == ExistsOn.SPOKE;
    var node = onSpoke ? s.spokeNode(r, path) : s.hubNode(r, path);
    if (node == null) {
      return null;
    }
    var problem = fitProblem(value, node);
    if (problem != null) {
      s.diagnostics()
          .error(
              DiagnosticCode.INVALID_PARAM,
              onSpoke ? s.spokeName(path) : s.hubName(path),
              Scope.label(r) + ": the value " + value + " does not fit " + path + ": " + problem,
              null);
      return null;
    }
    if (onSpoke ? !s.claimSpoke(r, index, path, true) : !s.claimHub(r, index, path, true)) {
      return null;
    }
    var op = new Op.Inject(path, value);
    return onSpoke
        ? new Resolved(op, null, new Verdict(true, false), List.of(), List.of(s.spokeName(path)))
        : new Resolved(null, op, new Verdict(false, true), List.of(s.hubName(path)), List.of());
  }

  static Resolved delete(Scope s, int index, Rule.Delete r) {
    boolean onSpoke = r.existsOn() == ExistsOn.SPOKE;
    var schema = onSpoke ? s.spokeSchema() : s.hub();
    var node = onSpoke ? s.spokeNode(r, r.path()) : s.hubNode(r, r.path());
    if (node == null) {
      return null;
    }
    var name = onSpoke ? s.spokeName(r.path()) : s.hubName(r.path());
    if (r.path().size() > 0) {
      var parent = schema.lookup(r.path().parent());
      if (parent.ok() && parent.node().isRequired(r.path().last())) {
        s.diagnostics()
            .warning(
                DiagnosticCode.DELETE_OF_REQUIRED_FIELD,
                name,
                Scope.label(r)
                    + ": "
                    + name
                    + " is required on the "
                    + (onSpoke ? "spoke" : "hub")
                    + "; converted objects on that side will fail apiserver validation unless the schema also declares a default",
                "use DefaultValue instead of Delete");
      }
    }
    if (onSpoke ? !s.claimSpoke(r, index, r.path(), true) : !s.claimHub(r, index, r.path(), true)) {
      return null;
    }
    return onSpoke
        ? new Resolved(null, null, new Verdict(true, false), List.of(), List.of(name))
        : new Resolved(null, null, new Verdict(false, true), List.of(name), List.of());
  }

  /** Why a literal value cannot be stored at a node of this schema, or null. */
  private static String fitProblem(JsonNode value, SchemaNode node) {
    var c = Classification.of(node);
    if (value.isNull()) {
      return node.nullable() ? null : "the field is not nullable";
    }
    if (c.opaque() && c.kind() == LeafKind.UNKNOWN) {
      return null;
    }
    var fits =
        switch (c.kind()) {
          case STRING -> value.isTextual();
          case INTEGER ->
              value.isIntegralNumber()
                  || (value.isNumber() && value.decimalValue().stripTrailingZeros().scale() <= 0);
          case NUMBER -> value.isNumber();
          case BOOLEAN -> value.isBoolean();
          case ARRAY -> value.isArray();
          case OBJECT -> value.isObject();
          case UNKNOWN -> true;
        };
    if (!fits) {
      return "the schema says " + c.kind().wireName();
    }
    if (!node.enumValues().isEmpty()
        && node.enumValues().stream().noneMatch(v -> EnumKeys.of(v).equals(EnumKeys.of(value)))) {
      return "it is not one of the enum values " + node.enumValues();
    }
    return null;
  }
}
