package dev.versio.engine.rule;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import dev.versio.engine.FieldPath;
import dev.versio.engine.diagnostic.DiagnosticCode;
import dev.versio.engine.diagnostic.Diagnostics;
import dev.versio.engine.rule.Rule.OnUnknown;
import dev.versio.engine.rule.Rule.Serialization;
import dev.versio.engine.rule.catalog.StrategyCatalog;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Parses the rule YAML/JSON shape {@code {strategy, <params>, acknowledgeLossy, reason, when}} into
 * {@link Rule} records, applying defaults and the structural checks that need no schema. Problems
 * become diagnostics; a rule with any problem is left out of the result.
 */
public final class RuleParser {
  /** A {@code forEach} inside a {@code forEach} is allowed; a third level is not. */
  public static final int MAX_FOREACH_DEPTH = 4;

  /** Parses a list of rules at nesting depth {@code depth} (0 = a spoke's own rules). */
  public List<Rule> parseRules(JsonNode rules, Diagnostics diagnostics, int depth) {
    var out = new ArrayList<Rule>();
    if (rules == null || rules.isNull()) {
      return out;
    }
    if (!rules.isArray()) {
      diagnostics.error(DiagnosticCode.INVALID_CONFIG, null, "rules must be a list", null);
      return out;
    }
    for (int i = 0; i < rules.size(); i++) {
      parseRule(rules.get(i), diagnostics.atRule(i), depth).ifPresent(out::add);
    }
    return out;
  }

  /** Parses one rule; empty when it has problems (reported to {@code d}). */
  public Optional<Rule> parseRule(JsonNode node, Diagnostics d, int depth) {
    if (node == null || !node.isObject()) {
      d.error(
          DiagnosticCode.INVALID_CONFIG, null, "a rule must be an object with a 'strategy'", null);
      return Optional.empty();
    }
    var strategyName = node.path("strategy").asText("");
    var strategy = Strategy.byWireName(strategyName);
    if (strategy.isEmpty()) {
      unknownStrategy(node, strategyName, d);
      return Optional.empty();
    }
    var s = strategy.get();
    var blocks = new ArrayList<String>();
    var unknown = new ArrayList<String>();
    node.fieldNames()
        .forEachRemaining(
            name -> {
              if (Strategy.byParamsKey(name).isPresent()) {
                blocks.add(name);
              } else if (!StrategyCatalog.RULE_KEYS.containsKey(name)) {
                unknown.add(name);
              }
            });
    var ruleKeys = new ArrayList<>(StrategyCatalog.RULE_KEYS.sequencedKeySet());
    ruleKeys.add(1, s.paramsKey());
    for (var name : unknown) {
      d.error(
          DiagnosticCode.UNKNOWN_PARAM,
          name,
          "rule (" + s.wireName() + ") has no key '" + name + "'",
          DidYouMean.hint(name, ruleKeys, "a rule holds "));
    }
    if (blocks.isEmpty()) {
      d.error(
          DiagnosticCode.PARAMS_MISSING,
          null,
          "rule (" + s.wireName() + ") requires a '" + s.paramsKey() + "' block",
          "add " + s.paramsKey() + ": {...} with the strategy's parameters");
      return Optional.empty();
    }
    if (blocks.size() > 1) {
      d.error(
          DiagnosticCode.PARAMS_AMBIGUOUS,
          null,
          "rule ("
              + s.wireName()
              + ") has "
              + blocks.size()
              + " params blocks ("
              + String.join(", ", blocks)
              + "); exactly one is allowed",
          "keep only '" + s.paramsKey() + "'");
      return Optional.empty();
    }
    if (!blocks.getFirst().equals(s.paramsKey())) {
      d.error(
          DiagnosticCode.PARAMS_MISMATCH,
          null,
          "rule has strategy " + s.wireName() + " but a '" + blocks.getFirst() + "' block",
          "rename the block to '"
              + s.paramsKey()
              + "' or set strategy: "
              + Strategy.byParamsKey(blocks.getFirst()).orElseThrow().wireName());
      return Optional.empty();
    }
    var options = options(node, s, d);
    var params = new ParamsReader(node.get(s.paramsKey()), StrategyCatalog.of(s), d);
    Rule rule;
    try {
      rule = build(s, params, options, d, depth);
    } catch (NullPointerException | IllegalArgumentException e) {
      if (params.ok()) {
        throw e;
      }
      rule = null; // a record refused a missing value that is already reported
    }
    params.finish();
    if (!params.ok() || options == null || !unknown.isEmpty() || rule == null) {
      return Optional.empty();
    }
    return Optional.of(rule);
  }

