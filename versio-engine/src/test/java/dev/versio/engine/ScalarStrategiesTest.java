package dev.versio.engine;

import static dev.versio.engine.Fixtures.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.versio.engine.compile.Verdict;
import dev.versio.engine.diagnostic.DiagnosticCode;
import org.junit.jupiter.api.Test;

class ScalarStrategiesTest {

  private static String coerce(String policy) {
    return spokeRules(
        "- {strategy: TypeCoerce, typeCoerce: {path: spec.port"
            + (policy == null ? "" : ", onFractionalInteger: " + policy)
            + "}}");
  }

  @Test
  void typeCoerceTurnsIntegersIntoExactTextAndBack() {
    var router =
        router(
            target("port: {type: integer}", "port: {type: string}"),
            spokeRules(
                "- {strategy: TypeCoerce, typeCoerce: {path: spec.port}, acknowledgeLossy: true}"));
    assertThat(
            router
                .convert(object("spec: {port: 123456789012345678901234567890}"), "v2", "v1")
                .path("spec"))
        .isEqualTo(object("port: '123456789012345678901234567890'"));
    assertThat(router.convert(object("spec: {port: ' 8080 '}"), "v1", "v2").path("spec"))
        .isEqualTo(object("port: 8080"));
  }

  @Test
  void typeCoerceIsLosslessFromNumbersToTextButNotFromTextToNumbers() {
    var compiled =
        compiled(
            target("port: {type: integer}", "port: {type: string}"),
            spokeRules(
                """
        - {strategy: TypeCoerce, typeCoerce: {path: spec.port}, acknowledgeLossy: true}
        """));
    assertThat(compiled.plans().get("v1").verdict()).isEqualTo(new Verdict(true, false));
    assertThat(rejected(target("port: {type: integer}", "port: {type: string}"), coerce(null)))
        .singleElement()
        .satisfies(d -> assertThat(d.message()).contains("spoke->hub conversion is lossy"));
  }

  @Test
  void decimalsKeepTheirWrittenDigitsAsText() {
    var router =
        router(
            target("ratio: {type: number}", "ratio: {type: string}"),
            spokeRules(
                "- {strategy: TypeCoerce, typeCoerce: {path: spec.ratio}, acknowledgeLossy: true}"));
    assertThat(
            router
                .convert(object("spec: {ratio: 1.50}"), "v2", "v1")
                .path("spec")
                .path("ratio")
                .asText())
        .isEqualTo("1.50");
    assertThat(
            router
                .convert(object("spec: {ratio: '0.0000001'}"), "v1", "v2")
                .path("spec")
                .path("ratio")
                .decimalValue())
        .isEqualByComparingTo("0.0000001");
  }

  @Test
  void fractionalValuesIntoAnIntegerFailUnlessTruncatedOrRounded() {
    var target = target("n: {type: number}", "n: {type: integer}");
    var strict = router(target, spokeRules("- {strategy: TypeCoerce, typeCoerce: {path: spec.n}}"));
    assertThatThrownBy(() -> strict.convert(object("spec: {n: 2.5}"), "v2", "v1"))
        .hasMessageContaining("rules[0] (TypeCoerce) at spec.n")
        .hasMessageContaining("onFractionalInteger");
    var rounding =
        router(
            target,
            spokeRules(
                "- {strategy: TypeCoerce, typeCoerce: {path: spec.n, onFractionalInteger: Round}, acknowledgeLossy: true}"));
    assertThat(
            rounding.convert(object("spec: {n: 2.5}"), "v2", "v1").path("spec").path("n").asInt())
        .isEqualTo(3);
    assertThat(
            rounding.convert(object("spec: {n: -2.5}"), "v2", "v1").path("spec").path("n").asInt())
        .isEqualTo(-3);
    var truncating =
        router(
            target,
            spokeRules(
                "- {strategy: TypeCoerce, typeCoerce: {path: spec.n, onFractionalInteger: Truncate}, acknowledgeLossy: true}"));
    assertThat(
            truncating
                .convert(object("spec: {n: -2.7}"), "v2", "v1")
                .path("spec")
                .path("n")
                .asInt())
        .isEqualTo(-2);
    assertThat(
            compiled(
                    target,
                    spokeRules(
                        "- {strategy: TypeCoerce, typeCoerce: {path: spec.n, onFractionalInteger: Round}, acknowledgeLossy: true}"))
                .plans()
                .get("v1")
                .verdict())
        .isEqualTo(new Verdict(false, true));
  }

