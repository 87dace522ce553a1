package dev.versio.engine.runtime;

/**
 * Where an op comes from, for error messages.
 *
 * @param spoke the spoke version of the plan
 * @param rule the rule location, e.g. {@code rules[2]} or {@code rules[1].forEach.rules[0]}; empty
 *     for auto-covered fields and passthrough
 * @param strategy the strategy wire name, or {@code identity}/{@code passthrough}
 * @param path the path the op works on
 */
public record Origin(String spoke, String rule, String strategy, String path) {
  String describe(String direction) {
    var sb = new StringBuilder("spoke ").append(spoke).append(", ").append(direction);
    if (!rule.isEmpty()) {
      sb.append(", ").append(rule);
    }
    sb.append(" (").append(strategy).append(')');
    if (path != null && !path.isEmpty()) {
      sb.append(" at ").append(path);
    }
    return sb.toString();
  }
}