  /**
   * Reports a missing or unknown strategy: a misspelling names the strategy it most likely meant,
   * and a rule without one names the key or the strategy it seems to lack.
   */
  private static void unknownStrategy(JsonNode node, String name, Diagnostics d) {
    var wireNames = Arrays.stream(Strategy.values()).map(Strategy::wireName).toList();
    var all = "strategies are spelled exactly: " + String.join(", ", wireNames);
    if (!name.isEmpty()) {
      var meant = DidYouMean.closest(name, wireNames);
      d.error(
          DiagnosticCode.UNKNOWN_STRATEGY,
          "strategy",
          "unknown strategy '"
              + name
              + "'"
              + meant.map(m -> "; did you mean '" + m + "'?").orElse(""),
          all);
      return;
    }
    var hint = all;
    for (var key : (Iterable<String>) node::fieldNames) {
      var block = Strategy.byParamsKey(key);
      if (!key.equals("strategy") && DidYouMean.closest(key, List.of("strategy")).isPresent()) {
        hint = "did you mean 'strategy'? (the rule has '" + key + "')";
        break;
      }
      if (block.isPresent()) {
        hint = "add strategy: " + block.get().wireName() + " (the rule has a '" + key + "' block)";
      }
    }
    d.error(DiagnosticCode.UNKNOWN_STRATEGY, "strategy", "the rule has no 'strategy'", hint);
  }

  private RuleOptions options(JsonNode node, Strategy s, Diagnostics d) {
    var ack = node.path("acknowledgeLossy");
    if (!ack.isMissingNode() && !ack.isNull() && !ack.isBoolean()) {
      d.error(
          DiagnosticCode.INVALID_PARAM,
          null,
          "acknowledgeLossy must be true or false, found " + ack,
          null);
      return null;
    }
    var reason = node.hasNonNull("reason") ? node.get("reason").asText() : null;
    Optional<RuleOptions.When> when = Optional.empty();
    if (node.has("when") && !node.get("when").isNull()) {
      var w = node.get("when");
      if (w.isObject()) {
        var unknownWhen = new ArrayList<String>();
        w.fieldNames()
            .forEachRemaining(
                k -> {
                  if (!StrategyCatalog.WHEN_KEYS.containsKey(k)) {
                    unknownWhen.add(k);
                  }
                });
        for (var k : unknownWhen) {
          d.error(
              DiagnosticCode.WHEN_INVALID,
              "when." + k,
              "rule (" + s.wireName() + "): when has no key '" + k + "'",
              DidYouMean.hint(k, StrategyCatalog.WHEN_KEYS.sequencedKeySet(), "when holds "));
        }
        if (!unknownWhen.isEmpty()) {
          return null;
        }
      }
      var path = w.path("path").asText("");
      if (!w.isObject() || path.isBlank()) {
        d.error(
            DiagnosticCode.WHEN_INVALID,
            null,
            "rule (" + s.wireName() + "): when.path must not be blank",
            "write when: {path: spec.plan, equals: enterprise}");
        return null;
      }
      try {
        when =
            Optional.of(
                new RuleOptions.When(
                    FieldPath.parse(path),
                    w.has("equals") ? w.get("equals") : NullNode.getInstance()));
      } catch (IllegalArgumentException e) {
        d.error(
            DiagnosticCode.WHEN_INVALID,
            path,
            "rule (" + s.wireName() + "): when.path: " + e.getMessage(),
            null);
        return null;
      }
    }
    var acknowledged = ack.asBoolean(false);
    if (s == Strategy.CEL && !acknowledged) {
      d.error(
          DiagnosticCode.CEL_NEEDS_ACKNOWLEDGEMENT,
          null,
          "rule (CEL) must set acknowledgeLossy: true: the engine cannot prove a CEL expression is reversible",
          "add acknowledgeLossy: true and a reason");
      return null;
    }
    return new RuleOptions(acknowledged, reason, when);
  }

