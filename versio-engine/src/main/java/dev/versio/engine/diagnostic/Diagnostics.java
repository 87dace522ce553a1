package dev.versio.engine.diagnostic;

import java.util.ArrayList;
import java.util.List;

/**
 * Collects diagnostics for one spoke (or for the config), each tagged with the spoke and the rule
 * location currently being processed.
 */
public final class Diagnostics {
  private final String spoke;
  private final List<Integer> rule;
  private final List<Diagnostic> sink;

  private Diagnostics(String spoke, List<Integer> rule, List<Diagnostic> sink) {
    this.spoke = spoke;
    this.rule = List.copyOf(rule);
    this.sink = sink;
  }

  /** A new, empty collector for {@code spoke} (null for config-wide findings). */
  public static Diagnostics forSpoke(String spoke) {
    return new Diagnostics(spoke, List.of(), new ArrayList<>());
  }

  /**
   * The same collector, positioned at rule {@code index} (nested below the current rule, if any).
   */
  public Diagnostics atRule(int index) {
    if (rule.isEmpty()) {
      return new Diagnostics(spoke, List.of(index), sink);
    }
    var nested = new ArrayList<>(rule);
    nested.add(index);
    return new Diagnostics(spoke, nested, sink);
  }

  /** The same collector with no rule position (for coverage findings). */
  public Diagnostics withoutRule() {
    return new Diagnostics(spoke, List.of(), sink);
  }

  public String spoke() {
    return spoke;
  }

  public List<Integer> rule() {
    return rule;
  }

  /** The current rule position as text, e.g. {@code rules[1].forEach.rules[0]}. */
  public String ruleLocation() {
    return Diagnostic.location(rule);
  }

  public void error(DiagnosticCode code, String path, String message, String hint) {
    sink.add(new Diagnostic(code, Severity.ERROR, spoke, rule, path, message, hint));
  }

  public void warning(DiagnosticCode code, String path, String message, String hint) {
    sink.add(new Diagnostic(code, Severity.WARNING, spoke, rule, path, message, hint));
  }

  public void add(Diagnostic diagnostic) {
    sink.add(diagnostic);
  }

  /** How many findings were collected so far, at every rule. */
  public int size() {
    return sink.size();
  }

  /** The findings collected after the first {@code from}. */
  public List<Diagnostic> since(int from) {
    return List.copyOf(sink.subList(from, sink.size()));
  }

  public boolean hasErrors() {
    return sink.stream().anyMatch(Diagnostic::isError);
  }

  /** A snapshot of everything collected so far. */
  public List<Diagnostic> all() {
    return List.copyOf(sink);
  }
}
