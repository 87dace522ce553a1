package dev.versio.cli.offline;

import dev.versio.engine.compile.RuleResult;
import dev.versio.engine.compile.SpokeReport;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * What changes between two analysed configs of the same target, spoke by spoke: lossless verdicts,
 * claims (rules by strategy and paths), coverage gaps, and what the compiled plans do differently
 * with the same objects.
 */
record ConfigDiff(String hubBefore, String hubAfter, List<SpokeDelta> spokes) {
  ConfigDiff {
    spokes = List.copyOf(spokes);
  }

  /**
   * One spoke's changes; {@code before}/{@code after} verdicts are null when the spoke is absent.
   */
  record SpokeDelta(
      String version,
      String verdictBefore,
      String verdictAfter,
      List<String> claimsAdded,
      List<String> claimsRemoved,
      List<String> uncoveredAdded,
      List<String> uncoveredRemoved,
      int errorsBefore,
      int errorsAfter,
      List<BehaviourDiff.Direction> behaviour) {
    SpokeDelta {
      behaviour = List.copyOf(behaviour);
      claimsAdded = List.copyOf(claimsAdded);
      claimsRemoved = List.copyOf(claimsRemoved);
      uncoveredAdded = List.copyOf(uncoveredAdded);
      uncoveredRemoved = List.copyOf(uncoveredRemoved);
    }

    boolean unchanged() {
      return Objects.equals(verdictBefore, verdictAfter)
          && claimsAdded.isEmpty()
          && claimsRemoved.isEmpty()
          && uncoveredAdded.isEmpty()
          && uncoveredRemoved.isEmpty()
          && errorsBefore == errorsAfter
          && behaviour.isEmpty();
    }

    /** A direction that was lossless before is lossy now, or the spoke now has errors. */
    boolean worse() {
      return errorsAfter > errorsBefore
          || behaviour.stream().anyMatch(BehaviourDiff.Direction::worse)
          || verdictBefore != null
              && verdictAfter != null
              && (verdictBefore.charAt(0) == 'L' && verdictAfter.charAt(0) != 'L'
                  || verdictBefore.charAt(1) == 'L' && verdictAfter.charAt(1) != 'L');
    }
  }

  boolean unchanged() {
    return hubBefore.equals(hubAfter) && spokes.stream().allMatch(SpokeDelta::unchanged);
  }

  boolean worse() {
    return spokes.stream().anyMatch(SpokeDelta::worse);
  }

  static ConfigDiff of(Analysis before, Analysis after) {
    var versions = new LinkedHashSet<String>();
    before.report().spokes().forEach(s -> versions.add(s.version()));
    after.report().spokes().forEach(s -> versions.add(s.version()));
    var spokes = new ArrayList<SpokeDelta>();
    for (var version : versions) {
      var b = spoke(before, version);
      var a = spoke(after, version);
      var claimsBefore = claims(b);
      var claimsAfter = claims(a);
      var uncoveredBefore = uncovered(b);
      var uncoveredAfter = uncovered(a);
      spokes.add(
          new SpokeDelta(
              version,
              verdict(b),
              verdict(a),
              minus(claimsAfter, claimsBefore),
              minus(claimsBefore, claimsAfter),
              minus(uncoveredAfter, uncoveredBefore),
              minus(uncoveredBefore, uncoveredAfter),
              errors(b),
              errors(a),
              behaviour(before, b, a)));
    }
    return new ConfigDiff(before.parsed().hubVersion(), after.parsed().hubVersion(), spokes);
  }

  /** What the two plans of a spoke do differently, when both compile. */
  private static List<BehaviourDiff.Direction> behaviour(
      Analysis analysis, SpokeReport before, SpokeReport after) {
    if (before == null || after == null || before.plan().isEmpty() || after.plan().isEmpty()) {
      return List.of();
    }
    var schemas = new java.util.HashMap<String, dev.versio.engine.schema.SchemaNode>();
    analysis.target().source().versions().forEach(v -> schemas.put(v.name(), v.schema()));
    var hub = schemas.get(analysis.parsed().hubVersion());
    var spoke = schemas.get(before.version());
    if (hub == null || spoke == null) {
      return List.of();
    }
    return BehaviourDiff.of(before.plan().get(), after.plan().get(), hub, spoke);
  }

  private static SpokeReport spoke(Analysis analysis, String version) {
    return analysis.report().spokes().stream()
        .filter(s -> s.version().equals(version))
        .findFirst()
        .orElse(null);
  }

  /**
   * Two letters, hub-to-spoke then spoke-to-hub: {@code L} lossless, {@code x} lossy; null when the
   * spoke is absent.
   */
  private static String verdict(SpokeReport s) {
    if (s == null) {
      return null;
    }
    return (s.lossless().hubToSpoke() ? "L" : "x") + (s.lossless().spokeToHub() ? "L" : "x");
  }

  private static Set<String> claims(SpokeReport s) {
    var out = new LinkedHashSet<String>();
    if (s != null) {
      for (RuleResult r : s.ruleResults()) {
        var hub = r.hubPaths().isEmpty() ? "" : " hub " + String.join(",", r.hubPaths());
        var spoke = r.spokePaths().isEmpty() ? "" : " spoke " + String.join(",", r.spokePaths());
        out.add(
            r.strategy().wireName()
                + hub
                + (hub.isEmpty() || spoke.isEmpty() ? "" : " <->")
                + spoke
                + (r.lossless().lossless()
                    ? ""
                    : r.acknowledged() ? " (lossy, acknowledged)" : " (lossy)"));
      }
    }
    return out;
  }

  private static Set<String> uncovered(SpokeReport s) {
    var out = new LinkedHashSet<String>();
    if (s != null) {
      s.uncoveredHub().forEach(p -> out.add("hub " + p));
      s.uncoveredSpoke().forEach(p -> out.add("spoke " + p));
    }
    return out;
  }

  private static int errors(SpokeReport s) {
    return s == null ? 0 : (int) s.diagnostics().stream().filter(d -> d.isError()).count();
  }

  private static List<String> minus(Set<String> a, Set<String> b) {
    return a.stream().filter(x -> !b.contains(x)).toList();
  }
}