  private Rule build(Strategy s, ParamsReader p, RuleOptions o, Diagnostics d, int depth) {
    return switch (s) {
      case FIELD_RENAME ->
          new Rule.FieldRename(
              p.path("hubPath"), p.path("spokePath"), p.optionalPaths("spokeAliases"), o);
      case SCALAR_TO_OBJECT ->
          new Rule.ScalarToObject(
              p.path("hubPath"),
              p.path("spokePath"),
              p.text("key", true),
              p.jsonMap("defaultsForOtherKeys"),
              o);
      case OBJECT_TO_SCALAR ->
          new Rule.ObjectToScalar(
              p.path("hubPath"),
              p.path("spokePath"),
              p.text("key", true),
              p.jsonMap("defaultsForOtherKeys"),
              o);
      case SINGLETON_ARRAY_TO_OBJECT ->
          new Rule.SingletonArrayToObject(
              p.path("hubPath"), p.path("spokePath"), p.bool("nested"), o);
      case OBJECT_TO_SINGLETON_ARRAY ->
          new Rule.ObjectToSingletonArray(
              p.path("hubPath"), p.path("spokePath"), p.bool("nested"), o);
      case FIELDS_TO_MAP ->
          new Rule.FieldsToMap(
              p.paths("hubPaths"),
              p.path("spokeMapPath"),
              p.stringMap("keyNames", false),
              p.choice("onUnknownSpokeKey", OnUnknown.class, OnUnknown.ERROR),
              o);
      case MAP_TO_FIELDS ->
          new Rule.MapToFields(
              p.path("hubMapPath"),
              p.paths("spokePaths"),
              p.stringMap("keyNames", false),
              p.choice("onUnknownHubKey", OnUnknown.class, OnUnknown.ERROR),
              o);
      case TO_ANNOTATION ->
          new Rule.ToAnnotation(
              p.path("hubPath"),
              p.text("key", true),
              p.choice("serialization", Serialization.class, Serialization.JSON),
              p.bool("restoreOnReverse"),
              o);
      case TO_LABEL -> {
        var key = labelKey(p, d);
        yield new Rule.ToLabel(
            p.path("hubPath"),
            key,
            p.choice("serialization", Serialization.class, Serialization.JSON),
            p.bool("restoreOnReverse"),
            o);
      }
      case FROM_ANNOTATION ->
          new Rule.FromAnnotation(
              p.path("spokePath"),
              p.text("key", true),
              p.choice("serialization", Serialization.class, Serialization.JSON),
              p.bool("stashOnReverse"),
              o);
      case FROM_LABEL -> {
        var key = labelKey(p, d);
        var spokePath = p.path("spokePath");
        var stash = p.bool("stashOnReverse");
        var serialization = p.choice("serialization", Serialization.class, Serialization.STRING);
        if (serialization == Serialization.JSON) {
          d.error(
              DiagnosticCode.LABEL_JSON_UNSUPPORTED,
              null,
              "rule (FromLabel): serialization JSON is not supported for labels (quotes are not valid in label values)",
              "use serialization: String");
          yield null;
        }
        yield new Rule.FromLabel(spokePath, key, serialization, stash, o);
      }
      case ENUM_REMAP -> enumRemap(p, o);
      case DEFAULT_VALUE ->
          new Rule.DefaultValue(p.path("path"), existsOn(p), p.json("default", true), o);
      case CONSTANT -> new Rule.Constant(p.path("path"), existsOn(p), p.json("value", true), o);
      case DELETE -> new Rule.Delete(p.path("path"), existsOn(p), o);
      case JSON_STRING -> new Rule.JSONString(p.path("hubPath"), p.path("spokePath"), o);
      case JSON_PATCH ->
          new Rule.JSONPatch(
              p.json("hubToSpoke", true),
              p.json("spokeToHub", true),
              p.bool("losslessOverride"),
              o);
      case FOR_EACH -> forEach(p, o, d, depth);
      case TYPE_COERCE ->
          new Rule.TypeCoerce(
              p.path("path"),
              p.choice(
                  "onFractionalInteger", Rule.FractionalPolicy.class, Rule.FractionalPolicy.ERROR),
              o);
      case SCALAR_TO_FIELDS ->
          new Rule.ScalarToFields(
              p.path("hubPath"),
              p.text("pattern", true),
              p.pathMap("spokeFields"),
              p.text("joinTemplate", true),
              p.bool("losslessOverride"),
              o);
      case FIELDS_TO_SCALAR ->
          new Rule.FieldsToScalar(
              p.pathMap("hubFields"),
              p.text("pattern", true),
              p.path("spokePath"),
              p.text("joinTemplate", true),
              p.bool("losslessOverride"),
              o);
      case ARRAY_TO_MAP_BY_KEY ->
          new Rule.ArrayToMapByKey(
              p.path("hubPath"), p.path("spokePath"), p.text("keyField", true), o);
      case MAP_TO_ARRAY_BY_KEY ->
          new Rule.MapToArrayByKey(
              p.path("hubPath"), p.path("spokePath"), p.text("keyField", true), o);
      case NUMERIC_SCALE -> {
        var factor = p.number("factor");
        if (factor != null && factor.signum() == 0) {
          p.fail("factor", "numericScale.factor must not be 0", null);
        }
        yield new Rule.NumericScale(p.path("hubPath"), p.path("spokePath"), factor, o);
      }
      case LIST_JOIN -> new Rule.ListJoin(p.path("hubPath"), p.path("spokePath"), separator(p), o);
      case LIST_SPLIT ->
          new Rule.ListSplit(p.path("hubPath"), p.path("spokePath"), separator(p), o);
      case QUANTITY -> new Rule.Quantity(p.path("hubPath"), p.path("spokePath"), o);
      case DURATION -> new Rule.Duration(p.path("hubPath"), p.path("spokePath"), o);
      case MAP_KEY_RENAME -> {
        var renames = p.stringMap("renames", true);
        if (renames.isEmpty() && p.ok()) {
          p.fail("renames", "mapKeyRename.renames must rename at least one key", null);
        }
        yield new Rule.MapKeyRename(p.path("hubPath"), p.path("spokePath"), renames, o);
      }
      case CEL ->
          new Rule.CEL(
              p.paths("hubPaths"),
              p.paths("spokePaths"),
              p.text("hubToSpoke", true),
              p.text("spokeToHub", true),
              o);
    };
  }

