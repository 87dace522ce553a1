package dev.versio.bench.regression;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Compares a scale run with a previous one. Always fails a run with any failed request or with no
 * request at all. Compares figures only when both runs have the same schema version and the same
 * envelope (otherwise the figures measure different things and the comparison is skipped, with the
 * reason); then a latency ({@code p50}, {@code p99}) regresses when it is above {@code threshold} ×
 * the previous one <em>and</em> more than {@code noiseFloorMs} above it (2 ms → 4 ms is noise), and
 * a throughput when the previous one is above {@code threshold} × it. A measurement the previous
 * run had and this one lacks fails too: dropping it would hide its regression.
 *
 * @param threshold how many times worse a figure may get, above 1
 * @param noiseFloorMs latency increases up to this many milliseconds are never regressions
 */
public record RegressionCheck(double threshold, double noiseFloorMs) {
  public static final double DEFAULT_THRESHOLD = 1.5;
  public static final double DEFAULT_NOISE_FLOOR_MS = 5;

  public RegressionCheck {
    if (!(threshold > 1)) {
      throw new IllegalArgumentException("the threshold must be above 1, got " + threshold);
    }
    if (!(noiseFloorMs >= 0)) {
      throw new IllegalArgumentException("the noise floor must be ≥ 0 ms, got " + noiseFloorMs);
    }
  }

  /** One compared figure. */
  public record Row(
      String measurement, String figure, Double previous, Double current, Status status) {}

  /** What became of one figure. */
  public enum Status {
    OK,
    REGRESSED,
    /** No previous figure to compare with (a new measurement, or one side has none). */
    NEW
  }

  /**
   * The outcome.
   *
   * @param rows every compared figure (empty when the comparison was skipped)
   * @param failures one line per failure, {@code FAIL: …}; the run passes when empty
   * @param skipped why the figures were not compared, when they were not
   */
  public record Report(List<Row> rows, List<String> failures, Optional<String> skipped) {
    public Report {
      rows = List.copyOf(rows);
      failures = List.copyOf(failures);
    }

    public boolean passed() {
      return failures.isEmpty();
    }
  }

  /** Checks {@code current}, against {@code previous} when there is one. */
  public Report check(ScaleResult current, Optional<ScaleResult> previous) {
    var failures = new ArrayList<String>();
    long requests = 0;
    for (var entry : current.measurements().entrySet()) {
      var m = entry.getValue();
      requests += m.n();
      if (m.errors() > 0) {
        failures.add(
            String.format(
                Locale.ROOT,
                "FAIL: %s: %d of %d requests failed",
                entry.getKey(),
                m.errors(),
                m.n()));
      }
    }
    if (requests == 0) {
      failures.add("FAIL: the run made no requests");
    }
    if (previous.isEmpty()) {
      return new Report(List.of(), failures, Optional.of("no previous result"));
    }
    var before = previous.get();
    if (before.schemaVersion() != current.schemaVersion()) {
      return new Report(
          List.of(),
          failures,
          Optional.of(
              "schema version "
                  + before.schemaVersion()
                  + " → "
                  + current.schemaVersion()
                  + ": figures not compared"));
    }
    if (!before.envelope().equals(current.envelope())) {
      return new Report(
          List.of(),
          failures,
          Optional.of(
              "envelope differs ("
                  + before.envelope()
                  + " → "
                  + current.envelope()
                  + "): figures not compared"));
    }
    var rows = new ArrayList<Row>();
    for (var name : before.measurements().keySet()) {
      if (!current.measurements().containsKey(name)) {
        failures.add("FAIL: " + name + ": measured before, missing now");
      }
    }
    for (var entry : current.measurements().entrySet()) {
      var name = entry.getKey();
      var now = entry.getValue();
      var then = before.measurements().get(name);
      rows.add(latency(name, "p50", then == null ? null : then.p50Ms(), now.p50Ms(), failures));
      rows.add(latency(name, "p99", then == null ? null : then.p99Ms(), now.p99Ms(), failures));
      rows.add(throughput(name, then == null ? null : then.perSecond(), now.perSecond(), failures));
    }
    return new Report(rows, failures, Optional.empty());
  }

  private Row latency(
      String name, String figure, Double previous, Double current, List<String> failures) {
    if (previous == null || current == null || previous <= 0) {
      return new Row(name, figure, previous, current, Status.NEW);
    }
    double ratio = current / previous;
    if (ratio > threshold && current - previous > noiseFloorMs) {
      failures.add(
          String.format(
              Locale.ROOT,
              "FAIL: %s %s: %.1f ms -> %.1f ms (%.2fx, threshold %.2fx)",
              name,
              figure,
              previous,
              current,
              ratio,
              threshold));
      return new Row(name, figure, previous, current, Status.REGRESSED);
    }
    return new Row(name, figure, previous, current, Status.OK);
  }

  private Row throughput(String name, Double previous, Double current, List<String> failures) {
    if (previous == null || current == null || previous <= 0) {
      return new Row(name, "per second", previous, current, Status.NEW);
    }
    double slower = current <= 0 ? Double.POSITIVE_INFINITY : previous / current;
    if (slower > threshold) {
      failures.add(
          String.format(
              Locale.ROOT,
              "FAIL: %s throughput: %.1f/s -> %.1f/s (%.2fx slower, threshold %.2fx)",
              name,
              previous,
              current,
              slower,
              threshold));
      return new Row(name, "per second", previous, current, Status.REGRESSED);
    }
    return new Row(name, "per second", previous, current, Status.OK);
  }
}