  @Test
  void booleansAcceptGoSpellingsAndRefuseNumbers() {
    var router =
        router(
            target("on: {type: boolean}", "on: {type: string}"),
            spokeRules(
                "- {strategy: TypeCoerce, typeCoerce: {path: spec.on}, acknowledgeLossy: true}"));
    assertThat(
            router
                .convert(object("spec: {on: 'T'}"), "v1", "v2")
                .path("spec")
                .path("on")
                .booleanValue())
        .isTrue();
    assertThatThrownBy(() -> router.convert(object("spec: {on: 'yes'}"), "v1", "v2"))
        .hasMessageContaining("is not a boolean");
    var numeric =
        router(
            target("on: {type: boolean}", "on: {type: integer}"),
            spokeRules("- {strategy: TypeCoerce, typeCoerce: {path: spec.on}}"));
    assertThat(
            numeric.convert(object("spec: {on: true}"), "v2", "v1").path("spec").path("on").asInt())
        .isEqualTo(1);
    assertThatThrownBy(() -> numeric.convert(object("spec: {on: 1}"), "v1", "v2"))
        .hasMessageContaining("into a boolean");
  }

  @Test
  void typeCoerceRefusesObjectsAndArrays() {
    assertThat(
            rejected(
                target("p: {type: object, properties: {a: {type: string}}}", "p: {type: string}"),
                spokeRules("- {strategy: TypeCoerce, typeCoerce: {path: spec.p}}")))
        .extracting(d -> d.code())
        .contains(DiagnosticCode.TYPE_MISMATCH);
  }

  @Test
  void numericScaleDividesTowardsTheSpokeAndMultipliesBack() {
    var target = target("timeoutMs: {type: number}", "timeoutSec: {type: number}");
    var config =
        spokeRules(
            "- {strategy: NumericScale, numericScale: {hubPath: spec.timeoutMs, spokePath: spec.timeoutSec, factor: 1000}}");
    var router = router(target, config);
    assertThat(
            router
                .convert(object("spec: {timeoutMs: 1500}"), "v2", "v1")
                .path("spec")
                .path("timeoutSec")
                .decimalValue())
        .isEqualByComparingTo("1.5");
    assertThat(router.convert(object("spec: {timeoutSec: 2.25}"), "v1", "v2").path("spec"))
        .isEqualTo(object("timeoutMs: 2250"));
    assertThat(compiled(target, config).lossless()).isTrue();
  }

  @Test
  void numericScaleFromADecimalIntoAnIntegerIsLossy() {
    var target = target("timeoutMs: {type: integer}", "timeoutSec: {type: number}");
    var config =
        spokeRules(
            "- {strategy: NumericScale, numericScale: {hubPath: spec.timeoutMs, spokePath: spec.timeoutSec, factor: 1000}, acknowledgeLossy: true}");
    assertThat(compiled(target, config).plans().get("v1").verdict())
        .isEqualTo(new Verdict(true, false));
    assertThat(
            router(target, config)
                .convert(object("spec: {timeoutSec: 2.2505}"), "v1", "v2")
                .path("spec"))
        .isEqualTo(object("timeoutMs: 2251"));
  }

  @Test
  void numericScaleIntoAnIntegerRoundsAndIsLossyUnlessTheResultIsAlwaysWhole() {
    var target = target("timeoutMs: {type: integer}", "timeoutSec: {type: integer}");
    var config =
        spokeRules(
            "- {strategy: NumericScale, numericScale: {hubPath: spec.timeoutMs, spokePath: spec.timeoutSec, factor: 1000}, acknowledgeLossy: true}");
    assertThat(compiled(target, config).plans().get("v1").verdict())
        .isEqualTo(new Verdict(false, true));
    assertThat(
            router(target, config)
                .convert(object("spec: {timeoutMs: 1500}"), "v2", "v1")
                .path("spec")
                .path("timeoutSec")
                .asInt())
        .isEqualTo(2);
  }

