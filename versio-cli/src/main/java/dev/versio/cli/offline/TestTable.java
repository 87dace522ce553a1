package dev.versio.cli.offline;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;

/**
 * {@code versio test}'s table: one line per path, then what needs attention (rules no sample
 * exercised, objects the apiserver would prune or reject, documents skipped) and a summary that
 * says why the run failed. Lines fit 100 columns.
 */
final class TestTable {
  private static final int SAMPLE = 44;

  private TestTable() {}

  static void write(PrintWriter out, TestReport report) {
    if (!report.ran()) {
      return; // the reason is on stderr
    }
    out.printf("%-" + SAMPLE + "s %-20s %s%n", "SAMPLE", "PATH", "RESULT");
    for (var r : report.paths()) {
      out.printf(
          "%-" + SAMPLE + "s %-20s %s%n",
          Labels.fit(r.sample(), SAMPLE),
          r.from() + "->" + r.to(),
          r.result().toUpperCase(java.util.Locale.ROOT));
      for (var c : r.changes()) {
        var what = c.added() ? "added" : "lost";
        Output.wrap(
            out,
            c.acknowledged()
                ? "    " + what + ": " + c.path() + " (" + c.rule() + ")"
                : "    " + what + " (no rule says it may be): " + c.path(),
            "      ");
      }
      r.rejected()
          .forEach(
              m ->
                  Output.wrap(
                      out, "    the apiserver would reject it at " + r.to() + ": " + m, "      "));
      if (r.error() != null) {
        Output.wrap(out, "    error: " + r.error(), "      ");
      }
    }
    var unexercised = report.unexercised();
    if (!unexercised.isEmpty()) {
      out.println("RULES NOT EXERCISED by any sample (add samples that set their fields):");
      unexercised.forEach(u -> Output.wrap(out, "  " + u.id(), "    "));
    }
    if (!report.schema().isEmpty()) {
      out.println(
          "SCHEMA: the apiserver would prune or reject these (fix the samples or the rules):");
      // one entry per sample and finding, naming every version it showed up at
      var grouped = new LinkedHashMap<String, List<String>>();
      for (var s : report.schema()) {
        grouped
            .computeIfAbsent(
                s.sample().label() + " " + s.finding().message(), k -> new ArrayList<>())
            .add(s.version() + " (" + s.object() + ")");
      }
      grouped.forEach(
          (finding, where) -> {
            Output.wrap(out, "  " + finding, "      ");
            Output.wrap(out, "      at " + String.join(", ", where), "        ");
          });
    }
    if (!report.skipped().isEmpty()) {
      out.println("SKIPPED documents (not tested):");
      report
          .skipped()
          .forEach(s -> Output.wrap(out, "  " + s.where() + ": " + s.reason(), "      "));
    }
    out.printf(
        "SUMMARY: %d paths: %d pass, %d loss (acknowledged), %d fail (unacknowledged change or"
            + " rejected), %d error%n",
        report.paths().size(),
        report.count("pass"),
        report.count("loss"),
        report.count("fail"),
        report.count("error"));
    var unchecked = report.uncheckedInsideOpaque();
    if (!unchecked.isEmpty()) {
      Output.wrap(
          out,
          "FAILED: "
              + unchecked.size()
              + " rule(s) convert fields the schemas leave opaque"
              + " (x-kubernetes-preserve-unknown-fields), so only samples can check them, and no"
              + " sample sets their fields: "
              + String.join(", ", unchecked.stream().map(RuleCoverage.RuleUse::id).toList()),
          "  ");
    }
    if (report.strict()) {
      strictVerdict(out, unexercised, report);
    }
  }

  /** Under --strict, what besides lost fields fails the run, by name. */
  private static void strictVerdict(
      PrintWriter out, List<RuleCoverage.RuleUse> unexercised, TestReport report) {
    if (!unexercised.isEmpty()) {
      Output.wrap(
          out,
          "FAILED (--strict): "
              + unexercised.size()
              + " rule(s) not exercised by any sample: "
              + String.join(", ", unexercised.stream().map(RuleCoverage.RuleUse::id).toList()),
          "  ");
    }
    if (!report.schema().isEmpty()) {
      Output.wrap(
          out,
          "FAILED (--strict): "
              + report.schema().size()
              + " schema finding(s): objects the apiserver would prune or reject (listed above)",
          "  ");
    }
  }
}
