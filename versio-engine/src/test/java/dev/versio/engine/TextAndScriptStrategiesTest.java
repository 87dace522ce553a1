package dev.versio.engine;

import static dev.versio.engine.Fixtures.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.versio.engine.compile.Verdict;
import dev.versio.engine.diagnostic.DiagnosticCode;
import dev.versio.engine.runtime.ConversionException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class TextAndScriptStrategiesTest {
  private static final String IMAGE = "image: {type: string}";
  private static final String PARTS = "imageRepo: {type: string}\nimageTag: {type: string}";
  private static final String SPLIT =
      spokeRules(
          """
      - strategy: ScalarToFields
        scalarToFields:
          hubPath: spec.image
          pattern: '^(?P<repo>[^:]+):(?P<tag>.+)$'
          spokeFields: {repo: spec.imageRepo, tag: spec.imageTag}
          joinTemplate: '{{.repo}}:{{.tag}}'
          losslessOverride: true
      """);

  @Test
  void scalarToFieldsSplitsByNamedGroupsAndJoinsBack() {
    var router = router(target(IMAGE, PARTS), SPLIT);
    assertThat(router.convert(object("spec: {image: 'nginx:1.27'}"), "v2", "v1").path("spec"))
        .isEqualTo(object("imageRepo: nginx\nimageTag: '1.27'"));
    assertThat(
            router
                .convert(object("spec: {imageRepo: redis, imageTag: '7'}"), "v1", "v2")
                .path("spec"))
        .isEqualTo(object("image: 'redis:7'"));
    var compiled = compiled(target(IMAGE, PARTS), SPLIT);
    assertThat(compiled.lossless()).isTrue();
    assertThat(compiled.warnings())
        .extracting(d -> d.code())
        .contains(DiagnosticCode.UNVERIFIABLE_INVERSE);
  }

  @Test
  void aValueThatDoesNotMatchOrAPartialJoinFails() {
    var router = router(target(IMAGE, PARTS), SPLIT);
    assertThatThrownBy(() -> router.convert(object("spec: {image: nginx}"), "v2", "v1"))
        .hasMessageContaining("rules[0] (ScalarToFields)")
        .hasMessageContaining("does not match the pattern");
    assertThatThrownBy(() -> router.convert(object("spec: {imageRepo: redis}"), "v1", "v2"))
        .hasMessageContaining("needs .tag but spec.imageTag is absent");
  }

  @Test
  void withoutLosslessOverrideTheRuleMustBeAcknowledged() {
    assertThat(
            rejected(
                target(IMAGE, PARTS),
                SPLIT.replace("losslessOverride: true", "losslessOverride: false")))
        .extracting(d -> d.code())
        .contains(DiagnosticCode.LOSSY_NOT_ACKNOWLEDGED);
  }

  @Test
  void templatesWithAnythingButPlaceholdersAndGroupsThatDoNotExistAreRejected() {
    assertThat(
            rejected(
                target(IMAGE, PARTS),
                SPLIT.replace("'{{.repo}}:{{.tag}}'", "'{{.repo | upper}}:{{.tag}}'")))
        .anySatisfy(
            d -> assertThat(d.message()).contains("only literal text and {{.name}} placeholders"));
    assertThat(rejected(target(IMAGE, PARTS), SPLIT.replace("(?P<tag>.+)", "(.+)")))
        .anySatisfy(d -> assertThat(d.message()).contains("'tag' is not a named group"));
    assertThat(rejected(target(IMAGE, PARTS), SPLIT.replace("'{{.repo}}:{{.tag}}'", "'{{.repo}}'")))
        .anySatisfy(d -> assertThat(d.message()).contains("would be dropped on the way back"));
    assertThat(rejected(target(IMAGE, PARTS), SPLIT.replace("^(?P<repo>", "^(?P<repo")))
        .anySatisfy(d -> assertThat(d.message()).contains("pattern does not compile"));
  }

  @Test
  void fieldsToScalarJoinsAndSplitsCoercingToTheFieldKinds() {
    var target =
        target("dbHost: {type: string}\ndbPort: {type: integer}", "dbAddress: {type: string}");
    var router =
        router(
            target,
            spokeRules(
                """
        - strategy: FieldsToScalar
          fieldsToScalar:
            hubFields: {host: spec.dbHost, port: spec.dbPort}
            pattern: '^(?P<host>[^:]+):(?P<port>\\d+)$'
            spokePath: spec.dbAddress
            joinTemplate: '{{.host}}:{{.port}}'
            losslessOverride: true
        """));
    assertThat(router.convert(object("spec: {dbHost: db, dbPort: 5432}"), "v2", "v1").path("spec"))
        .isEqualTo(object("dbAddress: 'db:5432'"));
    assertThat(router.convert(object("spec: {dbAddress: 'pg:6432'}"), "v1", "v2").path("spec"))
        .isEqualTo(object("dbHost: pg\ndbPort: 6432"));
  }

  private static final String PATCH =
      spokeRules(
          """
      - strategy: JSONPatch
        jsonPatch:
          hubToSpoke: [{op: move, from: /spec/ttl, path: /spec/ttlSeconds}]
          spokeToHub: [{op: move, from: /spec/ttlSeconds, path: /spec/ttl}]
          losslessOverride: true
      """);

  @Test
  void jsonPatchMovesFieldsAndClaimsThemOnBothSides() {
    var target =
        target(
            "ttl: {type: integer}\nname: {type: string}",
            "ttlSeconds: {type: integer}\nname: {type: string}");
    var router = router(target, PATCH);
    assertThat(router.convert(object("spec: {ttl: 30, name: a}"), "v2", "v1").path("spec"))
        .isEqualTo(object("ttlSeconds: 30\nname: a"));
    assertThat(router.convert(object("spec: {ttlSeconds: 5}"), "v1", "v2").path("spec"))
        .isEqualTo(object("ttl: 5"));
    assertThat(compiled(target, PATCH).warnings())
        .extracting(d -> d.code())
        .contains(DiagnosticCode.UNVERIFIABLE_INVERSE);
  }

  @Test
  void aRuleThatWritesApiVersionDoesNotDecideTheConvertedObjectsApiVersion() {
    var router =
        router(
            target("a: {type: string}", "a: {type: string}"),
            spokeRules(
                """
            - strategy: JSONPatch
              jsonPatch:
                hubToSpoke: [{op: replace, path: /apiVersion, value: x/y}]
                spokeToHub: [{op: remove, path: /apiVersion}]
                losslessOverride: true
            """));
    var hub = object("apiVersion: example.test/v2\nkind: W\nspec: {a: q}");
    var atSpoke = router.convert(hub, "v2", "v1");
    assertThat(atSpoke.path("apiVersion").asText()).isEqualTo("example.test/v1");
    assertThat(router.convert(atSpoke, "v1", "v2").path("apiVersion").asText())
        .isEqualTo("example.test/v2");
  }

  @Test
  void aPatchOperationWhoseSourceIsAbsentIsSkippedAndAFailingTestFailsTheConversion() {
    var router = router(target("ttl: {type: integer}", "ttlSeconds: {type: integer}"), PATCH);
    // nothing to move: the object converts, as for every strategy whose source is absent
    assertThat(router.convert(object("spec: {}"), "v2", "v1").path("spec").has("ttlSeconds"))
        .isFalse();
    assertThat(router.convert(object("{}"), "v2", "v1")).isNotNull();
    var tested =
        router(
            target("ttl: {type: integer}", "ttlSeconds: {type: integer}"),
            spokeRules(
                """
            - strategy: JSONPatch
              jsonPatch:
                hubToSpoke: [{op: test, path: /spec/ttl, value: 60}, {op: move, from: /spec/ttl, path: /spec/ttlSeconds}]
                spokeToHub: [{op: move, from: /spec/ttlSeconds, path: /spec/ttl}]
                losslessOverride: true
            """));
    assertThatThrownBy(() -> tested.convert(object("spec: {ttl: 30}"), "v2", "v1"))
        .hasMessageContaining("rules[0] (JSONPatch)")
        .hasMessageContaining("the patch does not apply");
    assertThatThrownBy(() -> tested.convert(object("spec: {}"), "v2", "v1"))
        .isInstanceOfSatisfying(
            ConversionException.class, e -> assertThat(e.incompleteInput()).isTrue())
        .hasMessageContaining("the patch tests /spec/ttl, which is absent");
  }

  @Test
  void anAddIntoAnAbsentObjectCreatesTheObjectsAboveIt() {
    var router =
        router(
            target("name: {type: string}", "name: {type: string}\nlevel: {type: string}"),
            spokeRules(
                """
            - strategy: JSONPatch
              jsonPatch:
                hubToSpoke: [{op: add, path: /spec/level, value: "1"}]
                spokeToHub: [{op: remove, path: /spec/level}]
                losslessOverride: true
            """));
    var converted = router.convert(object("{}"), "v2", "v1");
    assertThat(converted.path("spec").path("level").asText()).isEqualTo("1");
    assertThat(router.convert(object("spec: {name: a}"), "v1", "v2").path("spec").has("level"))
        .isFalse();
  }

  @Test
  void aCelExpressionMissingAKeyOfASourceThatIsPresentFailsAsItsOwnErrorNotAsIncompleteInput() {
    var router =
        router(
            target(
                "limits: {type: object, additionalProperties: {type: integer}}",
                "cpu: {type: integer}"),
            spokeRules(
                """
            - strategy: CEL
              cel:
                hubPaths: [spec.limits]
                spokePaths: [spec.cpu]
                hubToSpoke: 'object.spec.limits.size() == 1 ? {"spec.cpu": object.spec.limits["cpu"]} : {}'
                spokeToHub: '{"spec.limits": {"cpu": object.spec.cpu}}'
              acknowledgeLossy: true
              reason: only cpu is kept
            """));
    assertThatThrownBy(() -> router.convert(object("spec: {limits: {memory: 1}}"), "v2", "v1"))
        .isInstanceOfSatisfying(
            ConversionException.class, e -> assertThat(e.incompleteInput()).isFalse())
        .hasMessageContaining("rules[0] (CEL)");
  }

  @Test
  void anAddIntoAnAbsentArrayUnderAnOpaqueFieldFailsInsteadOfMakingAnObject() {
    var opaque = "extra: {type: object, x-kubernetes-preserve-unknown-fields: true}";
    var router =
        router(
            target(opaque, opaque),
            spokeRules(
                """
            - strategy: JSONPatch
              jsonPatch:
                hubToSpoke: [{op: add, path: /spec/extra/steps/-, value: x}]
                spokeToHub: [{op: remove, path: /spec/extra/steps}]
                losslessOverride: true
            """));
    assertThatThrownBy(() -> router.convert(object("spec: {extra: {}}"), "v2", "v1"))
        .hasMessageContaining("the patch does not apply");
    assertThat(
            router
                .convert(object("spec: {extra: {steps: [a]}}"), "v2", "v1")
                .path("spec")
                .path("extra")
                .path("steps"))
        .hasSize(2);
  }

  @Test
  void aPatchPathThroughAnArrayOrToNothingDeclaredIsRejected() {
    var target =
        target(
            "l: {type: array, items: {type: string}}", "l: {type: array, items: {type: string}}");
    assertThat(
            rejected(
                target,
                spokeRules(
                    """
        - strategy: JSONPatch
          jsonPatch: {hubToSpoke: [{op: replace, path: /spec/l/0, value: x}], spokeToHub: [], losslessOverride: true}
        """)))
        .anySatisfy(d -> assertThat(d.message()).contains("array elements cannot be addressed"));
    assertThat(
            rejected(
                target,
                spokeRules(
                    """
        - strategy: JSONPatch
          jsonPatch: {hubToSpoke: [{op: bogus, path: /spec/l}], spokeToHub: []}
        """)))
        .anySatisfy(d -> assertThat(d.message()).contains("not a valid RFC 6902 patch"));
  }

  @Test
  void aPatchThatLeavesAValueWhereTheDestinationHasNoFieldIsRejected() {
    var target = target("ttl: {type: integer}", "ttlSeconds: {type: integer}");

    var diagnostics =
        rejected(
            target,
            spokeRules(
                """
                - strategy: JSONPatch
                  jsonPatch:
                    hubToSpoke: [{op: move, from: /spec/ttl, path: /spec/ttlSeconds}, {op: add, path: /spec/ttl, value: 0}]
                    spokeToHub: [{op: add, path: /spec/ttlSeconds, value: 1}, {op: move, from: /spec/ttlSeconds, path: /spec/ttl}]
                    losslessOverride: true
                """));

    assertThat(diagnostics)
        .singleElement()
        .satisfies(
            d -> {
              assertThat(d.code()).isEqualTo(DiagnosticCode.PATH_NOT_FOUND);
              assertThat(d.message())
                  .contains("jsonPatch.hubToSpoke writes /spec/ttl,")
                  .doesNotContain("spokeToHub");
            });
  }

  private static final String RGB =
      spokeRules(
          """
      - strategy: CEL
        cel:
          hubPaths: [spec.rgb]
          spokePaths: [spec.red, spec.green]
          hubToSpoke: '{"spec.red": object.spec.rgb / 256, "spec.green": object.spec.rgb % 256}'
          spokeToHub: '{"spec": {"rgb": object.spec.red * 256 + object.spec.green}}'
        acknowledgeLossy: true
        reason: arithmetic the engine cannot invert
      """);

  @Test
  void celComputesDestinationsFromTheWholeObjectWithFlatOrNestedKeys() {
    var target = target("rgb: {type: integer}", "red: {type: integer}\ngreen: {type: integer}");
    var router = router(target, RGB);
    assertThat(router.convert(object("spec: {rgb: 2561}"), "v2", "v1").path("spec"))
        .isEqualTo(object("red: 10\ngreen: 1"));
    assertThat(router.convert(object("spec: {red: 1, green: 2}"), "v1", "v2").path("spec"))
        .isEqualTo(object("rgb: 258"));
    assertThat(compiled(target, RGB).plans().get("v1").verdict())
        .isEqualTo(new Verdict(false, false));
  }

  @Test
  void aRouterSaysWhetherItRunsScriptsSoThatATransportCanKeepThemOffItsEventLoop() {
    var target = target("rgb: {type: integer}", "red: {type: integer}\ngreen: {type: integer}");
    assertThat(router(target, RGB).runsScripts()).isTrue();
    assertThat(
            router(target("ttl: {type: integer}", "ttlSeconds: {type: integer}"), PATCH)
                .runsScripts())
        .isTrue();
    var rename =
        spokeRules("- {strategy: FieldRename, fieldRename: {hubPath: spec.a, spokePath: spec.b}}");
    assertThat(router(target("a: {type: string}", "b: {type: string}"), rename).runsScripts())
        .isFalse();
  }

  private static final String MULTIPLY =
      spokeRules(
          """
      - strategy: CEL
        cel:
          hubPaths: [spec.l]
          spokePaths: [spec.n]
          hubToSpoke: '{"spec.n": object.spec.l.map(x, object.spec.l).size()}'
          spokeToHub: '{}'
        acknowledgeLossy: true
      """);

  private static String list(int items) {
    var big = new StringBuilder("spec: {l: [");
    for (int i = 0; i < items; i++) {
      big.append(i == 0 ? "" : ",").append(i % 10);
    }
    return big + "]}";
  }

  @Test
  void aCelExpressionThatMultipliesItsInputIsStoppedByItsSizeLimitNotByTheHeap() {
    var router =
        router(target("l: {type: array, items: {type: integer}}", "n: {type: integer}"), MULTIPLY);
    var tenKilobytes = object(list(5_000)); // 5,000 items: 25,000,000 as JSON once multiplied
    assertTimeoutPreemptively(
        Duration.ofSeconds(10),
        () ->
            assertThatThrownBy(() -> router.convert(tenKilobytes, "v2", "v1"))
                .hasMessageContaining("rules[0] (CEL)")
                .hasMessageContaining(
                    "exceeded its size limit of 2000000 elements and characters"));
    assertThat(router.convert(object(list(100)), "v2", "v1").path("spec").path("n").asInt())
        .as("the same expression over a small list")
        .isEqualTo(100);
  }

  @Test
  void aCelExpressionOverALargeObjectThatBuildsInProportionFits() {
    var names =
        router(
            target(
                "l: {type: array, items: {type: object, properties: {name: {type: string}}}}",
                "n: {type: string}"),
            spokeRules(
                """
        - strategy: CEL
          cel:
            hubPaths: [spec.l]
            spokePaths: [spec.n]
            hubToSpoke: '{"spec.n": object.spec.l.map(x, x.name).join(",")}'
            spokeToHub: '{}'
          acknowledgeLossy: true
        """));
    var big = new StringBuilder("spec: {l: [");
    for (int i = 0; i < 9_000; i++) {
      big.append(i == 0 ? "" : ",").append("{name: name-").append(i).append("}");
    }
    var joined = names.convert(object(big + "]}"), "v2", "v1").path("spec").path("n").asText();
    assertThat(joined.split(",")).hasSize(9_000);
  }

  @Test
  void celExpressionsAreCheckedAtCompileTimeIncludingTheFieldsTheyRead() {
    var target = target("rgb: {type: integer}", "red: {type: integer}\ngreen: {type: integer}");
    assertThat(rejected(target, RGB.replace("object.spec.rgb / 256", "object.spec.rgb / ")))
        .anySatisfy(d -> assertThat(d.message()).contains("cel.hubToSpoke does not compile"));
    assertThat(rejected(target, RGB.replace("object.spec.rgb / 256", "object.spec.rbg / 256")))
        .anySatisfy(
            d ->
                assertThat(d.message())
                    .contains("reads object.spec.rbg")
                    .contains("declared: rgb"));
  }

  @Test
  void celWritesNothingWithoutItsSourcesAndFailsLoudlyOnAMissingFieldAndOnRunawayCost() {
    var target = target("rgb: {type: integer}", "red: {type: integer}\ngreen: {type: integer}");
    var router = router(target, RGB);
    // none of its sources: nothing to convert (an object lacking fields, as server-side apply
    // sends it)
    assertThat(router.convert(object("spec: {}"), "v2", "v1").path("spec").has("red")).isFalse();
    // one source of two: it cannot compute the rest, and says so
    assertThatThrownBy(() -> router.convert(object("spec: {red: 1}"), "v1", "v2"))
        .isInstanceOfSatisfying(
            ConversionException.class, e -> assertThat(e.incompleteInput()).isTrue())
        .hasMessageContaining("rules[0] (CEL)")
        .hasMessageContaining("guard optional fields with has(");
    var costly =
        router(
            target("l: {type: array, items: {type: integer}}", "n: {type: integer}"),
            spokeRules(
                """
        - strategy: CEL
          cel:
            hubPaths: [spec.l]
            spokePaths: [spec.n]
            hubToSpoke: '{"spec.n": object.spec.l.map(a, object.spec.l.map(b, object.spec.l.map(c, a + b + c))).size()}'
            spokeToHub: '{}'
          acknowledgeLossy: true
        """));
    var big = new StringBuilder("spec: {l: [");
    for (int i = 0; i < 150; i++) {
      big.append(i == 0 ? "" : ",").append(i);
    }
    assertThatThrownBy(() -> costly.convert(object(big + "]}"), "v2", "v1"))
        .hasMessageContaining("cost limit");
  }
}
