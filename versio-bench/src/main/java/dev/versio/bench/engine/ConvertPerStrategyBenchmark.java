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
 * Hub→spoke convert of a tiny object for each of the 30 strategies (and {@code when}) (reference:
 * BenchmarkConvert_PerStrategy), over the cases of {@link StrategyCases}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ConvertPerStrategyBenchmark {
  @Param({
    "FieldRename",
    "ScalarToObject",
    "ObjectToScalar",
    "SingletonArrayToObject",
    "ObjectToSingletonArray",
    "FieldsToMap",
    "MapToFields",
    "ToAnnotation",
    "ToLabel",
    "FromAnnotation",
    "FromLabel",
    "EnumRemap",
    "DefaultValue",
    "Constant",
    "Delete",
    "ForEach",
    "FieldRename+when",
    "TypeCoerce",
    "ScalarToFields",
    "FieldsToScalar",
    "ArrayToMapByKey",
    "MapToArrayByKey",
    "NumericScale",
    "ListJoin",
    "ListSplit",
    "Quantity",
    "Duration",
    "JSONString",
    "MapKeyRename",
    "JSONPatch",
    "CEL"
  })
  public String strategy;

  private Router router;
  private Router.Between between;
  private JsonNode object;

  @Setup
  public void setUp() throws java.io.IOException {
    var c = StrategyCases.CASES.get(strategy);
    var config =
        EngineBenchFixtures.config(
            "hubVersion: v2\nspokes:\n- version: v1\n  rules: " + c.rules() + "\n");
    var target =
        EngineBenchFixtures.target(
            EngineBenchFixtures.yaml(c.hub()), EngineBenchFixtures.yaml(c.spoke()));
    router = new Router(EngineBenchFixtures.compile(config, target), "bench.example.test");
    between = router.between("v2", "v1");
    var written =
        EngineBenchFixtures.yaml(
            "{apiVersion: bench.example.test/v2, kind: Bench, metadata: {name: b, annotations: {bench/a: '\"x\"'}, labels: {bench/a: x}}, spec: "
                + c.spec()
                + "}");
    // parsed from JSON by a Jackson JSON parser, as the webhook reads a review's objects (it
    // interns their keys, which the YAML parser does not)
    object = EngineJson.newMapper().readTree(written.toString());
  }

  /**
   * One object of a review: the webhook looks the review's two versions up once and converts each
   * of its objects with them.
   */
  @Benchmark
  public JsonNode hubToSpoke() {
    return between.convert(object);
  }

  /** The same with both versions looked up for this object alone (the CLI, a one-object review). */
  @Benchmark
  public JsonNode hubToSpokeNamingVersions() {
    return router.convert(object, "v2", "v1");
  }
}
