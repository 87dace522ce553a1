package dev.versio.engine.rule.catalog;

import static dev.versio.engine.Fixtures.compile;
import static dev.versio.engine.Fixtures.lines;
import static dev.versio.engine.Fixtures.object;
import static dev.versio.engine.Fixtures.spokeRules;
import static dev.versio.engine.Fixtures.target;
import static dev.versio.engine.Fixtures.yaml;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.versio.engine.Fixtures;
import dev.versio.engine.compile.CompileResult;
import dev.versio.engine.compile.CompiledConfig;
import dev.versio.engine.compile.Verdict;
import dev.versio.engine.route.Router;
import dev.versio.engine.rule.Strategy;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The catalog is what the reference and the CRD schema are generated from, so every claim it makes
 * is checked against the engine: each example parses (the parser reads exactly the declared
 * parameters, or it throws), compiles with the declared verdict, and converts as shown.
 */
class StrategyCatalogTest {

  @Test
  void everyStrategyHasOneDefinitionInStrategyOrder() {
    assertThat(StrategyCatalog.all())
        .extracting(StrategySpec::strategy)
        .containsExactly(Strategy.values());
  }

  @ParameterizedTest
  @EnumSource(Strategy.class)
  void theExampleCompilesWithTheDeclaredVerdictPerDirection(Strategy strategy) {
    var example = StrategyCatalog.of(strategy).example();
    var compiled = compiled(example);
    assertThat(compiled.plans().get("v1").verdict())
        .as("the compiler's verdict on the %s example", strategy.wireName())
        .isEqualTo(new Verdict(example.losslessHubToSpoke(), example.losslessSpokeToHub()));
  }

  @ParameterizedTest
  @EnumSource(Strategy.class)
  void theExampleAcknowledgesLossExactlyWhenItIsLossy(Strategy strategy) {
    var example = StrategyCatalog.of(strategy).example();
    var rule = yaml(example.rule()).get(0);
    assertThat(rule.path("acknowledgeLossy").asBoolean(false))
        .as("acknowledgeLossy of the %s example", strategy.wireName())
        .isEqualTo(example.lossy());
    assertThat(rule.hasNonNull("reason") || !example.lossy())
        .as("a lossy example says why the loss is acceptable")
        .isTrue();
  }

  @ParameterizedTest
  @EnumSource(Strategy.class)
  void theExampleConvertsAsShownInBothDirections(Strategy strategy) {
    var example = StrategyCatalog.of(strategy).example();
    var router = new Router(compiled(example), Fixtures.GROUP);
    var spoke = router.convert(object(example.hubObject()), "v2", "v1");
    assertThat(body(spoke)).as("hub→spoke").isEqualTo(yaml(example.spokeObject()));
    var back = router.convert(object(example.spokeObject()), "v1", "v2");
    assertThat(body(back)).as("spoke→hub").isEqualTo(yaml(example.hubObjectBack()));
    if (example.losslessHubToSpoke()) {
      assertThat(example.hubObjectBack())
          .as("a lossless hub→spoke direction comes back unchanged")
          .isEqualTo(example.hubObject());
    }
  }

  @ParameterizedTest
  @EnumSource(Strategy.class)
  void everyParameterIsDescribedAndEveryChoiceHasItsValues(Strategy strategy) {
    var spec = StrategyCatalog.of(strategy);
    assertThat(spec.summary()).endsWith(".");
    assertThat(spec.hubToSpoke().lossless()).endsWith(".");
    assertThat(spec.spokeToHub().lossless()).endsWith(".");
    assertThat(spec.params()).isNotEmpty();
    for (var p : spec.params()) {
      assertThat(p.description()).as(p.name()).endsWith(".");
    }
    var example = yaml(spec.example().rule()).get(0);
    assertThat(example.path("strategy").asText()).isEqualTo(strategy.wireName());
    assertThat(example.has(strategy.paramsKey())).isTrue();
  }

  @Test
  void theParamsKeysOfAllStrategiesAreDistinctFromTheRuleKeys() {
    assertThat(Arrays.stream(Strategy.values()).map(Strategy::paramsKey))
        .doesNotHaveDuplicates()
        .doesNotContainAnyElementsOf(StrategyCatalog.RULE_KEYS.keySet());
  }

  private static CompiledConfig compiled(StrategySpec.Example example) {
    var result =
        compile(target(example.hubSchema(), example.spokeSchema()), spokeRules(example.rule()));
    return switch (result) {
      case CompileResult.Compiled c -> c.config();
      case CompileResult.Rejected r -> fail("the example is rejected:\n" + lines(r.diagnostics()));
    };
  }

  /**
   * The object as the examples show it: without {@code apiVersion}, {@code kind} and an empty
   * {@code metadata} (the output always has one).
   */
  private static JsonNode body(JsonNode object) {
    var copy = (ObjectNode) object.deepCopy();
    copy.remove("apiVersion");
    copy.remove("kind");
    if (copy.path("metadata").isEmpty()) {
      copy.remove("metadata");
    }
    return copy;
  }
}
