package dev.versio.cli.offline;

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
          + " path as pass, loss (acknowledged by a lossy rule), fail (a change no rule accounts for, naming"
          + " the field, or an object the apiserver would reject) or error."
    },
    footerHeading = "%nExample:%n",
    footer = {
      "  versio test -c config.yaml --crd crd.yaml -s samples/",
      "",
      "Exit codes: 0 passed per --fail-on, 1 loss or errors found (with --strict also: rules no"
          + " sample exercised, objects the apiserver would prune or reject), 2 unreadable files,"
          + " bad flags or an invalid config (-o json, yaml and junit still write a report)."
    })
public final class TestCommand implements Callable<Integer> {
  @Mixin TargetOptions options;

  @Option(
      names = {"-s", "--samples"},
      paramLabel = "PATH",
      description =
          "A sample file, a folder of them, or - for standard input (or --live). A kind: List"
              + " counts as its items.")
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
      paramLabel = "N",
      description = "Objects per list page with --live (default: ${DEFAULT-VALUE}).")
  int pageSize;

  @Option(
      names = "--fail-on",
      defaultValue = "loss",
      paramLabel = "LEVEL",
      description =
          "loss: fail on unacknowledged loss or errors; warn: also on rules no sample exercised;"
              + " none: report only (default: ${DEFAULT-VALUE}).")
  FailOn failOn;

  /** What fails a run: see --fail-on. */
  enum FailOn {
    LOSS,
    WARN,
    NONE
  }

  @Option(
      names = "--strict",
      description =
          "Also fail when a rule was never exercised by any sample, or when the apiserver would"
              + " prune or reject a sample or a converted object (same as --fail-on warn).")
  boolean strict;

  @Option(
      names = "--concurrency",
      defaultValue = "1",
      paramLabel = "N",
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
      paramLabel = "FORMAT",
      description =
          "table, json, yaml, or junit (JUnit XML, one test case per path, for CI test reports)"
              + " (default: ${DEFAULT-VALUE}).")
  TestReportFormat output;

  @Spec CommandSpec spec;

  /**
   * One field the round trip changed.
   *
   * @param path where, e.g. {@code spec.pools[1].size}
   * @param added whether it came back although the sample did not have it (else it was lost or
   *     changed)
   * @param rule the lossy or acknowledged rule that claims the field ({@code v1 rules[2] CEL,
   *     acknowledged}), or null when none does: a change nobody said could happen
   */
  record Change(String path, boolean added, String rule) {
    boolean acknowledged() {
      return rule != null;
    }
  }

  /**
   * One tested path.
   *
   * @param changes every field the round trip changed, each with the rule that accounts for it
   * @param rejected why the apiserver would reject the converted object (wrong type, missing
   *     required field, value outside its enum or bounds); any makes the path fail
   */
  record PathResult(
      Inputs.Sample sample,
      String from,
      String to,
      String result,
      List<Change> changes,
      List<String> rejected,
      String error) {
    PathResult {
      changes = List.copyOf(changes);
      rejected = List.copyOf(rejected);
    }

    /** Fields lost or changed that no lossy, acknowledged rule claims. */
    List<String> lost() {
      return changes.stream()
          .filter(c -> !c.added() && !c.acknowledged())
          .map(Change::path)
          .toList();
    }

    /** Fields lost or changed under a lossy, acknowledged rule. */
    List<String> acknowledged() {
      return changes.stream()
          .filter(c -> !c.added() && c.acknowledged())
          .map(Change::path)
          .toList();
    }

    /** Fields that came back although the sample did not have them. */
    List<Change> added() {
      return changes.stream().filter(Change::added).toList();
    }
  }

  @Override
  public Integer call() {
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
    options.requireOneStdin(samples);
    try {
      var config = options.loadConfig();
      if (!live) {
        var target = options.requireTarget(config);
        return test(config, target, Inputs.samples(samples, options.limits));
      }
      var clusters = fleet.clusters(cluster);
      if (clusters.size() == 1 && !fleet.requested()) {
        return testLive(config, clusters.getFirst());
      }
      return testFleet(config, clusters);
    } catch (LoadError e) {
      // CI looks for the report file: write one that says why nothing was tested, then fail
      if (output != TestReportFormat.TABLE && !fleet.requested()) {
        render(TestReport.notRun(null, null, e.getMessage(), List.of()));
      }
      throw e;
    }
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
        if (output == TestReportFormat.TABLE) {
          out.println("there are no " + target.name() + " objects in the cluster; nothing to test");
          return 0;
        }
      }
      return test(config, target, new Inputs.SampleSet(found, List.of()));
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
    boolean structured = output == TestReportFormat.JSON || output == TestReportFormat.YAML;
    for (var where : clusters) {
      var buffer = new java.io.StringWriter();
      out = structured ? new PrintWriter(buffer) : fleetOut;
      if (!structured) {
        out.println("=== " + where.label() + " ===");
      }
      int code;
      String error = null;
      try {
        code = testLive(config, where);
      } catch (RuntimeException e) {
        code = 1;
        error = e.getMessage();
        if (!structured) {
          Output.wrap(out, "error: " + error, "  ");
        }
      }
      out.flush();
      if (code != 0) {
        failed++;
      }
      if (structured) {
        var entry = reports.addObject().put("label", where.label()).put("exitCode", code);
        entry.put("error", error);
        if (error == null) {
          entry.set("report", lastReport);
        }
      }
    }
    out = fleetOut;
    if (structured) {
      var o = EngineJson.nodes().objectNode();
      o.set("clusters", reports);
      o.put("failed", failed);
      Output.structured(out, o, output == TestReportFormat.YAML);
    } else {
      out.printf("FLEET: %d cluster(s), %d failed%n", clusters.size(), failed);
    }
    return failed == 0 ? 0 : 1;
  }

  private com.fasterxml.jackson.databind.JsonNode lastReport;

  private int test(Inputs.Config config, Inputs.Target target, Inputs.SampleSet found) {
    var analysis = Analysis.of(config, target);
    var err = spec.commandLine().getErr();
    if (!analysis.valid()) {
      var errors = analysis.diagnostics().stream().filter(d -> d.isError()).toList();
      err.println(
          "the config is invalid against "
              + analysis.target().name()
              + "; cannot test conversions:");
      errors.forEach(d -> Output.text(err, d));
      if (output != TestReportFormat.TABLE) {
        render(
            TestReport.notRun(target.name(), config.name(), "the config does not compile", errors));
      }
      return 2;
    }
    var versions = versions(analysis);
    var pairs = VersionPairs.parse(versionPairs, versions);
    var router = analysis.router();
    var all = new ArrayList<Inputs.Sample>();
    var skipped = new ArrayList<>(found.skipped());
    for (var s : found.samples()) {
      var kind = s.object().path("kind").asText();
      if (kind.equals(target.kind()) && s.group().equals(target.group())) {
        all.add(s);
      } else {
        skipped.add(
            s.position()
                .because(
                    "it is a "
                        + kind
                        + " of group "
                        + (s.group().isEmpty() ? "core" : s.group())
                        + ", not a "
                        + target.kind()
                        + " of group "
                        + target.group()));
      }
    }
    if (all.isEmpty() && !live) {
      throw new LoadError(
          "no "
              + target.kind()
              + " objects of group "
              + target.group()
              + " in "
              + new InputFile(samples).label()
              + skipped.stream()
                  .findFirst()
                  .map(s -> " (" + s.where() + " is skipped: " + s.reason() + ")")
                  .orElse(""));
    }
    var tester = new SampleTester(analysis, router, versions, pairs, skipIdentity);
    var results = new ArrayList<PathResult>();
    var seen = new ArrayList<SampleTester.Seen>();
    var schema = new ArrayList<SampleTester.SchemaIssue>();
    var progress = new ProgressLine(err, quiet, "tested");
    int threads = concurrency == 0 ? Runtime.getRuntime().availableProcessors() : concurrency;
    try (var pool = Executors.newFixedThreadPool(threads)) {
      var outcomes = all.stream().map(sample -> pool.submit(() -> tester.test(sample))).toList();
      int done = 0;
      for (var outcome : outcomes) {
        var o = outcome.get();
        results.addAll(o.paths());
        seen.addAll(o.seen());
        schema.addAll(o.schema());
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
    boolean strictMode = strict || failOn == FailOn.WARN;
    var report =
        new TestReport(
            target.name(),
            config.name(),
            analysis.parsed().hubVersion(),
            null,
            List.of(),
            results,
            coverage,
            schema,
            skipped,
            strictMode);
    render(report);
    if (failOn == FailOn.NONE) {
      return 0;
    }
    if (report.count("fail") + report.count("error") > 0
        || !report.uncheckedInsideOpaque().isEmpty()) {
      return 1;
    }
    return strictMode && (!report.unexercised().isEmpty() || !schema.isEmpty()) ? 1 : 0;
  }

  private void render(TestReport report) {
    lastReport = report.toJson();
    switch (output) {
      case JSON -> Output.structured(out, lastReport, false);
      case YAML -> Output.structured(out, lastReport, true);
      case JUNIT -> JUnitReport.write(out, report);
      case TABLE -> TestTable.write(out, report);
    }
  }

  private static List<String> versions(Analysis analysis) {
    var versions = new ArrayList<String>();
    versions.add(analysis.parsed().hubVersion());
    analysis.report().spokes().forEach(s -> versions.add(s.version()));
    return versions;
  }
}