  /**
   * {@code path} for a field in place, or {@code hubPath} and {@code spokePath} for one that moved.
   */
  private Rule enumRemap(ParamsReader p, RuleOptions o) {
    var path = p.optionalPath("path", "hubPath and spokePath");
    var hub = p.optionalPath("hubPath", "path");
    var spoke = p.optionalPath("spokePath", "path");
    var mapping = enumMappings(p);
    var onHub = p.choice("onUnmappedHubValue", OnUnknown.class, OnUnknown.ERROR);
    var onSpoke = p.choice("onUnmappedSpokeValue", OnUnknown.class, OnUnknown.ERROR);
    boolean moved = hub != null || spoke != null;
    if (path != null && moved) {
      p.problem(
          "path",
          "enumRemap takes either path, or hubPath and spokePath, not both",
          "keep path for a field in place; hubPath and spokePath for one that moved");
      return null;
    }
    if (path == null && (hub == null || spoke == null)) {
      p.problem(
          path == null && !moved ? "path" : hub == null ? "hubPath" : "spokePath",
          moved
              ? "enumRemap needs both hubPath and spokePath for a field that moved"
              : "enumRemap.path is required",
          "path: spec.tier, or hubPath: spec.a.tier with spokePath: spec.tier");
      return null;
    }
    return path != null
        ? new Rule.EnumRemap(path, mapping, onHub, onSpoke, o)
        : new Rule.EnumRemap(hub, spoke, mapping, onHub, onSpoke, o);
  }

