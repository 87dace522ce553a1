package dev.versio.engine;

import static dev.versio.engine.Fixtures.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.versio.engine.json.EngineJson;
import dev.versio.engine.route.Router;
import dev.versio.engine.runtime.ConversionException;
import dev.versio.engine.schema.SchemaSource;
import dev.versio.engine.schema.VersionSchema;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * For every direction the compiler calls lossless, random objects valid for its source side survive
 * a round trip through the other side unchanged — or fail loudly with a ConversionException (never
 * a silent loss). The seed is printed; rerun one with {@code -Dversio.seed=<seed>}.
 */
class RoundTripPropertyTest {
  private static final int OBJECTS_PER_CONFIG = 1000;
  private static final long SEED = Long.getLong("versio.seed", System.nanoTime());

  record Case(String name, SchemaSource target, String config) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> configs() {
    System.out.println(
        "RoundTripPropertyTest seed: " + SEED + " (rerun with -Dversio.seed=" + SEED + ")");
    return Stream.of(
        new Case(
            "fieldRename + identical leaves of every kind",
            target(
                """
            replicas: {type: integer}
            image: {type: string}
            ratio: {type: number}
            on: {type: boolean}
            tags: {type: array, items: {type: string}}
            limits: {type: object, additionalProperties: {type: integer}}
            extra: {type: object, x-kubernetes-preserve-unknown-fields: true}
            port: {x-kubernetes-int-or-string: true}
            nested: {type: object, properties: {a: {type: string}, b: {type: object, properties: {c: {type: integer}}}}}
            """,
                """
            size: {type: integer}
            image: {type: string}
            ratio: {type: number}
            on: {type: boolean}
            tags: {type: array, items: {type: string}}
            limits: {type: object, additionalProperties: {type: integer}}
            extra: {type: object, x-kubernetes-preserve-unknown-fields: true}
            port: {x-kubernetes-int-or-string: true}
            nested: {type: object, properties: {a: {type: string}, b: {type: object, properties: {c: {type: integer}}}}}
            """),
            spokeRules(
                """
            - strategy: FieldRename
              fieldRename: {hubPath: spec.replicas, spokePath: spec.size}
            """)),
        new Case(
            "when-gated defaultValue: the hub side reads nothing the gate skips",
            target(
                """
            plan: {type: string, enum: [enterprise, team]}
            burst: {type: integer}
            name: {type: string}
            """,
                """
            plan: {type: string, enum: [enterprise, team]}
            burst: {type: integer}
            tier: {type: string}
            name: {type: string}
            """),
            spokeRules(
                """
            - strategy: DefaultValue
              defaultValue: {path: spec.tier, existsOn: Spoke, default: gold}
              when: {path: spec.plan, equals: enterprise}
              acknowledgeLossy: true
            """)),
        new Case(
            "enumRemap",
            target(
                "tier: {type: string, enum: [Premium, Basic, Free]}\nname: {type: string}",
                "tier: {type: string, enum: [P, B, F]}\nname: {type: string}"),
            spokeRules(
                """
            - strategy: EnumRemap
              enumRemap: {path: spec.tier, mapping: [{hub: Premium, spoke: P}, {hub: Basic, spoke: B}, {hub: Free, spoke: F}]}
            """)),
        new Case(
            "objectToScalar + singletonArrayToObject",
            target(
                """
            endpoint: {type: object, required: [url], properties: {url: {type: string}}}
            listeners: {type: array, maxItems: 1, items: {type: object, properties: {port: {type: integer}}}}
            """,
                """
            endpointURL: {type: string}
            listener: {type: object, properties: {port: {type: integer}}}
            """),
            spokeRules(
                """
            - strategy: ObjectToScalar
              objectToScalar: {hubPath: spec.endpoint, spokePath: spec.endpointURL, key: url}
            - strategy: SingletonArrayToObject
              singletonArrayToObject: {hubPath: spec.listeners, spokePath: spec.listener}
            """)),
        new Case(
            "fieldsToMap + toAnnotation with restore",
            target(
                """
            team: {type: string}
            cc: {type: string}
            notes: {type: object, properties: {text: {type: string}, n: {type: number}}}
            """,
                "billing: {type: object, additionalProperties: {type: string}}"),
            spokeRules(
                """
            - strategy: FieldsToMap
              fieldsToMap: {hubPaths: [spec.team, spec.cc], spokeMapPath: spec.billing}
            - strategy: ToAnnotation
              toAnnotation: {hubPath: spec.notes, key: example.test/notes, restoreOnReverse: true}
            """)),
        new Case(
            "forEach over two levels",
            target(
                """
            pools:
              type: array
              items:
                type: object
                properties:
                  vmSize: {type: string}
                  taints: {type: array, items: {type: object, properties: {effectName: {type: string}, key: {type: string}}}}
            """,
                """
            pools:
              type: array
              items:
                type: object
                properties:
                  size: {type: string}
                  taints: {type: array, items: {type: object, properties: {effect: {type: string}, key: {type: string}}}}
            """),
            spokeRules(
                """
            - strategy: ForEach
              forEach:
                hubItemsPath: spec.pools
                spokeItemsPath: spec.pools
                rules:
                  - strategy: FieldRename
                    fieldRename: {hubPath: vmSize, spokePath: size}
                  - strategy: ForEach
                    forEach:
                      hubItemsPath: taints
                      spokeItemsPath: taints
                      rules:
                        - {strategy: FieldRename, fieldRename: {hubPath: effectName, spokePath: effect}}
            """)),
        new Case(
            "typeCoerce, numericScale, quantity, duration towards text",
            target(
                """
            port: {type: integer}
            timeoutMs: {type: number}
            memoryMilli: {type: integer}
            graceSeconds: {type: integer}
            """,
                """
            port: {type: string}
            timeoutSec: {type: number}
            memoryMilli: {type: string}
            graceSeconds: {type: string}
            """),
            spokeRules(
                """
            - {strategy: TypeCoerce, typeCoerce: {path: spec.port}, acknowledgeLossy: true}
            - {strategy: NumericScale, numericScale: {hubPath: spec.timeoutMs, spokePath: spec.timeoutSec, factor: 1000}}
            - {strategy: Quantity, quantity: {hubPath: spec.memoryMilli, spokePath: spec.memoryMilli}, acknowledgeLossy: true}
            - {strategy: Duration, duration: {hubPath: spec.graceSeconds, spokePath: spec.graceSeconds}, acknowledgeLossy: true}
            """)),
        new Case(
            "listJoin of integers, listSplit of strings",
            target(
                """
            ports: {type: array, items: {type: integer}}
            scopesText: {type: string}
            """,
                """
            ports: {type: string}
            scopesText: {type: array, items: {type: string}}
            """),
            spokeRules(
                """
            - {strategy: ListJoin, listJoin: {hubPath: spec.ports, spokePath: spec.ports, separator: ','}, acknowledgeLossy: true}
            - {strategy: ListSplit, listSplit: {hubPath: spec.scopesText, spokePath: spec.scopesText, separator: ' '}, acknowledgeLossy: true}
            """)),
        new Case(
            "mapToArrayByKey + mapKeyRename",
            target(
                """
            quotas: {type: object, additionalProperties: {type: object, properties: {limit: {type: integer}}}}
            labels: {type: object, additionalProperties: {type: string}}
            """,
                """
            quotas: {type: array, items: {type: object, properties: {resource: {type: string}, limit: {type: integer}}}}
            labels: {type: object, additionalProperties: {type: string}}
            """),
            spokeRules(
                """
            - {strategy: MapToArrayByKey, mapToArrayByKey: {hubPath: spec.quotas, spokePath: spec.quotas, keyField: resource}, acknowledgeLossy: true}
            - {strategy: MapKeyRename, mapKeyRename: {hubPath: spec.labels, spokePath: spec.labels, renames: {a: b, c: d}}}
            """)));
  }

