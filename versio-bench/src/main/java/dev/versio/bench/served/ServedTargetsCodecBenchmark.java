package dev.versio.bench.served;

import dev.versio.api.served.ServedTargetsCodec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * What publishing and reading a replica's served targets costs: encoding the sorted set into Lease
 * annotations (the replica, on every change) and decoding them (the operator, once per changed
 * report). Names are CRD-like with random parts, so gzip does not flatter them.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class ServedTargetsCodecBenchmark {
  @Param({"1000", "10000", "100000"})
  public int targets;

  private List<String> names;
  private List<Map<String, String>> parts;

  /** {@code n} names like {@code r1a2b3c4ds.team-17.example.com}. */
  public static List<String> names(int n) {
    var random = new Random(20261201);
    var out = new TreeSet<String>();
    while (out.size() < n) {
      out.add(String.format("r%08xs.team-%d.example.com", random.nextInt(), random.nextInt(500)));
    }
    return new ArrayList<>(out);
  }

  @Setup
  public void setUp() {
    names = names(targets);
    parts = ServedTargetsCodec.encode(names);
  }

  @Benchmark
  public List<Map<String, String>> encode() {
    return ServedTargetsCodec.encode(names);
  }

  @Benchmark
  public ServedTargetsCodec.Decoded decode() {
    return ServedTargetsCodec.decode(parts);
  }
}
