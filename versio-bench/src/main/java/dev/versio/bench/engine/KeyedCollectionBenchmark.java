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
 * ArrayToMapByKey over zones[n] and MapToArrayByKey over an n-entry map, hub→spoke (reference:
 * BenchmarkConvert_ArrayToMapByKey_ArrayLength / _MapToArrayByKey_MapSize).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class KeyedCollectionBenchmark {
  @Param({"10", "100", "1000"})
  public int n;

  private Router arrayToMap;
  private Router mapToArray;
  private JsonNode zones;
  private JsonNode zoneMap;

  @Setup
  public void setUp() {
    var array =
        "{zones: {type: array, items: {type: object, properties: {name: {type: string}, weight: {type: integer}}}}}";
    var map =
        "{zones: {type: object, additionalProperties: {type: object, properties: {weight: {type: integer}}}}}";
    arrayToMap = router(array, map, "ArrayToMapByKey", "arrayToMapByKey");
    mapToArray = router(map, array, "MapToArrayByKey", "mapToArrayByKey");
    var a = EngineJson.nodes().objectNode();
    a.put("apiVersion", "bench.example.test/v2").put("kind", "Bench");
    var list = a.putObject("spec").putArray("zones");
    var m = EngineJson.nodes().objectNode();
    m.put("apiVersion", "bench.example.test/v2").put("kind", "Bench");
    var entries = m.putObject("spec").putObject("zones");
    for (int i = 0; i < n; i++) {
      list.addObject().put("name", "zone-" + i).put("weight", i);
      entries.putObject("zone-" + i).put("weight", i);
    }
    zones = a;
    zoneMap = m;
  }

  private static Router router(String hub, String spoke, String strategy, String key) {
    var config =
        EngineBenchFixtures.config(
            "hubVersion: v2\nspokes:\n- version: v1\n  rules: [{strategy: "
                + strategy
                + ", "
                + key
                + ": {hubPath: spec.zones, spokePath: spec.zones, keyField: name}, acknowledgeLossy: true}]\n");
    return new Router(
        EngineBenchFixtures.compile(
            config,
            EngineBenchFixtures.target(
                EngineBenchFixtures.yaml(hub), EngineBenchFixtures.yaml(spoke))),
        "bench.example.test");
  }

  @Benchmark
  public JsonNode arrayToMapByKey() {
    return arrayToMap.convert(zones, "v2", "v1");
  }

  @Benchmark
  public JsonNode mapToArrayByKey() {
    return mapToArray.convert(zoneMap, "v2", "v1");
  }
}
