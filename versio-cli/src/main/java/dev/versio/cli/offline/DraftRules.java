package dev.versio.cli.offline;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.versio.engine.json.EngineJson;
import dev.versio.engine.suggest.ProposedRule;
import java.math.BigDecimal;

/** Writes the rules {@code versio suggest} proposes, as config YAML or as data. */
final class DraftRules {
  private DraftRules() {}

  /** The review comment's opening words: what kind of change the rule answers. */
  static String headline(ProposedRule rule) {
    return switch (rule) {
      case ProposedRule.Rename r -> "looks renamed";
      case ProposedRule.Scale s -> "unit changed";
      case ProposedRule.Coerce c -> "type changed";
      case ProposedRule.Duration d -> "duration text and seconds";
      case ProposedRule.Quantity q -> "quantity text and milli-units";
      case ProposedRule.Singleton s -> "list of one";
      case ProposedRule.EnumChange e -> "enum values changed";
    };
  }

  /**
   * The rule as YAML lines of a spoke's {@code rules} list (two, or one per enum pair more), each
   * starting with {@code prefix} ({@code " "}, or {@code " # "} for a rule the author has to
   * uncomment).
   */
  static void yaml(StringBuilder y, ProposedRule rule, String prefix) {
    var key = rule.strategy().paramsKey();
    y.append(prefix).append("- strategy: ").append(rule.strategy().wireName()).append('\n');
    if (rule instanceof ProposedRule.EnumChange e) {
      enumRemap(y, e, prefix, key);
      return;
    }
    var params = new java.util.LinkedHashMap<String, String>();
    switch (rule) {
      case ProposedRule.Rename r -> paths(params, r.hubPath(), r.spokePath());
      case ProposedRule.Scale s -> {
        paths(params, s.hubPath(), s.spokePath());
        params.put("factor", s.factor().toPlainString());
      }
      case ProposedRule.Coerce c -> params.put("path", quote(c.path()));
      case ProposedRule.Duration d -> paths(params, d.hubPath(), d.spokePath());
      case ProposedRule.Quantity q -> paths(params, q.hubPath(), q.spokePath());
      case ProposedRule.Singleton s -> {
        paths(params, s.hubPath(), s.spokePath());
        if (s.nested()) {
          params.put("nested", "true");
        }
      }
      case ProposedRule.EnumChange e -> throw new IllegalStateException("written above");
    }
    var flow = new StringBuilder(prefix).append("  ").append(key).append(": {");
    params.forEach(
        (k, v) ->
            flow.append(flow.charAt(flow.length() - 1) == '{' ? "" : ", ")
                .append(k)
                .append(": ")
                .append(v));
    flow.append('}');
    if (flow.length() <= 100) {
      y.append(flow).append('\n');
      return;
    }
    // one parameter per line, so that long paths still fit the terminal
    y.append(prefix).append("  ").append(key).append(":\n");
    params.forEach(
        (k, v) -> y.append(prefix).append("    ").append(k).append(": ").append(v).append('\n'));
  }

  /** An enum mapping in block style, one pair per line, so that a long one still fits. */
  private static void enumRemap(
      StringBuilder y, ProposedRule.EnumChange e, String prefix, String key) {
    y.append(prefix).append("  ").append(key).append(":\n");
    var inner = prefix + "    ";
    if (e.hubPath().equals(e.spokePath())) {
      y.append(inner).append("path: ").append(quote(e.hubPath())).append('\n');
    } else {
      y.append(inner).append("hubPath: ").append(quote(e.hubPath())).append('\n');
      y.append(inner).append("spokePath: ").append(quote(e.spokePath())).append('\n');
    }
    y.append(inner).append("mapping:\n");
    for (var m : e.mapping()) {
      y.append(inner)
          .append("- {hub: ")
          .append(m.hub())
          .append(", spoke: ")
          .append(m.spoke())
          .append("}\n");
    }
    if (e.dropHub()) {
      y.append(inner).append("onUnmappedHubValue: Drop\n");
    }
    if (e.dropSpoke()) {
      y.append(inner).append("onUnmappedSpokeValue: Drop\n");
    }
  }

  /** The rule as {@code {strategy, hubPath, spokePath | path, factor?, reason}}. */
  static void json(ObjectNode o, ProposedRule rule) {
    o.put("strategy", rule.strategy().wireName());
    switch (rule) {
      case ProposedRule.Rename r -> o.put("hubPath", r.hubPath()).put("spokePath", r.spokePath());
      case ProposedRule.Scale s ->
          o.put("hubPath", s.hubPath())
              .put("spokePath", s.spokePath())
              .put("factor", new BigDecimal(s.factor().toPlainString()));
      case ProposedRule.Coerce c -> o.put("path", c.path());
      case ProposedRule.Duration d -> o.put("hubPath", d.hubPath()).put("spokePath", d.spokePath());
      case ProposedRule.Quantity q -> o.put("hubPath", q.hubPath()).put("spokePath", q.spokePath());
      case ProposedRule.Singleton s ->
          o.put("hubPath", s.hubPath()).put("spokePath", s.spokePath()).put("nested", s.nested());
      case ProposedRule.EnumChange e -> {
        o.put("hubPath", e.hubPath()).put("spokePath", e.spokePath());
        var mapping = o.putArray("mapping");
        for (var m : e.mapping()) {
          var pair = mapping.addObject();
          pair.set("hub", m.hub());
          pair.set("spoke", m.spoke());
        }
        o.put("onUnmappedHubValue", e.dropHub() ? "Drop" : "Error")
            .put("onUnmappedSpokeValue", e.dropSpoke() ? "Drop" : "Error");
      }
    }
    o.put("reason", rule.reason());
  }

  private static void paths(
      java.util.Map<String, String> params, String hubPath, String spokePath) {
    params.put("hubPath", quote(hubPath));
    params.put("spokePath", quote(spokePath));
  }

  static String quote(String s) {
    try {
      return EngineJson.newMapper().writeValueAsString(s);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }
}
