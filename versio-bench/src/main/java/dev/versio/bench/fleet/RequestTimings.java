package dev.versio.bench.fleet;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The requests of one operation class of a fleet run (e.g. every get at v2): latencies of the
 * answered ones, the failed ones with up to {@value #SAMPLES} distinct messages, and the wall time
 * from the first start to the last end. Throughput is requests over that wall time, never derived
 * from a latency. Thread-safe.
 */
final class RequestTimings {
  static final int SAMPLES = 5;

  /** A sample longer than this (a whole Status, two specs) is cut. */
  static final int SAMPLE_CHARS = 400;

  private final List<Long> nanos = new ArrayList<>();
  private final Set<String> samples = new LinkedHashSet<>();
  private long errors;
  private long firstStart = Long.MAX_VALUE;
  private long lastEnd = Long.MIN_VALUE;

  /** An answered request that took {@code startNanos} to {@code endNanos} ({@code nanoTime}). */
  synchronized void ok(long startNanos, long endNanos) {
    nanos.add(endNanos - startNanos);
    span(startNanos, endNanos);
  }

  /** A request that failed (after retries of transient errors), with why. */
  synchronized void failed(long startNanos, long endNanos, String why) {
    errors++;
    if (samples.size() < SAMPLES) {
      samples.add(why.length() <= SAMPLE_CHARS ? why : why.substring(0, SAMPLE_CHARS) + "…");
    }
    span(startNanos, endNanos);
  }

  private void span(long start, long end) {
    firstStart = Math.min(firstStart, start);
    lastEnd = Math.max(lastEnd, end);
  }

  synchronized long requests() {
    return nanos.size() + errors;
  }

  synchronized long errors() {
    return errors;
  }

  synchronized List<String> samples() {
    return List.copyOf(samples);
  }

  /**
   * The measurement as the scale result writes it: {@code n}, {@code errors}, {@code p50Ms}, {@code
   * p99Ms} and {@code maxMs} (nearest rank, answered requests only; null without any), {@code
   * perSecond} (n over the wall time), {@code wallSeconds} and {@code errorSamples}.
   */
  synchronized ObjectNode toJson() {
    var node = JsonNodeFactory.instance.objectNode();
    long n = requests();
    node.put("n", n).put("errors", errors);
    var sorted = nanos.stream().sorted().toList();
    putMs(node, "p50Ms", sorted, 50);
    putMs(node, "p99Ms", sorted, 99);
    putMs(node, "maxMs", sorted, 100);
    if (sorted.isEmpty()) {
      node.putNull("meanMs");
    } else {
      node.put(
          "meanMs", round(sorted.stream().mapToLong(Long::longValue).average().orElse(0) / 1e6));
    }
    if (n > 0 && lastEnd > firstStart) {
      double wall = (lastEnd - firstStart) / 1e9;
      node.put("perSecond", round(n / wall)).put("wallSeconds", round(wall));
    } else {
      node.putNull("perSecond").putNull("wallSeconds");
    }
    var array = node.putArray("errorSamples");
    samples.forEach(array::add);
    return node;
  }

  private static void putMs(ObjectNode node, String field, List<Long> sorted, int percentile) {
    if (sorted.isEmpty()) {
      node.putNull(field);
      return;
    }
    int rank = (int) Math.ceil(percentile / 100.0 * sorted.size());
    node.put(field, round(sorted.get(Math.max(0, rank - 1)) / 1e6));
  }

  private static double round(double value) {
    return Math.round(value * 1000) / 1000.0;
  }
}
