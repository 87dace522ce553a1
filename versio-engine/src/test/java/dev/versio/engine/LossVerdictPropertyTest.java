package dev.versio.engine;

import static dev.versio.engine.Fixtures.GROUP;
import static dev.versio.engine.Fixtures.analyzed;
import static dev.versio.engine.Fixtures.compile;
import static dev.versio.engine.Fixtures.lines;
import static dev.versio.engine.Fixtures.spokeRules;
import static dev.versio.engine.Fixtures.target;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.versio.engine.compile.CompileResult;
import dev.versio.engine.compile.CompiledConfig;
import dev.versio.engine.compile.Counterexample;
import dev.versio.engine.compile.RuleResult;
import dev.versio.engine.json.EngineJson;
import dev.versio.engine.route.Router;
import dev.versio.engine.rule.Strategy;
import dev.versio.engine.rule.catalog.StrategyCatalog;
import dev.versio.engine.runtime.ConversionException;
import dev.versio.engine.runtime.Tree;
import dev.versio.engine.schema.SchemaSource;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The analysis's verdict agrees with what conversions do, for every strategy (each catalog example)
 * in each direction: where it says lossless, random objects valid at the source survive the round
 * trip (or fail loudly, within a strict bound); where it says lossy, it shows a counterexample, and
 * that counterexample, converted through the whole plan, really does not come back as it was. The
 * seed is printed; rerun one with {@code -Dversio.seed=<seed>}.
 */
class LossVerdictPropertyTest {
  private static final int OBJECTS = 500;
  private static final long SEED = Long.getLong("versio.seed", System.nanoTime());

  /**
   * Where random objects valid for the schema may be refused loudly more often than 1 in 20, and
   * why: the rule accepts fewer values than the schema (a loud refusal is an error the user sees,
   * not a loss). Everywhere else at most 5% may be refused; everywhere at least 30% must convert.
   */
  private static final java.util.Map<String, String> NARROWER_THAN_THE_SCHEMA =
      java.util.Map.of(
          "FieldsToMap spoke->hub",
              "map keys the rule does not name are refused (onUnknown: Error)",
          "MapToFields hub->spoke",
              "map keys the rule does not name are refused (onUnknown: Error)",
          "JSONPatch hub->spoke", "the patch needs the fields it moves",
          "JSONPatch spoke->hub", "the patch needs the fields it moves",
          "ScalarToFields hub->spoke", "text not matching the rule's pattern is refused",
          "ScalarToFields spoke->hub", "parts the join template cannot split back are refused",
          "FieldsToScalar hub->spoke", "parts the join template cannot split back are refused",
          "FieldsToScalar spoke->hub", "text not matching the rule's pattern is refused",
          "Duration hub->spoke", "text that is not a duration is refused");

  /** The strategies the engine cannot run backwards in general: no counterexample is promised. */
  private static final java.util.Set<Strategy> SCRIPTS = java.util.Set.of(Strategy.CEL);

  static Stream<Arguments> directions() {
    System.out.println(
        "LossVerdictPropertyTest seed: " + SEED + " (rerun with -Dversio.seed=" + SEED + ")");
    return Stream.of(Strategy.values())
        .flatMap(
            s ->
                Stream.of(
                    Arguments.of(s, Direction.HUB_TO_SPOKE),
                    Arguments.of(s, Direction.SPOKE_TO_HUB)));
  }

  enum Direction {
    HUB_TO_SPOKE("v2", "v1", "hub->spoke"),
    SPOKE_TO_HUB("v1", "v2", "spoke->hub");

    final String from;
    final String via;
    final String wire;

    Direction(String from, String via, String wire) {
      this.from = from;
      this.via = via;
      this.wire = wire;
    }
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("directions")
  void aLosslessVerdictHoldsForRandomObjectsAndALossyOneShowsARealCounterexample(
      Strategy strategy, Direction direction) {
    var example = StrategyCatalog.of(strategy).example();
    var target = target(example.hubSchema(), example.spokeSchema());
    var config = spokeRules(example.rule());
    var router = new Router(compiled(target, config), GROUP);
    var rule = analyzed(target, config).spokes().getFirst().ruleResults().getFirst();
    boolean lossless =
        direction == Direction.HUB_TO_SPOKE
            ? rule.lossless().hubToSpoke()
            : rule.lossless().spokeToHub();
    if (lossless) {
      assertRoundTrips(
          router,
          target,
          direction,
          SEED + strategy.ordinal(),
          NARROWER_THAN_THE_SCHEMA.containsKey(strategy.wireName() + " " + direction.wire));
    } else {
      assertShowsARealCounterexample(strategy, router, rule, direction);
    }
  }

  static void assertRoundTrips(
      Router router, SchemaSource target, Direction direction, long seed, boolean narrower) {
    var random = new RandomObjects(new Random(seed));
    var schema =
        target.versions().stream()
            .filter(v -> v.name().equals(direction.from))
            .findFirst()
            .orElseThrow()
            .schema();
    int loud = 0;
    for (int i = 0; i < OBJECTS; i++) {
      var original = random.object(schema, GROUP + "/" + direction.from);
      try {
        var there = router.convert(original, direction.from, direction.via);
        var back = router.convert(there, direction.via, direction.from);
        assertThat(EngineJson.sameValue(back, original))
            .as(
                "%s is called lossless, but object %d (seed %d) changed:%n in:  %s%n out: %s",
                direction.wire, i, seed, original, back)
            .isTrue();
      } catch (ConversionException e) {
        loud++;
      }
    }
    assertThat(loud)
        .as("random valid objects refused loudly (seed %d)", seed)
        .isLessThanOrEqualTo(narrower ? OBJECTS * 7 / 10 : OBJECTS / 20);
  }

  static void assertShowsARealCounterexample(
      Strategy strategy, Router router, RuleResult rule, Direction direction) {
    var found =
        rule.counterexamples().stream()
            .filter(c -> c.direction().equals(direction.wire))
            .findFirst();
    if (SCRIPTS.contains(strategy) && found.isEmpty()) {
      return;
    }
    assertThat(found).as("the counterexample of a lossy %s verdict", direction.wire).isPresent();
    var example = found.get();
    var object = EngineJson.nodes().objectNode();
    object.put("apiVersion", GROUP + "/" + direction.from).put("kind", "Widget");
    object.putObject("metadata").put("name", "w");
    example.before().forEach(f -> Tree.set(object, f.path(), f.value().deepCopy()));
    com.fasterxml.jackson.databind.JsonNode back;
    try {
      var there = router.convert(object, direction.from, direction.via);
      back = router.convert(there, direction.via, direction.from);
    } catch (ConversionException e) {
      fail("the counterexample %s fails loudly through the plan: %s", example, e.getMessage());
      return;
    }
    for (Counterexample.Field f : example.after()) {
      var now = Tree.get(back, f.path());
      assertThat(
              now == null
                  ? f.value() == null
                  : f.value() != null && EngineJson.sameValue(now, f.value()))
          .as("%s through the whole plan: %s is %s", example, f.name(), now)
          .isTrue();
    }
    assertThat(EngineJson.sameValue(back, object))
        .as("the counterexample %s changes through the whole plan", example)
        .isFalse();
  }

  static CompiledConfig compiled(SchemaSource target, String config) {
    return switch (compile(target, config)) {
      case CompileResult.Compiled c -> c.config();
      case CompileResult.Rejected r -> fail("rejected:\n" + lines(r.diagnostics()));
    };
  }
}
