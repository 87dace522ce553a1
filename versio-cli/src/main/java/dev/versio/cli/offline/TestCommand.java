package dev.versio.cli.offline;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.versio.cli.live.ClusterOptions;
import dev.versio.cli.live.Fleet;
import dev.versio.cli.live.LiveObjects;
import dev.versio.cli.live.ProgressLine;
import dev.versio.engine.json.EngineJson;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code versio test}: every sample through every other served version and back; a field that does
 * not come back is an acknowledged loss when a rule that claims it (or an ancestor) is lossy and
 * acknowledged, and a failure otherwise.
 */
@Command(
    name = "test",
    mixinStandardHelpOptions = true,
    description = {
      "Round-trip every sample through every other served version (via the hub) and back, and report each"
          + " path as pass, loss (acknowledged by a lossy rule), fail (unacknowledged loss, naming the field) or error."
    },
    footerHeading = "%nExample:%n",
    footer = {
      "  versio test -c config.yaml --crd crd.yaml -s samples/",
      "",
      "Exit codes: 0 passed per --fail-on, 1 loss or errors found, 2 unreadable files, bad flags or an invalid config."
    })
public final class TestCommand implements Callable<Integer> {
  @Mixin TargetOptions options;

  @Option(
      names = {"-s", "--samples"},
      paramLabel = "PATH",
      description = "A sample file, or a folder of them (or --live).")
  Path samples;

  @Option(
      names = "--live",
      description =
          "Take the samples from every existing object of the target in the cluster, read at its"
              + " storage version page by page; the schema comes from the cluster unless --crd/--xrd"
              + " is given.")
  boolean live;

  @Mixin ClusterOptions cluster;

  @Mixin Fleet fleet;

  private PrintWriter out;

  @Option(
      names = "--page-size",
      defaultValue = "500",
      description = "Objects per list page with --live (default: ${DEFAULT-VALUE}).")
  int pageSize;

  @Option(
      names = "--fail-on",
      defaultValue = "loss",
      description =
          "loss: fail on unacknowledged loss or errors; warn: also on rules no sample exercised;"
              + " none: report only (default: ${DEFAULT-VALUE}).")
  String failOn;

  @Option(
      names = "--strict",
      description = "Fail when a rule was never exercised by any sample (same as --fail-on warn).")
  boolean strict;

  @Option(
      names = "--concurrency",
      defaultValue = "1",
      description =
          "Samples tested in parallel; 0 = one per CPU. Output keeps the sample order (default:"
              + " ${DEFAULT-VALUE}).")
  int concurrency;

  @Option(
      names = {"-q", "--quiet"},
      description = "No progress line on stderr (it is only drawn on a terminal).")
  boolean quiet;

  @Option(names = "--skip-identity", description = "Do not report a sample's own version.")
  boolean skipIdentity;

  @Option(
      names = "--version-pair",
      paramLabel = "FROM:TO",
      description =
          "Test only these paths (repeatable), e.g. --version-pair v1alpha1:v1; default: every pair.")
  List<String> versionPairs = List.of();

  @Option(
      names = {"-o", "--output"},
      defaultValue = "table",
      description =
          "table, json, or junit (JUnit XML, one test case per path, for CI test reports) (default: ${DEFAULT-VALUE}).")
  TestReportFormat output;

  @Spec CommandSpec spec;

  /** One tested path. */
  record PathResult(
      Inputs.Sample sample,
      String from,
      String to,
      String result,
      List<String> lost,
      List<String> acknowledged,
      String error) {}

  @Override
  public Integer call() {
    if (!List.of("loss", "warn", "none").contains(failOn)) {
      throw new LoadError("--fail-on must be loss, warn or none, not '" + failOn + "'");
    }
    if (concurrency < 0) {
      throw new LoadError("--concurrency must be 0 (one per CPU) or positive, not " + concurrency);
    }
    if ((samples == null) != live) {
      throw new LoadError("pass either -s/--samples PATH or --live (not both, not neither)");
    }
    if (pageSize < 1) {
      throw new LoadError("--page-size must be positive, not " + pageSize);
    }
    out = spec.commandLine().getOut();
    if (!live && fleet.requested()) {
      throw new LoadError("--contexts and --kubeconfig-dir need --live");
    }
    var config = options.loadConfig();
    if (!live) {
      return test(config, options.requireTarget(config), Inputs.samples(samples));
    }
    var clusters = fleet.clusters(cluster);
    if (clusters.size() == 1 && !fleet.requested()) {
      return testLive(config, clusters.getFirst());
    }
    return testFleet(config, clusters);
  }

