package dev.versio.engine;

import static dev.versio.engine.Fixtures.GROUP;
import static dev.versio.engine.Fixtures.analyzed;
import static dev.versio.engine.Fixtures.compile;
import static dev.versio.engine.Fixtures.lines;
import static dev.versio.engine.Fixtures.spokeRules;
import static dev.versio.engine.Fixtures.target;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
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
import dev.versio.engine.schema.SchemaConformance;
import dev.versio.engine.schema.SchemaPruning;
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

  /**
   * On generated configs loud refusals are not bounded: a generated enum or pattern may leave a
   * rule no value it converts (an error the user sees at once, not a loss).
   */
  private static final int LOUD_IN_GENERATED = OBJECTS;

  static void assertRoundTrips(
      Router router, SchemaSource target, Direction direction, long seed, boolean narrower) {
    assertRoundTrips(router, target, direction, seed, narrower ? OBJECTS * 7 / 10 : OBJECTS / 20);
  }

  private static dev.versio.engine.schema.SchemaNode schemaOf(SchemaSource target, String version) {
    return target.versions().stream()
        .filter(v -> v.name().equals(version))
        .findFirst()
        .orElseThrow()
        .schema();
  }

  static void assertRoundTrips(
      Router router, SchemaSource target, Direction direction, long seed, int maxLoud) {
    var random = new RandomObjects(new Random(seed));
    var schema =
        target.versions().stream()
            .filter(v -> v.name().equals(direction.from))
            .findFirst()
            .orElseThrow()
            .schema();
    int loud = 0;
    int invalid = 0;
    String firstInvalid = null;
    for (int i = 0; i < OBJECTS; i++) {
      var original = random.object(schema, GROUP + "/" + direction.from);
      var findings = SchemaConformance.check(original, schema);
      if (!findings.isEmpty()) {
        invalid++;
        firstInvalid = firstInvalid == null ? findings.getFirst().message() : firstInvalid;
        continue;
      }
      try {
        var there = router.convert(original, direction.from, direction.via);
        var viaSchema = schemaOf(target, direction.via);
        // back from what the apiserver would store there, not from what the converter wrote
        var back =
            router.convert(SchemaPruning.prune(there, viaSchema), direction.via, direction.from);
        assertThat(EngineJson.sameValue(back, original))
            .as(
                "%s is called lossless, but object %d (seed %d) changed:%n in:  %s%n out: %s",
                direction.wire, i, seed, original, back)
            .isTrue();
      } catch (ConversionException e) {
        loud++;
      }
    }
    assertThat(invalid)
        .as("random objects the schema refuses (seed %d), e.g. %s", seed, firstInvalid)
        .isLessThan(OBJECTS / 10);
    assertThat(loud)
        .as("random valid objects refused loudly (seed %d)", seed)
        .isLessThanOrEqualTo(maxLoud);
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
    example.before().stream()
        .filter(f -> f.value() != null)
        .forEach(f -> Tree.set(object, f.path(), f.value().deepCopy()));
    JsonNode back;
    JsonNode there;
    try {
      there = router.convert(object, direction.from, direction.via);
    } catch (ConversionException e) {
      fail("the counterexample %s fails loudly through the plan: %s", example, e.getMessage());
      return;
    }
    if (example.failure() != null) {
      // a value that converts but cannot be converted back: the plan must refuse it there too
      var converted = there;
      assertThatThrownBy(() -> router.convert(converted, direction.via, direction.from))
          .as("the counterexample %s cannot be converted back through the plan", example)
          .isInstanceOf(ConversionException.class);
      return;
    }
    try {
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

  private static final int VARIANTS_PER_STRATEGY = 12;

  /**
   * Configs generated from each strategy's example: its boolean options flipped at random, and
   * {@code enum}s of random probe values put on the scalar fields of either schema (so that some
   * losses are ruled out by the schema and some are not). Acknowledged, so that every variant that
   * resolves compiles.
   */
  static Stream<Arguments> generatedConfigs() {
    var random = new Random(SEED);
    return Stream.of(Strategy.values())
        .flatMap(
            s ->
                java.util.stream.IntStream.range(0, VARIANTS_PER_STRATEGY)
                    .mapToObj(
                        n -> {
                          var example = StrategyCatalog.of(s).example();
                          var hub = (ObjectNode) Fixtures.yaml(example.hubSchema());
                          var spoke = (ObjectNode) Fixtures.yaml(example.spokeSchema());
                          constrain(hub, spoke, random);
                          constrain(spoke, null, random);
                          return Arguments.of(
                              s,
                              n,
                              hub.toString(),
                              spoke.toString(),
                              ruleVariant(example.rule(), random));
                        }));
  }

  @ParameterizedTest(name = "{0} variant {1}")
  @MethodSource("generatedConfigs")
  void onGeneratedConfigsALossyDirectionIsNeverReportedLossless(
      Strategy strategy, int variant, String hubSchema, String spokeSchema, String rule) {
    var target = target(hubSchema, spokeSchema);
    var config = spokeRules(rule);
    var report = analyzed(target, config);
    org.junit.jupiter.api.Assumptions.assumeFalse(
        report.hasErrors(), "the variant does not resolve: " + lines(report.diagnostics()));
    var router = new Router(compiled(target, config), GROUP);
    var result = report.spokes().getFirst().ruleResults().getFirst();
    for (var direction : Direction.values()) {
      boolean lossless =
          direction == Direction.HUB_TO_SPOKE
              ? result.lossless().hubToSpoke()
              : result.lossless().spokeToHub();
      boolean shown =
          result.counterexamples().stream().anyMatch(c -> c.direction().equals(direction.wire));
      if (lossless || !shown) {
        // a lossy verdict without a counterexample is conservative, never wrong: then no object
        // may change either (the analysis could not prove what the schema rules out)
        assertRoundTrips(router, target, direction, SEED + variant, LOUD_IN_GENERATED);
      } else {
        assertShowsARealCounterexample(strategy, router, result, direction);
      }
    }
  }

  /**
   * Every strategy's example moved inside a {@code ForEach} over a list of such objects: a
   * direction called lossless there must keep random valid lists unchanged through what the
   * apiserver would store (a rule that writes where an element has no field, as {@code
   * ToAnnotation} once wrote element metadata, fails here).
   */
  static Stream<Arguments> insideForEach() {
    return Stream.of(Strategy.values()).filter(s -> s != Strategy.FOR_EACH).map(Arguments::of);
  }

  @ParameterizedTest(name = "{0} inside a ForEach")
  @MethodSource("insideForEach")
  void aLosslessVerdictHoldsInsideAForEachForRandomLists(Strategy strategy) {
    var example = StrategyCatalog.of(strategy).example();
    var target = target(listOf(example.hubSchema()), listOf(example.spokeSchema()));
    var inner =
        example
            .rule()
            .replace("object.spec.", "object.")
            .replace("\"spec.", "\"")
            .replace("spec.", "");
    var config =
        spokeRules(
            "- strategy: ForEach\n  acknowledgeLossy: true\n  forEach:\n"
                + "    hubItemsPath: spec.items\n    spokeItemsPath: spec.items\n    rules:\n"
                + inner.indent(6));
    var report = analyzed(target, config);
    org.junit.jupiter.api.Assumptions.assumeFalse(
        report.hasErrors(),
        "the example does not apply to list elements: " + lines(report.diagnostics()));
    var router = new Router(compiled(target, config), GROUP);
    var verdict = report.spokes().getFirst().ruleResults().getFirst().lossless();
    for (var direction : Direction.values()) {
      boolean lossless =
          direction == Direction.HUB_TO_SPOKE ? verdict.hubToSpoke() : verdict.spokeToHub();
      if (lossless) {
        // one element refused refuses the whole list: refusals are bounded loosely, changes not
        assertRoundTrips(router, target, direction, SEED, true);
      }
    }
  }

  /** The spec properties of an example as the element schema of a list {@code spec.items}. */
  private static String listOf(String properties) {
    return "items:\n  type: array\n  items:\n    type: object\n    properties:\n"
        + properties.indent(6);
  }

  private static final java.util.List<String> TEXTS =
      java.util.List.of("a", "7", "05", "a,b", "x y", "True", "1Gi", "90m", "1h", "-");

  /** Patterns and lengths that rule some losses out and leave others in. */
  private static final java.util.List<String> BOUNDS =
      java.util.List.of(
          "{pattern: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$'}",
          "{pattern: '^[0-9]+$'}",
          "{pattern: '^(0|[1-9][0-9]*)$'}",
          "{pattern: '^[a-z,]+$'}",
          "{pattern: '^(true|false)$'}",
          "{pattern: '^[0-9]+(m|s|h)$'}",
          "{maxLength: 1}",
          "{maxLength: 3, minLength: 1}");

  private static final java.util.List<Integer> INTEGERS = java.util.List.of(0, 5, 100, -3, 1024);
  private static final java.util.List<Double> NUMBERS = java.util.List.of(0.5, 1.5, 2.0, 0.001);

  /**
   * Puts an {@code enum} on about half of the unconstrained scalar fields (and array items, map
   * values) under {@code properties}; the same enum on the field of the same path and type in
   * {@code twin}, when given, so that fields both versions share stay identical.
   */
  private static void constrain(ObjectNode properties, ObjectNode twin, Random random) {
    properties
        .properties()
        .forEach(
            e -> constrainNode(e.getValue(), twin == null ? null : twin.get(e.getKey()), random));
  }

  private static void constrainNode(JsonNode node, JsonNode twin, Random random) {
    if (!(node instanceof ObjectNode o)
        || o.has("enum")
        || o.has("pattern")
        || o.has("maxLength")
        || o.has("minLength")) {
      return;
    }
    var other = twin instanceof ObjectNode t && t.path("type").equals(o.path("type")) ? t : null;
    for (var nested : java.util.List.of("properties", "items", "additionalProperties")) {
      if (o.get(nested) instanceof ObjectNode child) {
        var otherChild = other == null ? null : other.get(nested);
        if (nested.equals("properties")) {
          constrain(child, otherChild instanceof ObjectNode oc ? oc : null, random);
        } else {
          constrainNode(child, otherChild, random);
        }
      }
    }
    var type = o.path("type").asText();
    if (random.nextInt(2) == 0
        || !java.util.Set.of("string", "integer", "number", "boolean").contains(type)) {
      return;
    }
    if (type.equals("string") && random.nextInt(3) == 0) {
      var bound = BOUNDS.get(random.nextInt(BOUNDS.size()));
      o.setAll((ObjectNode) Fixtures.yaml(bound));
      if (other != null && !other.has("enum") && !other.has("pattern")) {
        other.setAll((ObjectNode) Fixtures.yaml(bound));
      }
      return;
    }
    var values = o.putArray("enum");
    int n = 1 + random.nextInt(3);
    for (int i = 0; i < n; i++) {
      switch (type) {
        case "string" -> values.add(TEXTS.get(random.nextInt(TEXTS.size())));
        case "integer" -> values.add(INTEGERS.get(random.nextInt(INTEGERS.size())));
        case "number" -> values.add(NUMBERS.get(random.nextInt(NUMBERS.size())));
        default -> values.add(random.nextBoolean());
      }
    }
    if (other != null && !other.has("enum")) {
      other.set("enum", values.deepCopy());
    }
  }

  /** The rule with its boolean options flipped at random, acknowledged. */
  private static String ruleVariant(String ruleYaml, Random random) {
    var rule = (ObjectNode) Fixtures.yaml(ruleYaml).get(0);
    rule.properties()
        .forEach(
            e -> {
              if (e.getValue() instanceof ObjectNode params) {
                params.properties().stream()
                    .filter(p -> p.getValue().isBoolean() && !p.getKey().equals("losslessOverride"))
                    .map(java.util.Map.Entry::getKey)
                    .toList()
                    .forEach(k -> params.put(k, random.nextBoolean()));
              }
            });
    rule.put("acknowledgeLossy", true).put("reason", "generated");
    return "- " + rule;
  }

  static CompiledConfig compiled(SchemaSource target, String config) {
    return switch (compile(target, config)) {
      case CompileResult.Compiled c -> c.config();
      case CompileResult.Rejected r -> fail("rejected:\n" + lines(r.diagnostics()));
    };
  }
}
