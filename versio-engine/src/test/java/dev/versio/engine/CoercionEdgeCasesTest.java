package dev.versio.engine;

import static dev.versio.engine.Fixtures.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.versio.engine.route.Router;
import org.junit.jupiter.api.Test;

/** The number, boolean and empty-value edge cases the reference calls out. */
class CoercionEdgeCasesTest {
  private final Router textToInteger =
      router(
          target("n: {type: string}", "n: {type: integer}"),
          spokeRules(
              "- {strategy: TypeCoerce, typeCoerce: {path: spec.n}, acknowledgeLossy: true}"));

  @Test
  void numericTextMayUseExponentsUnderscoresAndSurroundingSpace() {
    assertThat(
            textToInteger
                .convert(object("spec: {n: '1e3'}"), "v2", "v1")
                .path("spec")
                .path("n")
                .asInt())
        .isEqualTo(1000);
    assertThat(
            textToInteger
                .convert(object("spec: {n: ' 1_000_000 '}"), "v2", "v1")
                .path("spec")
                .path("n")
                .asInt())
        .isEqualTo(1000000);
  }

  @Test
  void notANumberAndInfinityAreRefused() {
    assertThatThrownBy(() -> textToInteger.convert(object("spec: {n: NaN}"), "v2", "v1"))
        .hasMessageContaining("is not a number");
    assertThatThrownBy(() -> textToInteger.convert(object("spec: {n: Infinity}"), "v2", "v1"))
        .hasMessageContaining("is not a number");
    assertThatThrownBy(() -> textToInteger.convert(object("spec: {n: ''}"), "v2", "v1"))
        .hasMessageContaining("is not a number");
  }

  @Test
  void int64ExtremesSurviveExactly() {
    var router =
        router(
            target("n: {type: integer}", "n: {type: string}"),
            spokeRules(
                "- {strategy: TypeCoerce, typeCoerce: {path: spec.n}, acknowledgeLossy: true}"));
    assertThat(
            router
                .convert(object("spec: {n: 9223372036854775807}"), "v2", "v1")
                .path("spec")
                .path("n")
                .asText())
        .isEqualTo("9223372036854775807");
    assertThat(
            router
                .convert(object("spec: {n: '-9223372036854775808'}"), "v1", "v2")
                .path("spec")
                .path("n")
                .asLong())
        .isEqualTo(Long.MIN_VALUE);
  }

  @Test
  void anEmptyListJoinsToAnEmptyStringAndSplitsBackToAnEmptyList() {
    var router =
        router(
            target("l: {type: array, items: {type: string}}", "s: {type: string}"),
            spokeRules(
                "- {strategy: ListJoin, listJoin: {hubPath: spec.l, spokePath: spec.s, separator: ','}, acknowledgeLossy: true}"));
    var spoke = router.convert(object("spec: {l: []}"), "v2", "v1");
    assertThat(spoke.path("spec")).isEqualTo(object("s: ''"));
    assertThat(router.convert(spoke, "v1", "v2").path("spec")).isEqualTo(object("l: []"));
    assertThat(router.convert(object("spec: {s: 'a,,b'}"), "v1", "v2").path("spec"))
        .isEqualTo(object("l: [a, '', b]"));
  }

  @Test
  void anElementThatIsNullOrAContainerCannotBeJoined() {
    var router =
        router(
            target("l: {type: array, items: {type: string}}", "s: {type: string}"),
            spokeRules(
                "- {strategy: ListJoin, listJoin: {hubPath: spec.l, spokePath: spec.s, separator: ','}, acknowledgeLossy: true}"));
    assertThatThrownBy(() -> router.convert(object("spec: {l: [a, null]}"), "v2", "v1"))
        .hasMessageContaining("element 1 of spec.l is null");
    assertThatThrownBy(() -> router.convert(object("spec: {l: [[a]]}"), "v2", "v1"))
        .hasMessageContaining("element 0 of spec.l is array");
  }
}
