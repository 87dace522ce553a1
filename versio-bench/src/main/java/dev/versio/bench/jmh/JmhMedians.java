package dev.versio.bench.jmh;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code jmh-medians <run.json>...}: one Markdown row per benchmark and parameter set with the
 * median score of the runs, their range, and the median allocation per operation.
 */
@Command(
    name = "jmh-medians",
    mixinStandardHelpOptions = true,
    description =
        "Folds several JMH result files (-rf json) of the same benchmarks into medians with their"
            + " range, one Markdown row per benchmark and parameter set.")
public final class JmhMedians implements Callable<Integer> {
  @Parameters(arity = "1..*", paramLabel = "RUN", description = "JMH result JSON files")
  List<Path> files;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  public static void main(String[] args) {
    System.exit(new CommandLine(new JmhMedians()).execute(args));
  }

  @Override
  public Integer call() {
    var runs = new ArrayList<JsonNode>();
    var mapper = new ObjectMapper();
    try {
      for (var file : files) {
        if (!Files.isRegularFile(file)) {
          throw new IOException(file + " does not exist or is not a file");
        }
        runs.add(mapper.readTree(file.toFile()));
      }
      print(JmhRuns.fold(runs), runs.size(), spec.commandLine().getOut());
      return 0;
    } catch (IOException | IllegalArgumentException e) {
      spec.commandLine().getErr().println("error: " + e.getMessage());
      return 2;
    }
  }

  static void print(List<JmhRuns.Row> rows, int runs, PrintWriter out) {
    out.println("| Benchmark | Parameters | Median of " + runs + " | Range | Allocated |");
    out.println("|---|---|---:|---:|---:|");
    for (var row : rows) {
      out.printf(
          Locale.ROOT,
          "| %s | %s | %s %s | %s–%s (n=%d) | %s |%n",
          row.benchmark(),
          row.params(),
          figure(row.median()),
          row.unit(),
          figure(row.min()),
          figure(row.max()),
          row.scores().size(),
          Double.isNaN(row.medianAllocation())
              ? "—"
              : String.format(Locale.ROOT, "%.0f B/op", row.medianAllocation()));
    }
    out.flush();
  }

  private static String figure(double value) {
    return value >= 100
        ? String.format(Locale.ROOT, "%.0f", value)
        : String.format(Locale.ROOT, "%.3g", value);
  }
}
