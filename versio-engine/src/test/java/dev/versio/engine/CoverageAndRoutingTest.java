package dev.versio.engine;

import static dev.versio.engine.Fixtures.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.versio.engine.compile.Verdict;
import dev.versio.engine.diagnostic.DiagnosticCode;
import dev.versio.engine.json.EngineJson;
import dev.versio.engine.route.Router;
import dev.versio.engine.runtime.ConversionException;
import dev.versio.engine.schema.SchemaNode;
import dev.versio.engine.schema.VersionSchema;
import org.junit.jupiter.api.Test;

class CoverageAndRoutingTest {
  private static final String SAME =
      """
      name: {type: string}
      tags: {type: array, items: {type: string}}
      limits: {type: object, additionalProperties: {type: integer}}
      extra: {type: object, x-kubernetes-preserve-unknown-fields: true}
      port: {x-kubernetes-int-or-string: true}
      choice: {oneOf: [{type: string}, {type: integer}]}
      """;

  @Test
  void identicalLeavesAreCoveredWithoutRulesAndCopiedVerbatim() {
    var router = router(target(SAME, SAME), spokeRules("[]"));
    var object =
        object(
            """
        kind: Widget
        metadata: {name: w}
        spec: {name: a, tags: [x, y], limits: {cpu: 2}, extra: {any: {thing: 1}}, port: http, choice: 3}
        """);
    var converted = router.convert(object, "v2", "v1");
    assertThat(converted.path("spec")).isEqualTo(object.path("spec"));
    assertThat(converted.path("apiVersion").asText()).isEqualTo("example.test/v1");
  }

  @Test
  void arrayItemShapesAreComparedNotJustTheArray() {
    var diagnostics =
        rejected(
            target(
                "tags: {type: array, items: {type: string}}",
                "tags: {type: array, items: {type: integer}}"),
            spokeRules("[]"));
    assertThat(diagnostics)
        .anySatisfy(
            d -> {
              assertThat(d.path()).isEqualTo("spec.tags[]");
              assertThat(d.message()).contains("string").contains("integer");
            });
  }

  @Test
  void aRenameOfArraysWithDifferentElementsIsRejectedWithAForEachHint() {
    var diagnostics =
        rejected(
            target(
                "a: {type: array, items: {type: object, properties: {x: {type: string}}}}",
                "b: {type: array, items: {type: object, properties: {y: {type: string}}}}"),
            spokeRules(
                "- strategy: FieldRename\n  fieldRename: {hubPath: spec.a, spokePath: spec.b}"));
    assertThat(diagnostics)
        .singleElement()
        .satisfies(
            d -> {
              assertThat(d.code()).isEqualTo(DiagnosticCode.SHAPE_MISMATCH);
              assertThat(d.hint()).contains("ForEach");
            });
  }

  @Test
  void aRenameOfIdenticalObjectsCarriesTheirChildren() {
    var object = "o: {type: object, properties: {x: {type: string}, y: {type: integer}}}";
    var router =
        router(
            target(object, object.replace("o:", "p:")),
            spokeRules(
                "- strategy: FieldRename\n  fieldRename: {hubPath: spec.o, spokePath: spec.p}"));
    assertThat(router.convert(object("spec: {o: {x: a, y: 1}}"), "v2", "v1").path("spec"))
        .isEqualTo(object("p: {x: a, y: 1}"));
  }

  @Test
  void twoRulesClaimingOneFieldAreRejected() {
    var diagnostics =
        rejected(
            target("a: {type: string}", "b: {type: string}\nc: {type: string}"),
            spokeRules(
                """
        - strategy: FieldRename
          fieldRename: {hubPath: spec.a, spokePath: spec.b}
        - strategy: FieldRename
          fieldRename: {hubPath: spec.a, spokePath: spec.c}
        """));
    assertThat(diagnostics)
        .anySatisfy(
            d -> {
              assertThat(d.code()).isEqualTo(DiagnosticCode.DOUBLE_CLAIM);
              assertThat(d.ruleIndex()).isEqualTo(1);
              assertThat(d.message()).contains("rules[0]");
            });
  }

  @Test
  void anUnknownPathIsRejectedNamingWhatIsDeclared() {
    var diagnostics =
        rejected(
            target("a: {type: string}", "a: {type: string}"),
            spokeRules(
                "- strategy: FieldRename\n  fieldRename: {hubPath: spec.nope, spokePath: spec.a}"));
    assertThat(diagnostics)
        .anySatisfy(
            d -> {
              assertThat(d.code()).isEqualTo(DiagnosticCode.PATH_NOT_FOUND);
              assertThat(d.message()).contains("spec.nope").contains("declared: a");
            });
  }