  /** Every direction the compiler calls lossless, as (config, from, via). */
  static Stream<Arguments> losslessDirections() {
    return configs()
        .flatMap(
            c -> {
              var verdict = compiled(c.target(), c.config()).plans().get("v1").verdict();
              var directions = Stream.<Arguments>builder();
              if (verdict.hubToSpoke()) {
                directions.add(Arguments.of(c, "v2", "v1"));
              }
              if (verdict.spokeToHub()) {
                directions.add(Arguments.of(c, "v1", "v2"));
              }
              return directions.build();
            });
  }

  @ParameterizedTest(name = "{0}: {1}->{2}->{1}")
  @MethodSource("losslessDirections")
  void objectsSurviveARoundTripInEveryLosslessDirection(Case c, String from, String via) {
    var router = new Router(compiled(c.target(), c.config()), GROUP);
    roundTrip(router, version(c.target(), from), from, via, SEED + from.hashCode());
  }

  private static void roundTrip(
      Router router, VersionSchema start, String from, String via, long seed) {
    var random = new RandomObjects(new Random(seed));
    int converted = 0;
    for (int i = 0; i < OBJECTS_PER_CONFIG; i++) {
      var original = random.object(start.schema(), GROUP + "/" + from);
      try {
        var before = original.deepCopy();
        var there = router.convert(original, from, via);
        var thereBefore = there.deepCopy();
        var back = router.convert(there, via, from);
        assertThat(original)
            .as("object %d (seed %d): converting %s->%s changed its input", i, seed, from, via)
            .isEqualTo(before);
        assertThat(there)
            .as("object %d (seed %d): converting %s->%s changed its input", i, seed, via, from)
            .isEqualTo(thereBefore);
        assertThat(EngineJson.sameValue(back, original))
            .as(
                "object %d (seed %d) changed on the round trip %s->%s->%s:%n in:  %s%n out: %s",
                i, seed, from, via, from, original, back)
            .isTrue();
        converted++;
      } catch (ConversionException e) {
        // a loud failure is allowed (e.g. an unknown map key under Error); a silent change is not
      }
    }
    assertThat(converted)
        .as("objects that converted (the rest failed loudly)")
        .isGreaterThan(OBJECTS_PER_CONFIG / 5);
  }

  private static VersionSchema version(SchemaSource target, String name) {
    return target.versions().stream().filter(v -> v.name().equals(name)).findFirst().orElseThrow();
  }
}
