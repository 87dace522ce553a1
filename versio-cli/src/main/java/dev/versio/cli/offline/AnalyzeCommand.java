package dev.versio.cli.offline;

import dev.versio.engine.json.EngineJson;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code versio analyze}: per-spoke lossless verdicts, coverage and diagnostics. */
@Command(
    name = "analyze",
    mixinStandardHelpOptions = true,
    description = {
      "Analyse a config against its target: whether each spoke converts without loss in each direction, which"
          + " fields no rule covers, and every finding with the rule that would fix it."
    },
    footerHeading = "%nExample:%n",
    footer = {
      "  versio analyze -c config.yaml --crd crd.yaml",
      "",
      "Exit codes: 0 no errors, 1 errors found, 2 unreadable files or bad flags (in every output format)."
    })
public final class AnalyzeCommand implements Callable<Integer> {
  @Mixin TargetOptions options;

  @Option(
      paramLabel = "FORMAT",
      names = {"-o", "--output"},
      defaultValue = "table",
      description = "table, json or yaml (default: ${DEFAULT-VALUE}).")
  OutputFormat output;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    var config = options.loadConfig();
    var analysis = Analysis.of(config, options.requireTarget(config));
    var out = spec.commandLine().getOut();
    var report = analysis.report();
    if (output != OutputFormat.TABLE) {
      var o = EngineJson.nodes().objectNode();
      o.put("resourceKind", analysis.config().xrd() ? "XRD" : "CRD");
      o.put("resource", analysis.target().name());
      o.put("config", config.name());
      o.put("hubVersion", analysis.parsed() == null ? null : analysis.parsed().hubVersion());
      o.put("lossless", report != null && report.overallLossless());
      var spokes = o.putArray("spokes");
      if (report != null) {
        for (var s : report.spokes()) {
          var j = spokes.addObject();
          j.put("version", s.version());
          j.put("losslessHubToSpoke", s.lossless().hubToSpoke());
          j.put("losslessSpokeToHub", s.lossless().spokeToHub());
          j.put("rules", s.ruleResults().size());
          LossyRules.json(
              j.putArray("lossyRules"),
              LossyRules.of(report).stream().filter(e -> e.spoke().equals(s.version())).toList(),
              false);
          j.put("verifiable", s.verifiable());
          s.opaque().forEach(j.withArray("opaque")::add);
          s.uncoveredHub().forEach(j.withArray("uncoveredHub")::add);
          s.uncoveredSpoke().forEach(j.withArray("uncoveredSpoke")::add);
        }
      }
      o.set("diagnostics", Output.diagnostics(analysis.diagnostics()));
      Output.structured(out, o, output == OutputFormat.YAML);
    } else {
      out.println(
          (analysis.config().xrd() ? "XRD " : "CRD ")
              + analysis.target().name()
              + "  config "
              + config.name()
              + (analysis.parsed() == null ? "" : "  hub " + analysis.parsed().hubVersion()));
      if (report != null) {
        out.printf(
            "%-12s %-11s %-11s %5s %6s%n", "SPOKE", "HUB->SPOKE", "SPOKE->HUB", "RULES", "ISSUES");
        for (var s : report.spokes()) {
          out.printf(
              "%-12s %-11s %-11s %5d %6d%n",
              s.version(),
              verdict(s.lossless().hubToSpoke(), s.verifiable()),
              verdict(s.lossless().spokeToHub(), s.verifiable()),
              s.ruleResults().size(),
              s.diagnostics().size());
        }
        var opaque = report.spokes().stream().flatMap(s -> s.opaque().stream()).distinct().toList();
        out.println(
            "overall lossless: "
                + (!report.overallLossless() ? "no" : opaque.isEmpty() ? "yes" : "not verifiable"));
        if (!opaque.isEmpty()) {
          Output.wrap(
              out,
              "OPAQUE: "
                  + String.join(", ", opaque)
                  + (opaque.size() == 1 ? " keeps" : " keep")
                  + " unknown fields (x-kubernetes-preserve-unknown-fields) in both versions:"
                  + " copied as they are, less what rules convert inside them; the schemas cannot"
                  + " show that their content converts right, so only samples can (versio test"
                  + " fails a rule inside them that no sample exercises)",
              "  ");
        }
        LossyRules.text(out, LossyRules.of(report));
      }
      analysis.diagnostics().forEach(d -> Output.text(out, d));
    }
    return analysis.valid() ? 0 : 1;
  }

  private static String verdict(boolean lossless, boolean verifiable) {
    return !lossless ? "LOSSY" : verifiable ? "lossless" : "unverified";
  }
}