  @Test
  void warnPolicyAcceptsUncoveredFieldsWithAReasonAndDropsThem() {
    var target = target("a: {type: string}\nold: {type: string}", "a: {type: string}");
    var compiled =
        compiled(
            target,
            "hubVersion: v2\nunmappedFieldPolicy: Warn\nunmappedFieldReason: old is obsolete\n"
                + "spokes:\n- version: v1\n  rules: []\n");
    assertThat(compiled.warnings())
        .extracting(d -> d.code())
        .containsExactly(DiagnosticCode.UNCOVERED_FIELD_DROPPED);
    assertThat(compiled.plans().get("v1").verdict()).isEqualTo(Verdict.LOSSLESS);
    var converted = new Router(compiled, GROUP).convert(object("spec: {a: x, old: y}"), "v2", "v1");
    assertThat(converted.path("spec")).isEqualTo(object("a: x"));
  }

  @Test
  void warnPolicyWithoutAReasonIsRejected() {
    var diagnostics =
        rejected(
            target("a: {type: string}", "a: {type: string}"),
            "hubVersion: v2\nunmappedFieldPolicy: Warn\nspokes:\n- version: v1\n  rules: []\n");
    assertThat(diagnostics)
        .extracting(d -> d.code())
        .containsExactly(DiagnosticCode.UNMAPPED_REASON_REQUIRED);
  }

  @Test
  void everyServedVersionMustBeTheHubOrASpoke() {
    var schema = specSchema("a: {type: string}");
    var target =
        target(
            new VersionSchema("v2", true, true, schema),
            new VersionSchema("v1", true, false, schema),
            new VersionSchema("v3", true, false, schema),
            new VersionSchema("v0", false, false, schema));
    var diagnostics = rejected(target, spokeRules("[]"));
    assertThat(diagnostics)
        .singleElement()
        .satisfies(
            d -> {
              assertThat(d.code()).isEqualTo(DiagnosticCode.SERVED_VERSION_NOT_COVERED);
              assertThat(d.message()).contains("v3");
            });
  }

  @Test
  void aSpokeNoLongerServedButStillStoredKeepsConvertingTheObjectsStoredAtIt() {
    // the CRD stopped serving v1 before its objects were re-stored at v2: the apiserver still
    // reads them at v1 and asks for them at v2
    var target =
        storing(
            java.util.List.of("v1", "v2"),
            new VersionSchema("v2", true, true, specSchema("size: {type: integer}")),
            new VersionSchema("v1", false, false, specSchema("replicas: {type: integer}")));
    var router =
        router(
            target,
            spokeRules(
                """
                - strategy: FieldRename
                  fieldRename: {hubPath: spec.size, spokePath: spec.replicas}
                """));

    var stored = object("apiVersion: example.test/v1\nkind: Widget\nspec: {replicas: 3}\n");
    assertThat(router.convert(stored, "v1", "v2").path("spec").path("size").asInt()).isEqualTo(3);
  }

  @Test
  void aVersionNoLongerServedButStillStoredMustKeepItsSpoke() {
    var schema = specSchema("a: {type: string}");
    var target =
        storing(
            java.util.List.of("v0", "v2"),
            new VersionSchema("v2", true, true, schema),
            new VersionSchema("v1", true, false, schema),
            new VersionSchema("v0", false, false, schema));
    var diagnostics = rejected(target, spokeRules("[]"));
    assertThat(diagnostics)
        .singleElement()
        .satisfies(
            d -> {
              assertThat(d.code()).isEqualTo(DiagnosticCode.STORED_VERSION_NOT_COVERED);
              assertThat(d.message()).contains("v0").contains("status.storedVersions");
              assertThat(d.hint()).contains("versio migrate-storage");
            });
  }

  @Test
  void aSpokeNeitherServedNorStoredIsReported() {
    var schema = specSchema("a: {type: string}");
    var target =
        storing(
            java.util.List.of("v2"),
            new VersionSchema("v2", true, true, schema),
            new VersionSchema("v1", false, false, schema));
    assertThat(rejected(target, spokeRules("[]")))
        .extracting(d -> d.code())
        .containsExactly(DiagnosticCode.SPOKE_NOT_SERVED);
  }