  private Rule forEach(ParamsReader p, RuleOptions o, Diagnostics d, int depth) {
    var hub = p.path("hubItemsPath");
    var spoke = p.path("spokeItemsPath");
    var rulesNode = p.json("rules", true);
    if (depth >= MAX_FOREACH_DEPTH) {
      d.error(
          DiagnosticCode.FOREACH_TOO_DEEP,
          null,
          "ForEach nesting depth exceeds the supported maximum of " + MAX_FOREACH_DEPTH,
          "flatten the innermost ForEach, or move its work into a CEL or JSONPatch rule");
      return null;
    }
    var before = d.all().size();
    var nested = parseRules(rulesNode, d, depth + 1);
    if (d.all().subList(before, d.all().size()).stream().anyMatch(x -> x.isError())) {
      return null;
    }
    return new Rule.ForEach(hub, spoke, nested, o);
  }

  private static List<Rule.EnumMapping> enumMappings(ParamsReader p) {
    var node = p.json("mapping", true);
    var out = new ArrayList<Rule.EnumMapping>();
    if (!node.isArray() || node.isEmpty()) {
      p.fail(
          "mapping",
          "enumRemap.mapping must be a non-empty list of {hub, spoke} pairs",
          "e.g. mapping: [{hub: Premium, spoke: P}]");
      return out;
    }
    for (var pair : node) {
      if (!pair.isObject()
          || !pair.has("hub")
          || !pair.has("spoke")
          || !pair.get("hub").isValueNode()
          || !pair.get("spoke").isValueNode()
          || (pair.has("preferred") && !pair.get("preferred").isBoolean())) {
        p.fail(
            "mapping",
            "enumRemap.mapping entries must be {hub: <scalar>, spoke: <scalar>} (and optionally"
                + " preferred: true), found "
                + pair,
            null);
        continue;
      }
      var unknown = new ArrayList<String>();
      pair.fieldNames()
          .forEachRemaining(
              k -> {
                if (!List.of("hub", "spoke", "preferred").contains(k)) {
                  unknown.add(k);
                }
              });
      if (!unknown.isEmpty()) {
        p.fail(
            "mapping",
            "enumRemap.mapping entries take hub, spoke and preferred; unknown: "
                + String.join(", ", unknown),
            null);
        continue;
      }
      out.add(
          new Rule.EnumMapping(
              pair.get("hub"), pair.get("spoke"), pair.path("preferred").asBoolean(false)));
    }
    return out;
  }

  private static Rule.ExistsOn existsOn(ParamsReader p) {
    var value = p.choice("existsOn", Rule.ExistsOn.class, null);
    if (value == null && p.ok()) {
      p.fail(
          "existsOn",
          "existsOn is required: Hub or Spoke (the side that declares the field)",
          null);
    }
    return value;
  }

  private static String labelKey(ParamsReader p, Diagnostics d) {
    var key = p.text("key", true);
    if (key != null) {
      var problem = LabelKeys.qualifiedNameProblem(key);
      if (problem != null) {
        p.fail("key", "invalid label key: " + problem, "use a key like example.com/name");
      }
    }
    return key;
  }

  private static String separator(ParamsReader p) {
    var sep = p.text("separator", true);
    if (sep != null && sep.isEmpty()) {
      p.fail(
          "separator",
          "separator must not be empty (a list joined with nothing cannot be split back)",
          "use ',' or ' '");
    }
    return sep;
  }
}
