package dev.versio.engine.rule;

import java.util.List;
import java.util.Objects;

/** The rules that convert between the hub and one spoke version. */
public record SpokeRules(String version, List<Rule> rules) {
  public SpokeRules {
    Objects.requireNonNull(version, "version");
    rules = List.copyOf(rules);
  }
}
