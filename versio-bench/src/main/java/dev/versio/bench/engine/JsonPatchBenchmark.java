package dev.versio.bench.engine;

import com.fasterxml.jackson.databind.JsonNode;
import dev.versio.engine.json.EngineJson;
import dev.versio.engine.route.Router;
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
 * One or three JSONPatch replace ops on a 3-field object (reference: BenchmarkConvert_JSONPatch).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class JsonPatchBenchmark {
  @Param({"1", "3"})
  public int ops;

  private Router router;
  private JsonNode object;

  @Setup
  public void setUp() {
    var schema =
        EngineBenchFixtures.yaml("{a: {type: string}, b: {type: string}, c: {type: string}}");
    var rules = new StringBuilder();
    var fields = new String[] {"a", "b", "c"};
    for (int i = 0; i < ops; i++) {
      rules
          .append("{strategy: JSONPatch, jsonPatch: {hubToSpoke: [{op: replace, path: /spec/")
          .append(fields[i])
          .append(", value: patched}], spokeToHub: [], losslessOverride: true}},");
    }
    var config =
        EngineBenchFixtures.config(
            "hubVersion: v2\nspokes:\n- version: v1\n  rules: [" + rules + "]\n");
    router =
        new Router(
            EngineBenchFixtures.compile(config, EngineBenchFixtures.target(schema, schema)),
            "bench.example.test");
    var o = EngineJson.nodes().objectNode();
    o.put("apiVersion", "bench.example.test/v2").put("kind", "Bench");
    o.putObject("spec").put("a", "x").put("b", "y").put("c", "z");
    object = o;
  }

  @Benchmark
  public JsonNode hubToSpoke() {
    return router.convert(object, "v2", "v1");
  }
}
