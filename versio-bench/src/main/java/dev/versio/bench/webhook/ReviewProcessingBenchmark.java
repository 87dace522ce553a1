package dev.versio.bench.webhook;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.versio.engine.json.EngineJson;
import dev.versio.webhook.registry.Registry;
import dev.versio.webhook.review.ReviewProcessor;
import java.time.Clock;
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
 * Handler CPU per review against the floor: {@code handle} is what the endpoint does (parse,
 * convert every object with the field-rename story's plan, serialize the response); {@code floor}
 * is Jackson parse + serialize of the same review. Target: handle ≤ 1.5 × floor.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class ReviewProcessingBenchmark {
  @Param({"1", "10", "100"})
  public int objects;

  private final ObjectMapper json = EngineJson.newMapper();
  private ReviewProcessor processor;
  private byte[] body;

  @Setup
  public void setUp() throws Exception {
    var registry = new Registry(Clock.systemUTC(), s -> {});
    registry.set("caches.example.com", ReviewLoad.storyRouter(), "crd/caches.example.com", "gen=1");
    processor = new ReviewProcessor(registry);
    body = ReviewLoad.review(objects, 0);
  }

  @Benchmark
  public byte[] handle() {
    return processor.write(processor.process("caches.example.com", body).body());
  }

  @Benchmark
  public byte[] floor() throws Exception {
    return json.writeValueAsBytes(json.readTree(body));
  }
}
