package dev.versio.cli.offline;

import com.fasterxml.jackson.databind.JsonNode;
import dev.versio.engine.FieldPath;
import java.util.ArrayList;
import java.util.List;

/**
 * Which rules the samples exercised: a rule counts when some object at the hub has a value at one
 * of its hub paths, or some object at its spoke's version has a value at one of its spoke paths. A
 * rule never exercised is untested: {@code --strict} (or {@code --fail-on warn}) fails on it.
 */
final class RuleCoverage {
  private RuleCoverage() {}

  /**
   * One rule and whether any sample exercised it.
   *
   * @param insideOpaque whether the rule converts fields inside one the schemas leave opaque: then
   *     only samples check it, and a run in which none exercises it fails
   */
  record RuleUse(
      String spoke, int index, String strategy, boolean exercised, boolean insideOpaque) {
    String id() {
      return spoke + " rules[" + index + "] " + strategy;
    }
  }

  static List<RuleUse> of(Analysis analysis, List<SampleTester.Seen> seen) {
    var hub = analysis.parsed().hubVersion();
    var out = new ArrayList<RuleUse>();
    for (var spoke : analysis.report().spokes()) {
      for (var rule : spoke.ruleResults()) {
        boolean exercised;
        if (rule.hubPaths().isEmpty() && rule.spokePaths().isEmpty()) {
          exercised = seen.stream().anyMatch(s -> s.version().equals(spoke.version()));
        } else {
          exercised =
              seen.stream()
                  .anyMatch(
                      s ->
                          s.version().equals(hub) && anyPresent(s.object(), rule.hubPaths())
                              || s.version().equals(spoke.version())
                                  && anyPresent(s.object(), rule.spokePaths()));
        }
        boolean inside =
            java.util.stream.Stream.concat(rule.hubPaths().stream(), rule.spokePaths().stream())
                .anyMatch(p -> spoke.opaque().stream().anyMatch(o -> p.startsWith(o + ".")));
        out.add(
            new RuleUse(
                spoke.version(), rule.index(), rule.strategy().wireName(), exercised, inside));
      }
    }
    return out;
  }

  private static boolean anyPresent(JsonNode object, List<String> paths) {
    for (var p : paths) {
      List<String> segments;
      try {
        segments = FieldPath.parse(p).segments();
      } catch (IllegalArgumentException e) {
        return true; // a path this check cannot follow is not reported as unexercised
      }
      if (present(object, segments, 0)) {
        return true;
      }
    }
    return false;
  }

  private static boolean present(JsonNode node, List<String> segments, int at) {
    if (node == null || node.isMissingNode() || node.isNull()) {
      return false;
    }
    if (at == segments.size()) {
      return true;
    }
    var segment = segments.get(at);
    if (segment.equals(FieldPath.ITEMS)) {
      if (!node.isArray()) {
        return false;
      }
      for (var element : node) {
        if (present(element, segments, at + 1)) {
          return true;
        }
      }
      return false;
    }
    return present(node.get(segment), segments, at + 1);
  }
}
