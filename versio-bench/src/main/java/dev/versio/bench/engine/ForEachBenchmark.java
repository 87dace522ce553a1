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
 * Hub→spoke convert of volumes[n] through a forEach with two nested renames (reference:
 * BenchmarkConvert_ForEach_ArrayLength).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class ForEachBenchmark {
  @Param({"10", "100", "1000"})
  public int elements;

  private Router router;
  private JsonNode object;

  @Setup
  public void setUp() {
    var hub =
        EngineBenchFixtures.yaml(
            """
        volumes: {type: array, items: {type: object, properties: {name: {type: string}, sizeGB: {type: integer}, class: {type: string}}}}
        """);
    var spoke =
        EngineBenchFixtures.yaml(
            """
        volumes: {type: array, items: {type: object, properties: {id: {type: string}, size: {type: integer}, class: {type: string}}}}
        """);
    var config =
        EngineBenchFixtures.config(
            """
        hubVersion: v2
        spokes:
        - version: v1
          rules:
          - strategy: ForEach
            forEach:
              hubItemsPath: spec.volumes
              spokeItemsPath: spec.volumes
              rules:
              - {strategy: FieldRename, fieldRename: {hubPath: name, spokePath: id}}
              - {strategy: FieldRename, fieldRename: {hubPath: sizeGB, spokePath: size}}
        """);
    router =
        new Router(
            EngineBenchFixtures.compile(config, EngineBenchFixtures.target(hub, spoke)),
            "bench.example.test");
    var o = EngineJson.nodes().objectNode();
    o.put("apiVersion", "bench.example.test/v2").put("kind", "Bench");
    o.putObject("metadata").put("name", "b");
    var volumes = o.putObject("spec").putArray("volumes");
    for (int i = 0; i < elements; i++) {
      volumes.addObject().put("name", "vol-" + i).put("sizeGB", 10 + i).put("class", "ssd");
    }
    object = o;
  }

  @Benchmark
  public JsonNode hubToSpoke() {
    return router.convert(object, "v2", "v1");
  }
}
