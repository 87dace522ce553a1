package dev.versio.cli.offline;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.versio.cli.live.ClusterOptions;
import dev.versio.cli.live.LiveObjects;
import dev.versio.engine.compile.SpokeReport;
import dev.versio.engine.json.EngineJson;
import dev.versio.engine.route.Router;
import dev.versio.engine.runtime.ConversionException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.concurrent.Callable;
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

  @Option(
      names = "--page-size",
      defaultValue = "500",
      description = "Objects per list page with --live (default: ${DEFAULT-VALUE}).")
  int pageSize;

  @Option(
      names = "--fail-on",
      defaultValue = "loss",
      description =
          "loss: fail on unacknowledged loss or errors; none: report only (default: ${DEFAULT-VALUE}).")
  String failOn;

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
    if (!failOn.equals("loss") && !failOn.equals("none")) {
      throw new LoadError("--fail-on must be loss or none, not '" + failOn + "'");
    }
    if ((samples == null) != live) {
      throw new LoadError("pass either -s/--samples PATH or --live (not both, not neither)");
    }
    if (pageSize < 1) {
      throw new LoadError("--page-size must be positive, not " + pageSize);
    }
    var config = options.loadConfig();
    if (!live) {
      return test(config, options.requireTarget(config), Inputs.samples(samples));
    }
    try (var client = cluster.client()) {
      var objects = new LiveObjects(client);
      var target = options.loadTarget(config);
      if (target == null) {
        target = objects.definition(config);
      }
      var found = objects.all(target, pageSize);
      if (found.isEmpty()) {
        spec.commandLine()
            .getOut()
            .println("there are no " + target.name() + " objects in the cluster; nothing to test");
        return 0;
      }
      return test(config, target, found);
    }
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
    var results = new ArrayList<PathResult>();
    for (var sample : all) {
      var from = sample.version();
      if (!versions.contains(from)) {
        results.add(
            new PathResult(
                sample,
                from,
                from,
                "error",
                List.of(),
                List.of(),
                "the sample is at " + from + " but the config converts only " + versions));
        continue;
      }
      for (var to : versions) {
        if (!pairs.includes(from, to)) {
          continue;
        }
        if (to.equals(from)) {
          if (!skipIdentity) {
            results.add(new PathResult(sample, from, to, "pass", List.of(), List.of(), null));
          }
          continue;
        }
        results.add(roundTrip(router, analysis, sample, from, to));
      }
    }
    if (results.isEmpty() && pairs.restricted()) {
      throw new LoadError(
          "no sample is at the FROM version of " + versionPairs + "; add samples at that version");
    }
    int fail = count(results, "fail");
    int error = count(results, "error");
    switch (output) {
      case JSON -> json(analysis, results);
      case JUNIT -> JUnitReport.write(spec.commandLine().getOut(), target.name(), results);
      case TABLE -> table(results);
    }
    return failOn.equals("none") || fail + error == 0 ? 0 : 1;
  }

  private static List<String> versions(Analysis analysis) {
    var versions = new ArrayList<String>();
    versions.add(analysis.parsed().hubVersion());
    analysis.report().spokes().forEach(s -> versions.add(s.version()));
    return versions;
  }

  private PathResult roundTrip(
      Router router, Analysis analysis, Inputs.Sample sample, String from, String to) {
    try {
      var there = router.convert(sample.object(), from, to);
      var back = router.convert(there, to, from);
      var diffs = LeafDiff.paths(sample.object(), back);
      var lossy = lossyPaths(analysis, from, to);
      var acknowledged = new ArrayList<String>();
      var lost = new ArrayList<String>();
      for (var path : diffs) {
        (covered(path, lossy) ? acknowledged : lost).add(path);
      }
      var result = !lost.isEmpty() ? "fail" : !acknowledged.isEmpty() ? "loss" : "pass";
      return new PathResult(sample, from, to, result, lost, acknowledged, null);
    } catch (ConversionException e) {
      return new PathResult(sample, from, to, "error", List.of(), List.of(), e.getMessage());
    }
  }

  /** Paths claimed by lossy rules of the spokes this route touches. */
  private static LinkedHashSet<String> lossyPaths(Analysis analysis, String from, String to) {
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

  private void table(List<PathResult> results) {
    var out = spec.commandLine().getOut();
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
    out.printf(
        "SUMMARY: %d paths: %d pass, %d loss (acknowledged), %d fail (unacknowledged loss), %d error%n",
        results.size(),
        count(results, "pass"),
        count(results, "loss"),
        count(results, "fail"),
        count(results, "error"));
  }

  private void json(Analysis analysis, List<PathResult> results) {
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
    Output.json(spec.commandLine().getOut(), o);
  }

  private static int count(List<PathResult> results, String kind) {
    return (int) results.stream().filter(r -> r.result().equals(kind)).count();
  }

  private static String abbreviate(String s, int n) {
    return s.length() <= n ? s : "..." + s.substring(s.length() - n + 3);
  }
}