  @Test
  void theHubMustBeTheStorageVersion() {
    var schema = specSchema("a: {type: string}");
    var diagnostics =
        rejected(
            target(
                new VersionSchema("v2", true, false, schema),
                new VersionSchema("v1", true, true, schema)),
            spokeRules("[]"));
    assertThat(diagnostics)
        .extracting(d -> d.code())
        .containsExactly(DiagnosticCode.HUB_NOT_STORAGE);
  }

  @Test
  void undeclaredNestedFieldsPassThroughButUndeclaredTopLevelFieldsAreDropped() {
    var router = router(target("a: {type: string}", "a: {type: string}"), spokeRules("[]"));
    var converted =
        router.convert(
            object("spec: {a: x, crossplane: {compositionRef: {name: c}}}\nstray: 1"), "v2", "v1");
    assertThat(converted.path("spec"))
        .isEqualTo(object("a: x\ncrossplane: {compositionRef: {name: c}}"));
    assertThat(converted.has("stray")).isFalse();
  }

  @Test
  void undeclaredFieldsBelowSpecAndStatusPassThroughWhicheverComesFirstInTheObject() {
    var schema =
        SchemaNode.parse(
            object(
                """
                type: object
                properties:
                  metadata: {type: object}
                  spec: {type: object, properties: {a: {type: string}}}
                  status: {type: object, properties: {phase: {type: string}}}
                """));
    var router =
        router(
            target(
                new VersionSchema("v2", true, true, schema),
                new VersionSchema("v1", true, false, schema)),
            spokeRules("[]"));
    var converted =
        router.convert(
            object("status: {phase: Up, seen: {at: 1}}\nspec: {a: x, extra: {k: v}}"), "v2", "v1");
    assertThat(converted.path("spec")).isEqualTo(object("a: x\nextra: {k: v}"));
    assertThat(converted.path("status")).isEqualTo(object("phase: Up\nseen: {at: 1}"));
  }

  @Test
  void anUndeclaredFieldWhoseNameHashesLikeADeclaredOnePassesThroughAndTheDeclaredOneIsConverted() {
    // "Aa" and "BB" share String.hashCode: the schema lookup must still tell them apart
    assertThat("Aa".hashCode()).isEqualTo("BB".hashCode());
    var router =
        router(
            target(
                "Aa: {type: string}\nk: {type: object, properties: {BB: {type: string}}}",
                "Ab: {type: string}\nk: {type: object, properties: {BB: {type: string}}}"),
            spokeRules(
                "[{strategy: FieldRename, fieldRename: {hubPath: spec.Aa, spokePath: spec.Ab}}]"));
    var converted =
        router.convert(object("spec: {Aa: x, BB: stale, k: {BB: y, Aa: stale}}"), "v2", "v1");
    assertThat(converted.path("spec")).isEqualTo(object("Ab: x\nBB: stale\nk: {BB: y, Aa: stale}"));
  }

  @Test
  void anEmptyDeclaredObjectStaysAnEmptyObject() {
    var router = router(target("a: {type: string}", "a: {type: string}"), spokeRules("[]"));
    assertThat(router.convert(object("spec: {}"), "v2", "v1").path("spec")).isEqualTo(object("{}"));
  }

  @Test
  void spokeToSpokeGoesThroughTheHubAndSameVersionReturnsTheInput() {
    var schema2 = specSchema("replicas: {type: integer}");
    var target =
        target(
            new VersionSchema("v2", true, true, schema2),
            new VersionSchema("v1", true, false, specSchema("size: {type: integer}")),
            new VersionSchema("v3", true, false, specSchema("count: {type: integer}")));
    var router =
        router(
            target,
            """
        hubVersion: v2
        spokes:
        - version: v1
          rules: [{strategy: FieldRename, fieldRename: {hubPath: spec.replicas, spokePath: spec.size}}]
        - version: v3
          rules: [{strategy: FieldRename, fieldRename: {hubPath: spec.replicas, spokePath: spec.count}}]
        """);
    var v1 = object("apiVersion: example.test/v1\nspec: {size: 4}");
    assertThat(router.convert(v1, "v1", "v3").path("spec")).isEqualTo(object("count: 4"));
    assertThat(router.convert(v1, "v1", "v1")).isSameAs(v1);
    // the versions looked up once (as the webhook does for a review's objects) convert the same
    var between = router.between("v1", "v3");
    assertThat(between.convert(v1)).isEqualTo(router.convert(v1, "v1", "v3"));
    assertThat(between.convert(v1).path("apiVersion").asText()).isEqualTo("example.test/v3");
    assertThat(router.between("v1", "v1").convert(v1)).isSameAs(v1);
  }

