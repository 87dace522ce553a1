package dev.versio.cli.offline;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.versio.engine.diagnostic.Diagnostic;
import dev.versio.engine.json.EngineJson;
import java.util.List;

/**
 * Everything {@code versio test} found, whatever the output format: the path results, rule
 * coverage, what the schemas say about each object, the documents skipped, and (when the config
 * does not compile, or an input cannot be read) why nothing was tested.
 *
 * @param hubVersion null when the config did not parse
 * @param problem why nothing was tested (an unreadable input), or null
 * @param configErrors the config's errors; when any, nothing was tested
 */
record TestReport(
    String resource,
    String config,
    String hubVersion,
    String problem,
    List<Diagnostic> configErrors,
    List<TestCommand.PathResult> paths,
    List<RuleCoverage.RuleUse> coverage,
    List<SampleTester.SchemaIssue> schema,
    List<Inputs.Skipped> skipped,
    boolean strict) {

  TestReport {
    configErrors = List.copyOf(configErrors);
    paths = List.copyOf(paths);
    coverage = List.copyOf(coverage);
    schema = List.copyOf(schema);
    skipped = List.copyOf(skipped);
  }

  /** A report that says why nothing could be tested. */
  static TestReport notRun(
      String resource, String config, String problem, List<Diagnostic> configErrors) {
    return new TestReport(
        resource,
        config,
        null,
        problem,
        configErrors,
        List.of(),
        List.of(),
        List.of(),
        List.of(),
        false);
  }

  boolean ran() {
    return problem == null && configErrors.isEmpty();
  }

  long count(String result) {
    return paths.stream().filter(r -> r.result().equals(result)).count();
  }

  /** Rules inside opaque fields that no sample exercised: nothing else checks them. */
  List<RuleCoverage.RuleUse> uncheckedInsideOpaque() {
    return unexercised().stream().filter(RuleCoverage.RuleUse::insideOpaque).toList();
  }

  List<RuleCoverage.RuleUse> unexercised() {
    return coverage.stream().filter(u -> !u.exercised()).toList();
  }

  /** The JSON (and YAML) form; its fields are documented in docs/cli.md. */
  ObjectNode toJson() {
    var o = EngineJson.nodes().objectNode();
    o.put("resource", resource);
    o.put("config", config);
    o.put("hubVersion", hubVersion);
    o.put("tested", ran());
    if (problem != null) {
      o.put("error", problem);
    }
    o.set("configErrors", Output.diagnostics(configErrors));
    var summary = o.putObject("summary");
    summary.put("paths", paths.size());
    for (var kind : new String[] {"pass", "loss", "fail", "error"}) {
      summary.put(kind, count(kind));
    }
    summary.put("unexercisedRules", unexercised().size());
    summary.put("uncheckedRulesInsideOpaqueFields", uncheckedInsideOpaque().size());
    summary.put("schemaFindings", schema.size());
    summary.put("skippedDocuments", skipped.size());
    var results = o.putArray("paths");
    for (var r : paths) {
      var p = results.addObject();
      p.put("file", r.sample().file() == null ? null : new InputFile(r.sample().file()).label());
      p.put("namespace", r.sample().object().path("metadata").path("namespace").asText(null));
      p.put("name", r.sample().object().path("metadata").path("name").asText(null));
      p.put("from", r.from());
      p.put("to", r.to());
      p.put("result", r.result());
      r.lost().forEach(p.withArray("unacknowledgedLoss")::add);
      r.acknowledged().forEach(p.withArray("acknowledgedLoss")::add);
      if (!r.changes().isEmpty()) {
        var changes = p.putArray("changes");
        for (var c : r.changes()) {
          changes
              .addObject()
              .put("path", c.path())
              .put("change", c.added() ? "added" : "lost")
              .put("rule", c.rule());
        }
      }
      r.rejected().forEach(p.withArray("rejected")::add);
      if (r.error() != null) {
        p.put("error", r.error());
      }
    }
    var rules = o.putArray("ruleCoverage");
    for (var u : coverage) {
      rules
          .addObject()
          .put("spoke", u.spoke())
          .put("rule", u.index())
          .put("strategy", u.strategy())
          .put("exercised", u.exercised())
          .put("insideOpaque", u.insideOpaque());
    }
    var findings = o.putArray("schemaFindings");
    for (var s : schema) {
      var f = findings.addObject();
      f.put("file", s.sample().file() == null ? null : new InputFile(s.sample().file()).label());
      f.put("name", s.sample().name());
      f.put("version", s.version());
      f.put("convertedFrom", s.from());
      f.put("path", s.finding().path());
      f.put("problem", s.finding().problem().name());
      f.put("message", s.finding().message());
    }
    var skippedDocs = o.putArray("skipped");
    for (var s : skipped) {
      skippedDocs
          .addObject()
          .put("file", new InputFile(s.file()).label())
          .put("document", s.document())
          .put("line", s.line())
          .put("item", s.item())
          .put("reason", s.reason());
    }
    o.put("strict", strict);
    return o;
  }
}
