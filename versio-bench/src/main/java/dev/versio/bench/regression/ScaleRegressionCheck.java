package dev.versio.bench.regression;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code scale-regression-check <current.json> [<previous.json>]}: prints every compared figure as
 * a Markdown table (regressions marked {@code REGRESSED}) and one {@code FAIL:} line per failure;
 * exits 0 when the run passes, 1 when it fails, 2 when a file cannot be read.
 */
@Command(
    name = "scale-regression-check",
    mixinStandardHelpOptions = true,
    description =
        "Checks a scale result: fails on any failed request or a run without requests, and, when"
            + " the previous result has the same schema version and envelope, on any figure"
            + " worse than --threshold times the previous one (latencies only beyond"
            + " --noise-floor-ms).")
public final class ScaleRegressionCheck implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "CURRENT", description = "this run's result JSON")
  Path current;

  @Parameters(
      index = "1",
      arity = "0..1",
      paramLabel = "PREVIOUS",
      description = "the previous run's result JSON; without it only the absolute checks run")
  Path previous;

  @Option(
      names = "--threshold",
      defaultValue = "1.5",
      description = "how many times worse a figure may get (default ${DEFAULT-VALUE})")
  double threshold;

  @Option(
      names = "--noise-floor-ms",
      defaultValue = "5",
      description =
          "latency increases up to this many ms are noise, never regressions (default"
              + " ${DEFAULT-VALUE})")
  double noiseFloorMs;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  public static void main(String[] args) {
    System.exit(new CommandLine(new ScaleRegressionCheck()).execute(args));
  }

  @Override
  public Integer call() {
    var out = spec.commandLine().getOut();
    var err = spec.commandLine().getErr();
    ScaleResult now;
    Optional<ScaleResult> before;
    RegressionCheck check;
    try {
      check = new RegressionCheck(threshold, noiseFloorMs);
      now = read(current);
      before = previous == null ? Optional.empty() : Optional.of(read(previous));
    } catch (IOException | ScaleResult.Unreadable | IllegalArgumentException e) {
      err.println("error: " + e.getMessage());
      return 2;
    }
    var report = check.check(now, before);
    print(report, out);
    return report.passed() ? 0 : 1;
  }

  private static ScaleResult read(Path file) throws IOException {
    if (!Files.isRegularFile(file)) {
      throw new IOException(file + " does not exist or is not a file");
    }
    return ScaleResult.parse(Files.readString(file), file.toString());
  }

  public static void print(RegressionCheck.Report report, PrintWriter out) {
    report.skipped().ifPresent(reason -> out.println("comparison skipped: " + reason));
    if (!report.rows().isEmpty()) {
      out.println("| Measurement | Figure | Previous | Current | Ratio | |");
      out.println("|---|---|---:|---:|---:|---|");
      for (var row : report.rows()) {
        out.printf(
            Locale.ROOT,
            "| %s | %s | %s | %s | %s | %s |%n",
            row.measurement(),
            row.figure(),
            figure(row.previous()),
            figure(row.current()),
            row.previous() == null || row.current() == null || row.previous() == 0
                ? "—"
                : String.format(Locale.ROOT, "%.2fx", row.current() / row.previous()),
            row.status() == RegressionCheck.Status.OK ? "" : row.status().name());
      }
    }
    report.failures().forEach(out::println);
    out.println(report.passed() ? "PASS" : "FAIL (" + report.failures().size() + ")");
    out.flush();
  }

  private static String figure(Double value) {
    return value == null ? "—" : String.format(Locale.ROOT, "%.1f", value);
  }
}
