package dev.versio.cli.offline;

import com.fasterxml.jackson.databind.JsonNode;
import dev.versio.engine.compile.SpokeReport;
import dev.versio.engine.route.Router;
import dev.versio.engine.runtime.ConversionException;
import dev.versio.engine.schema.SchemaConformance;
import dev.versio.engine.schema.SchemaNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
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
    seen.add(new Seen(from, sample.object()));
    var hub = analysis.parsed().hubVersion();
    if (!from.equals(hub)) {
      try {
        seen.add(new Seen(hub, router.convert(sample.object(), from, hub)));
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
      results.add(roundTrip(sample, from, to, seen, schema));
    }
    return new Outcome(results, seen, schema);
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
      Inputs.Sample sample, String from, String to, List<Seen> seen, List<SchemaIssue> schema) {
    try {
      var there = router.convert(sample.object(), from, to);
      conformance(sample, there, to, from, schema);
      seen.add(new Seen(to, there));
      var back = router.convert(there, to, from);
      var diffs = LeafDiff.paths(sample.object(), back);
      var lossy = lossyPaths(from, to);
      var acknowledged = new ArrayList<String>();
      var lost = new ArrayList<String>();
      for (var path : diffs) {
        (covered(path, lossy) ? acknowledged : lost).add(path);
      }
      var result = !lost.isEmpty() ? "fail" : !acknowledged.isEmpty() ? "loss" : "pass";
      return new TestCommand.PathResult(sample, from, to, result, lost, acknowledged, null);
    } catch (ConversionException e) {
      return new TestCommand.PathResult(
          sample, from, to, "error", List.of(), List.of(), e.getMessage());
    }
  }

  /** Paths claimed by lossy rules of the spokes this route touches. */
  private LinkedHashSet<String> lossyPaths(String from, String to) {
    var paths = new LinkedHashSet<String>();
    for (SpokeReport spoke : analysis.report().spokes()) {
      if (!spoke.version().equals(from) && !spoke.version().equals(to)) {
        continue;
      }
      for (var rule : spoke.ruleResults()) {
        if (!rule.lossless().lossless()) {
          paths.addAll(rule.hubPaths());
          paths.addAll(rule.spokePaths());
        }
      }
    }
    return paths;
  }

  private static boolean covered(String path, LinkedHashSet<String> lossy) {
    var plain = path.replaceAll("\\[\\d+\\]", "");
    for (var claimed : lossy) {
      var c = claimed.replace("[]", "");
      if (plain.equals(c)
          || plain.startsWith(c + ".")
          || c.startsWith(plain + ".")
          || plain.startsWith("metadata.")) {
        return true;
      }
    }
    return false;
  }
}
