package dev.versio.cli.offline;

import com.fasterxml.jackson.databind.JsonNode;
import dev.versio.engine.compile.SpokeReport;
import dev.versio.engine.route.Router;
import dev.versio.engine.runtime.ConversionException;
import dev.versio.engine.schema.SchemaConformance;
import dev.versio.engine.schema.SchemaNode;
import dev.versio.engine.schema.SchemaPruning;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Round-trips one sample through every selected version and back. Thread-safe: the router and the
 * analysis are immutable, so {@code versio test --concurrency} shares one tester.
 */
final class SampleTester {
  /** An object as some version saw it during the test, for rule coverage. */
  record Seen(String version, JsonNode object) {}

  /**
   * What the apiserver would say about one object the test read or produced: the sample itself
   * ({@code from} null) or its conversion from {@code from} to {@code version}.
   */
  record SchemaIssue(
      Inputs.Sample sample, String version, String from, SchemaConformance.Finding finding) {
    /** {@code sample} or {@code converted from v1}. */
    String object() {
      return from == null ? "sample" : "converted from " + from;
    }
  }

  /** Every path tested for one sample, every form of it produced, and what its schemas say. */
  record Outcome(List<TestCommand.PathResult> paths, List<Seen> seen, List<SchemaIssue> schema) {
    Outcome {
      paths = List.copyOf(paths);
      seen = List.copyOf(seen);
      schema = List.copyOf(schema);
    }
  }

  private final Analysis analysis;
  private final Router router;
  private final List<String> versions;
  private final VersionPairs pairs;
  private final boolean skipIdentity;
  private final Map<String, SchemaNode> schemas = new HashMap<>();

  SampleTester(
      Analysis analysis, Router router, List<String> versions, VersionPairs pairs, boolean skip) {
    this.analysis = analysis;
    this.router = router;
    this.versions = List.copyOf(versions);
    this.pairs = pairs;
    this.skipIdentity = skip;
    for (var v : analysis.target().source().versions()) {
      schemas.put(v.name(), v.schema());
    }
  }

  Outcome test(Inputs.Sample sample) {
    var results = new ArrayList<TestCommand.PathResult>();
    var seen = new ArrayList<Seen>();
    var schema = new ArrayList<SchemaIssue>();
    var from = sample.version();
    if (!versions.contains(from)) {
      results.add(
          new TestCommand.PathResult(
              sample,
              from,
              from,
              "error",
              List.of(),
              List.of(),
              "the sample is at " + from + " but the config converts only " + versions));
      return new Outcome(results, seen, schema);
    }
    conformance(sample, sample.object(), from, null, schema);
    // a sample the apiserver would reject carries its faults into every version: they are its
    // findings (failing under --strict), not the conversion's
    boolean sampleRejected =
        schema.stream().anyMatch(i -> i.finding().problem() != SchemaConformance.Problem.PRUNED);
    // what the apiserver would store of the sample is what a round trip has to bring back
    var stored = stored(sample.object(), from);
    seen.add(new Seen(from, stored));
    var hub = analysis.parsed().hubVersion();
    if (!from.equals(hub)) {
      try {
        seen.add(new Seen(hub, router.convert(stored, from, hub)));
      } catch (ConversionException e) {
        // reported by the paths below
      }
    }
    for (var to : versions) {
      if (!pairs.includes(from, to)) {
        continue;
      }
      if (to.equals(from)) {
        if (!skipIdentity) {
          results.add(
              new TestCommand.PathResult(sample, from, to, "pass", List.of(), List.of(), null));
        }
        continue;
      }
      results.add(roundTrip(sample, stored, from, to, sampleRejected, seen, schema));
    }
    return new Outcome(results, seen, schema);
  }

  /** {@code object} at {@code version} as the apiserver would store it. */
  private JsonNode stored(JsonNode object, String version) {
    var schema = schemas.get(version);
    if (schema == null) {
      return object;
    }
    var stored = SchemaPruning.prune(object, schema);
    if (analysis.config().xrd()) {
      CrossplaneFields.keep(object, stored);
    }
    return stored;
  }

  private void conformance(
      Inputs.Sample sample,
      JsonNode object,
      String version,
      String from,
      List<SchemaIssue> issues) {
    var schema = schemas.get(version);
    if (schema == null) {
      return;
    }
    for (var finding : SchemaConformance.check(object, schema)) {
      if (analysis.config().xrd() && CrossplaneFields.owned(finding.path())) {
        continue;
      }
      issues.add(new SchemaIssue(sample, version, from, finding));
    }
  }

  private TestCommand.PathResult roundTrip(
      Inputs.Sample sample,
      JsonNode original,
      String from,
      String to,
      boolean sampleRejected,
      List<Seen> seen,
      List<SchemaIssue> schema) {
    try {
      var there = router.convert(original, from, to);
      var findings = new ArrayList<SchemaIssue>();
      conformance(sample, there, to, from, findings);
      var rejected = new ArrayList<String>();
      for (var issue : findings) {
        if (sampleRejected || issue.finding().problem() == SchemaConformance.Problem.PRUNED) {
          schema.add(issue);
        } else {
          rejected.add(issue.finding().message());
        }
      }
      seen.add(new Seen(to, there));
      // back from what the apiserver would store at `to`, not from what the converter wrote
      var back = router.convert(stored(there, to), to, from);
      var claims = lossyRules(from, to);
      var changes = new ArrayList<TestCommand.Change>();
      for (var diff : LeafDiff.changes(original, back)) {
        changes.add(
            new TestCommand.Change(diff.path(), diff.added(), coveringRule(diff.path(), claims)));
      }
      boolean unacknowledged = changes.stream().anyMatch(c -> c.rule() == null);
      var result =
          unacknowledged || !rejected.isEmpty() ? "fail" : !changes.isEmpty() ? "loss" : "pass";
      return new TestCommand.PathResult(sample, from, to, result, changes, rejected, null);
    } catch (ConversionException e) {
      return new TestCommand.PathResult(
          sample, from, to, "error", List.of(), List.of(), e.getMessage());
    }
  }

  /** A rule that may change what it claims: lossy, or acknowledged as such. */
  private record Claim(String rule, List<String> paths) {}

  /**
   * The rules of the spokes this route touches that are lossy or acknowledged, with their paths.
   */
  private List<Claim> lossyRules(String from, String to) {
    var claims = new ArrayList<Claim>();
    for (SpokeReport spoke : analysis.report().spokes()) {
      if (!spoke.version().equals(from) && !spoke.version().equals(to)) {
        continue;
      }
      for (var rule : spoke.ruleResults()) {
        if (!rule.lossless().lossless() || rule.acknowledged()) {
          var paths = new ArrayList<String>(rule.hubPaths());
          paths.addAll(rule.spokePaths());
          claims.add(
              new Claim(
                  spoke.version()
                      + " rules["
                      + rule.index()
                      + "] "
                      + rule.strategy().wireName()
                      + (rule.acknowledged() ? ", acknowledged" : ""),
                  paths));
        }
      }
    }
    return claims;
  }

  /** The first lossy rule that claims {@code path} (or a field around or below it), or null. */
  private static String coveringRule(String path, List<Claim> claims) {
    var plain = path.replaceAll("\\[\\d+\\]", "");
    if (plain.startsWith("metadata.")) {
      return "metadata, not compared"; // where annotation and label rules keep values
    }
    for (var claim : claims) {
      for (var claimed : claim.paths()) {
        var c = claimed.replace("[]", "");
        if (plain.equals(c) || plain.startsWith(c + ".") || c.startsWith(plain + ".")) {
          return claim.rule();
        }
      }
    }
    return null;
  }
}
