package dev.versio.bench.served;

import dev.versio.api.served.ServedTargetsCodec;

/**
 * How large a replica's served-target report is: Leases and annotation characters per target count.
 * Run: {@code hack/bench.sh --served-sizes 1000 10000 100000}.
 */
public final class ServedTargetsSizes {
  private ServedTargetsSizes() {}

  public static void main(String[] args) {
    System.out.printf(
        "%10s %12s %7s %16s %16s%n",
        "targets", "raw bytes", "leases", "largest part", "chars/target");
    for (var arg : args) {
      int n = Integer.parseInt(arg);
      var names = ServedTargetsCodecBenchmark.names(n);
      long raw = String.join("\n", names).length();
      var parts = ServedTargetsCodec.encode(names);
      int largest = 0;
      long total = 0;
      for (var p : parts) {
        int chars = p.values().stream().mapToInt(String::length).sum();
        largest = Math.max(largest, chars);
        total += p.get(ServedTargetsCodec.TARGETS).length();
      }
      System.out.printf(
          "%10d %12d %7d %16d %16.1f%n", n, raw, parts.size(), largest, (double) total / n);
    }
  }
}