  private int testLive(Inputs.Config config, Fleet.Cluster where) {
    try (var client = where.client()) {
      var objects = new LiveObjects(client);
      var target = options.loadTarget(config);
      if (target == null) {
        target = objects.definition(config);
      }
      var found = objects.all(target, pageSize);
      if (found.isEmpty()) {
        if (output == TestReportFormat.JSON) {
          var o = EngineJson.nodes().objectNode();
          o.put("resource", target.name());
          o.put("config", config.name());
          o.putObject("summary").put("paths", 0);
          o.putArray("paths");
          Output.json(out, o);
        } else {
          out.println("there are no " + target.name() + " objects in the cluster; nothing to test");
        }
        return 0;
      }
      return test(config, target, found);
    }
  }

  /**
   * One live run per cluster; a cluster that cannot be reached or read fails the fleet whatever
   * --fail-on says, since its objects went untested.
   */
  private int testFleet(Inputs.Config config, List<Fleet.Cluster> clusters) {
    if (output == TestReportFormat.JUNIT) {
      throw new LoadError(
          "-o junit covers one cluster; run one --context at a time, or use -o json");
    }
    var fleetOut = out;
    var reports = EngineJson.nodes().arrayNode();
    int failed = 0;
    for (var where : clusters) {
      var buffer = new java.io.StringWriter();
      out = output == TestReportFormat.JSON ? new PrintWriter(buffer) : fleetOut;
      if (output == TestReportFormat.TABLE) {
        out.println("=== " + where.label() + " ===");
      }
      int code;
      String error = null;
      try {
        code = testLive(config, where);
      } catch (RuntimeException e) {
        code = 1;
        error = e.getMessage();
        if (output == TestReportFormat.TABLE) {
          Output.wrap(out, "error: " + error, "  ");
        }
      }
      out.flush();
      if (code != 0) {
        failed++;
      }
      if (output == TestReportFormat.JSON) {
        var entry = reports.addObject().put("label", where.label()).put("exitCode", code);
        entry.put("error", error);
        if (error == null) {
          try {
            entry.set("report", EngineJson.newMapper().readTree(buffer.toString()));
          } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("the report of " + where.label() + " is not JSON", e);
          }
        }
      }
    }
    out = fleetOut;
    if (output == TestReportFormat.JSON) {
      var o = EngineJson.nodes().objectNode();
      o.set("clusters", reports);
      o.put("failed", failed);
      Output.json(out, o);
    } else {
      out.printf("FLEET: %d cluster(s), %d failed%n", clusters.size(), failed);
    }
    return failed == 0 ? 0 : 1;
  }

  private int test(Inputs.Config config, Inputs.Target target, List<Inputs.Sample> found) {
    var analysis = Analysis.of(config, target);
    var err = spec.commandLine().getErr();
    if (!analysis.valid()) {
      err.println(
          "the config is invalid against "
              + analysis.target().name()
              + "; cannot test conversions:");
      analysis.diagnostics().stream().filter(d -> d.isError()).forEach(d -> Output.text(err, d));
      return 2;
    }
    var pairs = VersionPairs.parse(versionPairs, versions(analysis));
    var router = analysis.router();
    var versions = versions(analysis);
    var all =
        found.stream()
            .filter(
                s ->
                    s.object().path("kind").asText().equals(target.kind())
                        && s.group().equals(target.group()))
            .toList();
    if (all.isEmpty()) {
      throw new LoadError(
          "no "
              + target.kind()
              + " objects of group "
              + target.group()
              + " in "
              + (live ? "the cluster" : samples));
    }
    var tester = new SampleTester(analysis, router, versions, pairs, skipIdentity);
    var results = new ArrayList<PathResult>();
    var seen = new ArrayList<SampleTester.Seen>();
    var progress = new ProgressLine(err, quiet, "tested");
    int threads = concurrency == 0 ? Runtime.getRuntime().availableProcessors() : concurrency;
    try (var pool = Executors.newFixedThreadPool(threads)) {
      var outcomes = all.stream().map(sample -> pool.submit(() -> tester.test(sample))).toList();
      int done = 0;
      for (var outcome : outcomes) {
        var o = outcome.get();
        results.addAll(o.paths());
        seen.addAll(o.seen());
        progress.update(++done, all.size());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while testing samples", e);
    } catch (ExecutionException e) {
      throw new IllegalStateException("testing a sample failed: " + e.getCause(), e.getCause());
    } finally {
      progress.finish();
    }
    var coverage = RuleCoverage.of(analysis, seen);
    if (results.isEmpty() && pairs.restricted()) {
      throw new LoadError(
          "no sample is at the FROM version of " + versionPairs + "; add samples at that version");
    }
    int fail = count(results, "fail");
    int error = count(results, "error");
    switch (output) {
      case JSON -> json(analysis, results, coverage);
      case JUNIT -> JUnitReport.write(out, target.name(), results);
      case TABLE -> table(results, coverage);
    }
    boolean unexercised = coverage.stream().anyMatch(u -> !u.exercised());
    if (failOn.equals("none")) {
      return 0;
    }
    if (fail + error > 0) {
      return 1;
    }
    return (strict || failOn.equals("warn")) && unexercised ? 1 : 0;
  }

  private static List<String> versions(Analysis analysis) {
    var versions = new ArrayList<String>();
    versions.add(analysis.parsed().hubVersion());
    analysis.report().spokes().forEach(s -> versions.add(s.version()));
    return versions;
  }

  private void table(List<PathResult> results, List<RuleCoverage.RuleUse> coverage) {
    out.printf("%-40s %-18s %s%n", "SAMPLE", "PATH", "RESULT");
    for (var r : results) {
      var name = r.sample().label();
      out.printf(
          "%-40s %-18s %s%n",
          abbreviate(name, 40), r.from() + "->" + r.to(), r.result().toUpperCase());
      r.lost().forEach(p -> Output.wrap(out, "    lost (not acknowledged): " + p, "      "));
      r.acknowledged().forEach(p -> Output.wrap(out, "    acknowledged loss: " + p, "      "));
      if (r.error() != null) {
        Output.wrap(out, "    error: " + r.error(), "      ");
      }
    }
    var unexercised = coverage.stream().filter(u -> !u.exercised()).toList();
    if (!unexercised.isEmpty()) {
      out.println("RULES NOT EXERCISED by any sample (add samples that set their fields):");
      unexercised.forEach(u -> Output.wrap(out, "  " + u.id(), "    "));
    }
    out.printf(
        "SUMMARY: %d paths: %d pass, %d loss (acknowledged), %d fail (unacknowledged loss), %d error%n",
        results.size(),
        count(results, "pass"),
        count(results, "loss"),
        count(results, "fail"),
        count(results, "error"));
  }

  private void json(
      Analysis analysis, List<PathResult> results, List<RuleCoverage.RuleUse> coverage) {
    var o = EngineJson.nodes().objectNode();
    o.put("resource", analysis.target().name());
    o.put("config", analysis.config().name());
    o.put("hubVersion", analysis.parsed().hubVersion());
    var summary = o.putObject("summary");
    summary.put("paths", results.size());
    for (var kind : new String[] {"pass", "loss", "fail", "error"}) {
      summary.put(kind, count(results, kind));
    }
    var paths = o.putArray("paths");
    for (var r : results) {
      ObjectNode p = paths.addObject();
      p.put("file", r.sample().file() == null ? null : r.sample().file().toString());
      p.put("namespace", r.sample().object().path("metadata").path("namespace").asText(null));
      p.put("name", r.sample().object().path("metadata").path("name").asText(null));
      p.put("from", r.from());
      p.put("to", r.to());
      p.put("result", r.result());
      r.lost().forEach(p.withArray("unacknowledgedLoss")::add);
      r.acknowledged().forEach(p.withArray("acknowledgedLoss")::add);
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
          .put("exercised", u.exercised());
    }
    Output.json(out, o);
  }

  private static int count(List<PathResult> results, String kind) {
    return (int) results.stream().filter(r -> r.result().equals(kind)).count();
  }

  private static String abbreviate(String s, int n) {
    return s.length() <= n ? s : "..." + s.substring(s.length() - n + 3);
  }
}