  @Test
  void numericScaleByAFactorWithoutAFiniteInverseIsLossyEvenForNumbers() {
    var target = target("a: {type: number}", "b: {type: number}");
    assertThat(
            compiled(
                    target,
                    spokeRules(
                        "- {strategy: NumericScale, numericScale: {hubPath: spec.a, spokePath: spec.b, factor: 3}, acknowledgeLossy: true}"))
                .plans()
                .get("v1")
                .verdict())
        .isEqualTo(new Verdict(false, true));
  }

  @Test
  void numericScaleRefusesANonNumber() {
    var router =
        router(
            target("a: {type: number}", "b: {type: number}"),
            spokeRules(
                "- {strategy: NumericScale, numericScale: {hubPath: spec.a, spokePath: spec.b, factor: 10}}"));
    assertThatThrownBy(() -> router.convert(object("spec: {a: '3'}"), "v2", "v1"))
        .hasMessageContaining("expected a number");
  }

  @Test
  void quantityParsesToMilliUnitsAndFormatsCanonically() {
    var target = target("memory: {type: string}", "memoryMilli: {type: integer}");
    var config =
        spokeRules(
            "- {strategy: Quantity, quantity: {hubPath: spec.memory, spokePath: spec.memoryMilli}, acknowledgeLossy: true}");
    var router = router(target, config);
    assertThat(
            router
                .convert(object("spec: {memory: 1Gi}"), "v2", "v1")
                .path("spec")
                .path("memoryMilli")
                .asLong())
        .isEqualTo(1073741824000L);
    assertThat(
            router
                .convert(object("spec: {memoryMilli: 2000000}"), "v1", "v2")
                .path("spec")
                .path("memory")
                .asText())
        .isEqualTo("2k");
    assertThat(compiled(target, config).plans().get("v1").verdict())
        .isEqualTo(new Verdict(false, true));
    assertThatThrownBy(() -> router.convert(object("spec: {memory: lots}"), "v2", "v1"))
        .hasMessageContaining("rules[0] (Quantity)")
        .hasMessageContaining("is not a Kubernetes quantity");
  }

  @Test
  void quantityNeedsOneStringAndOneIntegerSide() {
    assertThat(
            rejected(
                target("a: {type: string}", "b: {type: number}"),
                spokeRules(
                    "- {strategy: Quantity, quantity: {hubPath: spec.a, spokePath: spec.b}}")))
        .singleElement()
        .satisfies(
            d ->
                assertThat(d.message())
                    .contains("one side must be a string and the other an integer"));
  }

  @Test
  void durationConvertsWholeSecondsBothWaysAndRefusesFractions() {
    var target = target("grace: {type: string}", "graceSeconds: {type: integer}");
    var router =
        router(
            target,
            spokeRules(
                "- {strategy: Duration, duration: {hubPath: spec.grace, spokePath: spec.graceSeconds}, acknowledgeLossy: true}"));
    assertThat(
            router
                .convert(object("spec: {grace: 1h30m}"), "v2", "v1")
                .path("spec")
                .path("graceSeconds")
                .asInt())
        .isEqualTo(5400);
    assertThat(
            router
                .convert(object("spec: {graceSeconds: 86400}"), "v1", "v2")
                .path("spec")
                .path("grace")
                .asText())
        .isEqualTo("24h0m0s");
    assertThatThrownBy(() -> router.convert(object("spec: {grace: 1500ms}"), "v2", "v1"))
        .hasMessageContaining("not a whole number of seconds");
    assertThatThrownBy(() -> router.convert(object("spec: {grace: 2d}"), "v2", "v1"))
        .hasMessageContaining("write 24h");
  }
}
