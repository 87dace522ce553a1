package dev.versio.engine.diagnostic;

import java.util.List;
import java.util.Objects;

/**
 * One finding about a config.
 *
 * @param code stable code
 * @param severity error or warning
 * @param spoke the spoke version it concerns, or null for config-wide findings
 * @param rule where the rule sits: top-level index first, then the index inside each {@code
 *     forEach}; empty when no rule is concerned
 * @param path the field path concerned, or null
 * @param message what is wrong, naming the rule, strategy and field
 * @param hint what to change, naming the rule that would fix it; may be null
 */
public record Diagnostic(
    DiagnosticCode code,
    Severity severity,
    String spoke,
    List<Integer> rule,
    String path,
    String message,
    String hint) {
  public Diagnostic {
    Objects.requireNonNull(code, "code");
    Objects.requireNonNull(severity, "severity");
    Objects.requireNonNull(message, "message");
    rule = List.copyOf(rule);
  }

  /** The top-level rule index, or -1 when no rule is concerned. */
  public int ruleIndex() {
    return rule.isEmpty() ? -1 : rule.getFirst();
  }

  /** Where the rule sits as text: {@code rules[2]} or {@code rules[2].forEach.rules[0]}. */
  public String ruleLocation() {
    return location(rule);
  }

  /** {@code rules[2].forEach.rules[0]} for {@code [2, 0]}; empty for no rule. */
  public static String location(List<Integer> rule) {
    if (rule.isEmpty()) {
      return "";
    }
    var sb = new StringBuilder("rules[").append(rule.getFirst()).append(']');
    for (int i = 1; i < rule.size(); i++) {
      sb.append(".forEach.rules[").append(rule.get(i)).append(']');
    }
    return sb.toString();
  }

  public boolean isError() {
    return severity == Severity.ERROR;
  }

  /** One line for humans: {@code ERROR spoke v1 rules[2]: message (hint: ...)}. */
  @Override
  public String toString() {
    var sb = new StringBuilder(severity.name()).append(' ').append(code);
    if (spoke != null) {
      sb.append(" spoke ").append(spoke);
    }
    if (!rule.isEmpty()) {
      sb.append(' ').append(ruleLocation());
    }
    sb.append(": ").append(message);
    if (hint != null) {
      sb.append(" (hint: ").append(hint).append(')');
    }
    return sb.toString();
  }
}
