package dev.versio.engine.runtime;

import dev.versio.engine.FieldPath;

/**
 * Where an op comes from, for error messages. Kept small: it is retained once per compiled rule.
 *
 * @param spoke the spoke version of the plan
 * @param parent the enclosing {@code forEach} rule, or null at the top level
 * @param rule the rule's index in its list, or -1 for auto-covered fields and passthrough
 * @param strategy the strategy wire name, or {@code identity}/{@code passthrough}
 * @param path the path the op works on (relative to the element inside forEach), or null
 */
public record Origin(String spoke, Origin parent, int rule, String strategy, FieldPath path) {

  /** The rule location, e.g. {@code rules[1].forEach.rules[0]}; empty when no rule is concerned. */
  public String location() {
    if (rule < 0) {
      return parent == null ? "" : parent.location();
    }
    var own = "rules[" + rule + "]";
    return parent == null ? own : parent.location() + ".forEach." + own;
  }

  String describe(String direction) {
    var sb = new StringBuilder("spoke ").append(spoke).append(", ").append(direction);
    var location = location();
    if (!location.isEmpty()) {
      sb.append(", ").append(location);
    }
    sb.append(" (").append(strategy).append(')');
    if (path != null && !path.isRoot()) {
      sb.append(" at ").append(path);
    }
    return sb.toString();
  }
}