  @Test
  void aVersionWithoutAPlanFailsClosedNamingTheKnownVersions() {
    var router = router(target("a: {type: string}", "a: {type: string}"), spokeRules("[]"));
    assertThatThrownBy(() -> router.convert(object("spec: {a: x}"), "v9", "v2"))
        .isInstanceOf(ConversionException.class)
        .hasMessageContaining("no compiled plan for version v9")
        .hasMessageContaining("spokes v1");
    assertThatThrownBy(() -> router.between("v2", "v9"))
        .isInstanceOf(ConversionException.class)
        .hasMessageContaining("no compiled plan for version v9");
  }

  @Test
  void integersBeyondDoublePrecisionSurviveExactly() {
    var router =
        router(
            target(
                "n: {type: integer}\nf: {type: number}", "n: {type: integer}\nf: {type: number}"),
            spokeRules("[]"));
    var converted =
        router.convert(
            object(
                "spec: {n: 123456789012345678901234567890, f: 0.1000000000000000055511151231257827}"),
            "v2",
            "v1");
    assertThat(converted.path("spec").path("n").bigIntegerValue().toString())
        .isEqualTo("123456789012345678901234567890");
    assertThat(converted.path("spec").path("f").decimalValue().toPlainString())
        .isEqualTo("0.1000000000000000055511151231257827");
  }

  @Test
  void writingBelowAValueThatIsNotAnObjectFailsNamingBothPaths() {
    var target =
        target(
            "a: {type: string}\nb: {type: string}",
            "a: {type: string}\nx: {type: object, properties: {b: {type: string}}}");
    var router =
        router(
            target,
            spokeRules(
                "- {strategy: FieldRename, fieldRename: {hubPath: spec.b, spokePath: spec.x.b}}"));
    var input = object("spec: {a: x, b: y}");
    // a hand-made clash: the output already holds a string where the rename needs an object
    var plan = router.config().plans().get("v1");
    var output = EngineJson.nodes().objectNode();
    output.putObject("spec").put("x", "not an object");
    assertThatThrownBy(() -> plan.hubToSpoke().apply(input, output))
        .isInstanceOf(ConversionException.class)
        .hasMessageContaining("rules[0] (FieldRename) at spec.b")
        .hasMessageContaining("cannot write spec.x.b: 'spec.x' is a string");
  }

  @Test
  void theRouterNamesTheFirstFieldItsSchemasDoNotDeclareWhichAConversionWouldPassThrough() {
    var router =
        router(
            target(
                "replicas: {type: integer}\ntls: {type: object, properties: {on: {type: boolean}}}\n"
                    + "labels: {type: object, additionalProperties: {type: string}}\n"
                    + "extra: {type: object, x-kubernetes-preserve-unknown-fields: true}",
                "size: {type: integer}\ntls: {type: object, properties: {on: {type: boolean}}}\n"
                    + "labels: {type: object, additionalProperties: {type: string}}\n"
                    + "extra: {type: object, x-kubernetes-preserve-unknown-fields: true}"),
            spokeRules(
                """
            - strategy: FieldRename
              fieldRename: {hubPath: spec.replicas, spokePath: spec.size}
            """));
    var declared =
        object("spec: {replicas: 1, tls: {on: true}, labels: {any: x}, extra: {any: {thing: 1}}}");

    assertThat(router.firstUnknownField(declared, "v2", "v1")).isEmpty();
    assertThat(router.firstUnknownField(object("spec: {replicas: 1, added: x}"), "v2", "v1"))
        .contains("spec.added");
    assertThat(
            router.firstUnknownField(
                object("spec: {tls: {on: true, minVersion: '1.3'}}"), "v1", "v2"))
        .contains("spec.tls.minVersion");
    assertThat(router.firstUnknownField(object("spec: {added: x}"), "v2", "v2")).isEmpty();
    // the field really is passed through untouched: that is what a stale plan must not do silently
    assertThat(
            router
                .convert(object("spec: {replicas: 1, added: x}"), "v2", "v1")
                .path("spec")
                .path("added")
                .asText())
        .isEqualTo("x");
  }
}
