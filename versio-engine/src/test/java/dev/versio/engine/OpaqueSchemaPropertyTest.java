package dev.versio.engine;

import static dev.versio.engine.Fixtures.*;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.versio.engine.json.EngineJson;
import dev.versio.engine.route.Router;
import dev.versio.engine.rule.Strategy;
import dev.versio.engine.rule.catalog.StrategyCatalog;
import dev.versio.engine.runtime.ConversionException;
import dev.versio.engine.schema.SchemaConformance;
import dev.versio.engine.schema.SchemaNode;
import dev.versio.engine.schema.SchemaSource;
import dev.versio.engine.schema.VersionSchema;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every strategy's example, compiled once against its typed schemas and once against schemas that
 * leave {@code spec} opaque ({@code x-kubernetes-preserve-unknown-fields}, as several large
 * projects ship their CRDs): where the opaque config compiles, the analysis never calls it
 * verifiable, and random objects valid for the typed schema convert the same through both plans (or
 * are refused by both). Compiling, analysing or converting never throws anything but a conversion
 * error. The seed is printed; rerun one with {@code -Dversio.seed=<seed>}.
 */
class OpaqueSchemaPropertyTest {
  private static final int OBJECTS = 200;
  private static final long SEED = Long.getLong("versio.seed", System.nanoTime());

  /**
   * Strategies whose typed plan uses what the schema declares, so an opaque plan may rightly
   * differ, and why.
   */
  private static final Map<Strategy, String> SCHEMA_DRIVEN =
      Map.of(
          Strategy.SCALAR_TO_FIELDS,
          "each part is written as its field's declared type; opaque fields are written as text");

  static Stream<Arguments> strategies() {
    System.out.println(
        "OpaqueSchemaPropertyTest seed: " + SEED + " (rerun with -Dversio.seed=" + SEED + ")");
    return Stream.of(Strategy.values()).map(Arguments::of);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("strategies")
  void anOpaqueSpecIsNeverCalledVerifiableAndConvertsAsTheTypedOneDoes(Strategy strategy) {
    var example = StrategyCatalog.of(strategy).example();
    var typed = target(example.hubSchema(), example.spokeSchema());
    var opaque =
        target(
            new VersionSchema("v2", true, true, opaqueSpec()),
            new VersionSchema("v1", true, false, opaqueSpec()));
    var config = spokeRules(example.rule());

    var report = analyzed(opaque, config);
    Assumptions.assumeFalse(
        report.hasErrors(), "the rule needs the schema to resolve: " + lines(report.diagnostics()));
    assertThat(report.spokes().getFirst().verifiable())
        .as("an opaque spec is never called verifiable")
        .isFalse();
    Assumptions.assumeFalse(SCHEMA_DRIVEN.containsKey(strategy), () -> SCHEMA_DRIVEN.get(strategy));
    var typedRouter = new Router(compiled(typed, config), GROUP);
    var opaqueRouter = new Router(compiled(opaque, config), GROUP);
    var random = new RandomObjects(new Random(SEED + strategy.ordinal()));
    for (var from : new String[] {"v2", "v1"}) {
      var to = from.equals("v2") ? "v1" : "v2";
      var schema = schemaOf(typed, from);
      for (int i = 0; i < OBJECTS; i++) {
        var object = random.object(schema, GROUP + "/" + from);
        if (!SchemaConformance.check(object, schema).isEmpty()) {
          continue;
        }
        var viaTyped = convert(typedRouter, object, from, to);
        var viaOpaque = convert(opaqueRouter, object, from, to);
        assertThat(
                viaTyped == null
                    ? viaOpaque == null
                    : viaOpaque != null && EngineJson.sameValue(viaTyped, viaOpaque))
            .as(
                "%s -> %s of object %d (seed %d):%n in:     %s%n typed:  %s%n opaque: %s",
                from, to, i, SEED, object, viaTyped, viaOpaque)
            .isTrue();
      }
    }
  }

  /** The converted object, or null when the plan refuses it with a conversion error. */
  private static JsonNode convert(Router router, JsonNode object, String from, String to) {
    try {
      return router.convert(object, from, to);
    } catch (ConversionException e) {
      return null;
    }
  }

  private static SchemaNode schemaOf(SchemaSource target, String version) {
    return target.versions().stream()
        .filter(v -> v.name().equals(version))
        .findFirst()
        .orElseThrow()
        .schema();
  }

  private static SchemaNode opaqueSpec() {
    return SchemaNode.parse(
        yaml(
            """
            type: object
            properties:
              apiVersion: {type: string}
              kind: {type: string}
              metadata: {type: object}
              spec: {type: object, x-kubernetes-preserve-unknown-fields: true}
            """));
  }
}
