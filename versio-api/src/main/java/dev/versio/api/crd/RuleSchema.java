package dev.versio.api.crd;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.versio.engine.rule.RuleParser;
import dev.versio.engine.rule.Strategy;
import dev.versio.engine.rule.catalog.ParamSpec;
import dev.versio.engine.rule.catalog.StrategyCatalog;
import dev.versio.engine.rule.catalog.StrategySpec;
import java.util.List;

/**
 * The structural OpenAPI schema of a spoke's {@code rules}, generated from the engine's {@link
 * StrategyCatalog}: one typed params block per strategy, so that {@code kubectl explain} and
 * editors can help, and the apiserver rejects a wrong type, a missing required parameter or an
 * unknown strategy before admission runs.
 *
 * <p>Rules, {@code when} and params blocks declare their keys and keep no unknown ones: the
 * apiserver publishes no schema below a node with {@code x-kubernetes-preserve-unknown-fields}, so
 * keeping them would hide every parameter from {@code kubectl explain} and from kubectl's
 * validation, which rejects an unknown key before it reaches the apiserver. A client that skips
 * validation has unknown keys pruned. Only JSON-valued parameters accept any value. A {@code
 * ForEach} may nest {@code ForEach}es up to {@link RuleParser#MAX_FOREACH_DEPTH} levels, so its
 * rules are typed by unrolling that many levels; the innermost level offers no {@code ForEach} at
 * all. The schema has no references and no recursion.
 */
public final class RuleSchema {
  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
  private static final List<String> PATCH_OPS =
      List.of("add", "remove", "replace", "move", "copy", "test");

  private RuleSchema() {}

  /** The schema of {@code spec.spokes[].rules}. */
  public static ObjectNode rules() {
    return rules(0);
  }

  private static ObjectNode rules(int depth) {
    var rules =
        typed(
            "array",
            depth == 0
                ? "The rules that convert between the hub and this spoke; every strategy is"
                    + " described in docs/strategies."
                : "The rules for one element; their paths are relative to the element.");
    rules.set("items", rule(depth));
    return rules;
  }

  /** One rule at nesting depth {@code depth} (0 = a spoke's own rules). */
  private static ObjectNode rule(int depth) {
    boolean forEachAllowed = depth < RuleParser.MAX_FOREACH_DEPTH;
    var rule = typed("object", "One conversion rule: a strategy and its params block.");
    var properties = rule.putObject("properties");
    var keys = StrategyCatalog.RULE_KEYS;
    var strategy = typed("string", keys.get("strategy"));
    var names = strategy.putArray("enum");
    for (var s : Strategy.values()) {
      if (s != Strategy.FOR_EACH || forEachAllowed) {
        names.add(s.wireName());
      }
    }
    properties.set("strategy", strategy);
    properties.set("acknowledgeLossy", typed("boolean", keys.get("acknowledgeLossy")));
    properties.set("reason", typed("string", keys.get("reason")));
    properties.set("when", when(keys.get("when")));
    for (var spec : StrategyCatalog.all()) {
      if (spec.strategy() != Strategy.FOR_EACH || forEachAllowed) {
        properties.set(spec.strategy().paramsKey(), block(spec, depth));
      }
    }
    rule.putArray("required").add("strategy");
    return rule;
  }

  private static ObjectNode when(String description) {
    var when = typed("object", description);
    var properties = when.putObject("properties");
    properties.set("path", typed("string", StrategyCatalog.WHEN_KEYS.get("path")));
    properties.set("equals", anyValue(StrategyCatalog.WHEN_KEYS.get("equals")));
    when.putArray("required").add("path");
    return when;
  }

  /** The params block of one strategy. */
  private static ObjectNode block(StrategySpec spec, int depth) {
    var block =
        typed(
            "object",
            "The parameters of strategy "
                + spec.strategy().wireName()
                + ": "
                + lowerFirst(spec.summary()));
    var properties = block.putObject("properties");
    var required = JSON.arrayNode();
    for (var p : spec.params()) {
      properties.set(p.name(), param(p, depth));
      if (p.required()) {
        required.add(p.name());
      }
    }
    if (!required.isEmpty()) {
      block.set("required", required);
    }
    return block;
  }

  private static ObjectNode param(ParamSpec p, int depth) {
    var description = p.description() + (p.required() ? "" : " Default: " + p.defaultValue() + ".");
    return switch (p.type()) {
      case PATH -> typed("string", description + " A dotted path such as spec.a.b.");
      case STRING -> typed("string", description);
      case BOOLEAN -> typed("boolean", description);
      case NUMBER -> typed("number", description);
      case CHOICE -> {
        var choice = typed("string", description);
        var values = choice.putArray("enum");
        p.choices().forEach(values::add);
        yield choice;
      }
      case PATHS -> {
        var paths = typed("array", description);
        paths.set("items", typed("string", null));
        yield paths;
      }
      case STRING_MAP, PATH_MAP -> {
        var map = typed("object", description);
        map.set("additionalProperties", typed("string", null));
        yield map;
      }
      case JSON -> anyValue(description);
      case JSON_MAP -> {
        var map = typed("object", description);
        map.put("x-kubernetes-preserve-unknown-fields", true);
        yield map;
      }
      case JSON_PATCH -> {
        var patch = typed("array", description);
        var op = typed("object", null);
        var properties = op.putObject("properties");
        var name = typed("string", null);
        PATCH_OPS.forEach(name.putArray("enum")::add);
        properties.set("op", name);
        properties.set("path", typed("string", null));
        properties.set("from", typed("string", null));
        properties.set("value", anyValue(null));
        op.putArray("required").add("op").add("path");
        patch.set("items", op);
        yield patch;
      }
      case ENUM_MAPPING -> {
        var mapping = typed("array", description);
        var pair = typed("object", null);
        var properties = pair.putObject("properties");
        properties.set("hub", anyValue("The value at the hub (a string, number or boolean)."));
        properties.set("spoke", anyValue("The value at the spoke."));
        properties.set(
            "preferred",
            typed(
                "boolean",
                "When several hub values share this spoke value, spoke→hub writes this pair's hub"
                    + " value."));
        pair.putArray("required").add("hub").add("spoke");
        mapping.set("items", pair);
        yield mapping;
      }
      case RULES -> {
        var nested = rules(depth + 1);
        nested.put("description", description);
        yield nested;
      }
    };
  }

  private static ObjectNode typed(String type, String description) {
    var node = JSON.objectNode();
    if (description != null) {
      node.put("description", description);
    }
    node.put("type", type);
    return node;
  }

  /** A value of any JSON type, kept as it is. */
  private static ObjectNode anyValue(String description) {
    var node = JSON.objectNode();
    if (description != null) {
      node.put("description", description);
    }
    node.put("x-kubernetes-preserve-unknown-fields", true);
    return node;
  }

  private static String lowerFirst(String text) {
    return Character.toLowerCase(text.charAt(0)) + text.substring(1);
  }
}
