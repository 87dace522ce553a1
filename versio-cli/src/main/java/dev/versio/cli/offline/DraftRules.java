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
    };
  }

  /**
   * The rule as two YAML lines of a spoke's {@code rules} list, each starting with {@code prefix}
   * ({@code " "}, or {@code " # "} for a rule the author has to uncomment).
   */
  static void yaml(StringBuilder y, ProposedRule rule, String prefix) {
    var key = rule.strategy().paramsKey();
    y.append(prefix).append("- strategy: ").append(rule.strategy().wireName()).append('\n');
    y.append(prefix).append("  ").append(key).append(": {");
    switch (rule) {
      case ProposedRule.Rename r -> paths(y, r.hubPath(), r.spokePath());
      case ProposedRule.Scale s ->
          paths(y, s.hubPath(), s.spokePath())
              .append(", factor: ")
              .append(s.factor().toPlainString());
      case ProposedRule.Coerce c -> y.append("path: ").append(quote(c.path()));
      case ProposedRule.Duration d -> paths(y, d.hubPath(), d.spokePath());
      case ProposedRule.Quantity q -> paths(y, q.hubPath(), q.spokePath());
    }
    y.append("}\n");
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
    }
    o.put("reason", rule.reason());
  }

  private static StringBuilder paths(StringBuilder y, String hubPath, String spokePath) {
    return y.append("hubPath: ")
        .append(quote(hubPath))
        .append(", spokePath: ")
        .append(quote(spokePath));
  }

  static String quote(String s) {
    try {
      return EngineJson.newMapper().writeValueAsString(s);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }
}
