package dev.versio.bench.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import dev.versio.engine.json.EngineJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;

/**
 * One Markdown table from the {@code RESULT} lines of several {@link ReviewLoad} runs: a row per
 * load (review size, HTTP version, rate, in-flight bound), with the median of each figure over the
 * runs and its spread (min–max), and the errors of all runs by cause. A row with any error says so;
 * a latency over runs that had errors is not a "met" figure.
 *
 * <p>Usage: {@code ReviewLoadSummary <raw-output-file>}
 */
public final class ReviewLoadSummary {
  private ReviewLoadSummary() {}

  public static void main(String[] args) throws IOException {
    System.out.print(table(Files.readAllLines(Path.of(args[0]))));
  }

  /** The table for the {@code RESULT} lines among {@code lines}. */
  static String table(List<String> lines) throws IOException {
    var json = EngineJson.newMapper();
    var groups = new LinkedHashMap<String, List<JsonNode>>();
    for (var line : lines) {
      if (line.startsWith("RESULT ")) {
        var run = json.readTree(line.substring("RESULT ".length()));
        groups.computeIfAbsent(key(run), k -> new ArrayList<>()).add(run);
      }
    }
    var out = new StringBuilder();
    out.append(
        "| Review | HTTP | Rate | In flight ≤ | Runs | Answered/s | p50 | p99 | p99.9 | Errors |\n");
    out.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---|\n");
    for (var runs : groups.values()) {
      var first = runs.getFirst();
      var errors = new TreeMap<String, Integer>();
      runs.forEach(
          run ->
              run.path("errors")
                  .properties()
                  .forEach(e -> errors.merge(e.getKey(), e.getValue().asInt(), Integer::sum)));
      int failed = errors.values().stream().mapToInt(Integer::intValue).sum();
      int scheduled = runs.stream().mapToInt(r -> r.path("scheduled").asInt()).sum();
      out.append(
          String.format(
              Locale.ROOT,
              "| %s | %s | %d/s | %d | %d | %s | %s | %s | %s | %s |%n",
              review(first),
              first.path("http").asText(),
              first.path("rate").asInt(),
              first.path("maxInFlight").asInt(),
              runs.size(),
              spread(runs, r -> r.path("answeredPerSecond").asDouble(), "%.0f", ""),
              spread(
                  runs, r -> r.path("latencyMs").path("p50").asDouble(Double.NaN), "%.2f", " ms"),
              spread(
                  runs, r -> r.path("latencyMs").path("p99").asDouble(Double.NaN), "%.2f", " ms"),
              spread(
                  runs, r -> r.path("latencyMs").path("p99.9").asDouble(Double.NaN), "%.1f", " ms"),
              failed == 0
                  ? "0 of " + scheduled
                  : "**" + failed + " of " + scheduled + "** " + errors));
    }
    return out.toString();
  }

  private static String key(JsonNode run) {
    return String.join(
        "/",
        run.path("objects").asText(),
        run.path("padKiB").asText(),
        run.path("http").asText(),
        run.path("rate").asText(),
        run.path("seconds").asText(),
        run.path("maxInFlight").asText());
  }

  private static String review(JsonNode run) {
    int objects = run.path("objects").asInt();
    int pad = run.path("padKiB").asInt();
    return objects
        + (objects == 1 ? " object" : " objects")
        + (pad > 0 ? " × " + pad + " KiB" : "");
  }

  /** The median over {@code runs}, with min–max when there are several; "—" without values. */
  static String spread(
      List<JsonNode> runs,
      java.util.function.ToDoubleFunction<JsonNode> figure,
      String format,
      String unit) {
    var values = runs.stream().mapToDouble(figure).filter(v -> !Double.isNaN(v)).sorted().toArray();
    if (values.length == 0) {
      return "—";
    }
    int n = values.length;
    double median = n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
    var text = String.format(Locale.ROOT, format, median) + unit;
    if (n > 1) {
      text +=
          " ("
              + String.format(Locale.ROOT, format, values[0])
              + "–"
              + String.format(Locale.ROOT, format, values[n - 1])
              + ")";
    }
    return text;
  }
}
