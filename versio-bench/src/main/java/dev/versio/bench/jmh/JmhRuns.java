package dev.versio.bench.jmh;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Several JMH runs of the same benchmarks (JMH's own {@code -rf json} output) folded into one row
 * per benchmark and parameter set: the median of the runs' scores with their range, so a figure
 * from a noisy machine comes with its spread.
 */
public final class JmhRuns {
  private static final String ALLOCATION = "gc.alloc.rate.norm";

  private JmhRuns() {}

  /** One benchmark with one parameter set, over every run that measured it. */
  public record Row(
      String benchmark, String params, String unit, List<Double> scores, List<Double> allocations) {
    public Row {
      Objects.requireNonNull(benchmark, "benchmark");
      Objects.requireNonNull(params, "params");
      Objects.requireNonNull(unit, "unit");
      scores = List.copyOf(scores);
      allocations = List.copyOf(allocations);
      if (scores.isEmpty()) {
        throw new IllegalArgumentException(benchmark + " " + params + " has no score");
      }
    }

    public double median() {
      return JmhRuns.median(scores);
    }

    public double min() {
      return scores.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
    }

    public double max() {
      return scores.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
    }

    /** The median bytes allocated per operation, or NaN when the runs had no {@code -prof gc}. */
    public double medianAllocation() {
      return allocations.isEmpty() ? Double.NaN : JmhRuns.median(allocations);
    }
  }

  /**
   * The rows of {@code runs} (each the parsed JSON array of one JMH run), in the order first seen.
   *
   * @throws IllegalArgumentException when a run is not a JMH result array
   */
  public static List<Row> fold(List<JsonNode> runs) {
    var seen = new LinkedHashMap<String, Seen>();
    for (var run : runs) {
      if (!run.isArray()) {
        throw new IllegalArgumentException(
            "not a JMH result (expected a JSON array from -rf json)");
      }
      for (var result : run) {
        var benchmark = shortName(result.path("benchmark").asText());
        var primary = result.path("primaryMetric");
        if (benchmark.isEmpty() || !primary.isObject()) {
          throw new IllegalArgumentException(
              "not a JMH result entry (no benchmark or primaryMetric): " + result);
        }
        var params = params(result.path("params"));
        var row =
            seen.computeIfAbsent(
                benchmark + " " + params,
                k -> new Seen(benchmark, params, primary.path("scoreUnit").asText()));
        row.scores.add(primary.path("score").asDouble());
        var allocation = result.path("secondaryMetrics").path(ALLOCATION);
        if (allocation.isObject()) {
          row.allocations.add(allocation.path("score").asDouble());
        }
      }
    }
    return seen.values().stream()
        .map(r -> new Row(r.benchmark, r.params, r.unit, r.scores, r.allocations))
        .toList();
  }

  /** A row while the runs are read. */
  private static final class Seen {
    final String benchmark;
    final String params;
    final String unit;
    final List<Double> scores = new ArrayList<>();
    final List<Double> allocations = new ArrayList<>();

    Seen(String benchmark, String params, String unit) {
      this.benchmark = benchmark;
      this.params = params;
      this.unit = unit;
    }
  }

  static double median(List<Double> values) {
    var sorted = values.stream().sorted(Comparator.naturalOrder()).toList();
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }

  private static String shortName(String benchmark) {
    var parts = benchmark.split("\\.");
    return parts.length < 2 ? benchmark : parts[parts.length - 2] + "." + parts[parts.length - 1];
  }

  private static String params(JsonNode params) {
    if (!params.isObject() || params.isEmpty()) {
      return "";
    }
    var sorted = new TreeMap<String, String>();
    params.properties().forEach(e -> sorted.put(e.getKey(), e.getValue().asText()));
    var parts = new ArrayList<String>();
    sorted.forEach((k, v) -> parts.add(k + "=" + v));
    return String.join(",", parts);
  }

  /** The rows by {@code "<benchmark> <params>"}. */
  static Map<String, Row> byKey(List<Row> rows) {
    var map = new LinkedHashMap<String, Row>();
    rows.forEach(r -> map.put(r.benchmark() + " " + r.params(), r));
    return map;
  }
}
