package dev.versio.engine;

import static dev.versio.engine.Fixtures.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.fasterxml.jackson.databind.JsonNode;
import dev.versio.engine.json.EngineJson;
import dev.versio.engine.route.Router;
import dev.versio.engine.runtime.ConversionException;
import java.math.BigDecimal;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every numeric strategy answers a hostile value — a huge exponent, a million digits, the edges of
 * int64 — with a per-object failure that says what is wrong, at once: never minutes of arithmetic
 * on the conversion thread, never an internal error. The time bound only guards against a hang (the
 * unbounded code took minutes); each case takes microseconds.
 */
class HostileNumbersTest {
  private static final Duration AT_ONCE = Duration.ofSeconds(5);
  private static final String MILLION_DIGITS = "1".repeat(1_000_000);

  /** Spoke v1 writes text, hub v2 holds numbers: v1 -> v2 parses, v2 -> v1 formats. */
  private final Router numbers =
      router(
          target(
              """
              port: {type: integer}
              ratio: {type: number}
              timeoutMs: {type: number}
              limitMs: {type: integer}
              memoryMilli: {type: integer}
              graceSeconds: {type: integer}
              """,
              """
              port: {type: string}
              ratio: {type: string}
              timeoutSec: {type: number}
              limitSec: {type: number}
              memoryMilli: {type: string}
              graceSeconds: {type: string}
              """),
          spokeRules(
              """
              - {strategy: TypeCoerce, typeCoerce: {path: spec.port}, acknowledgeLossy: true}
              - {strategy: TypeCoerce, typeCoerce: {path: spec.ratio}, acknowledgeLossy: true}
              - {strategy: NumericScale, numericScale: {hubPath: spec.timeoutMs, spokePath: spec.timeoutSec, factor: 1000}}
              - {strategy: NumericScale, numericScale: {hubPath: spec.limitMs, spokePath: spec.limitSec, factor: 1000}, acknowledgeLossy: true}
              - {strategy: Quantity, quantity: {hubPath: spec.memoryMilli, spokePath: spec.memoryMilli}, acknowledgeLossy: true}
              - {strategy: Duration, duration: {hubPath: spec.graceSeconds, spokePath: spec.graceSeconds}, acknowledgeLossy: true}
              """));

  private JsonNode spokeToHub(String field, String text) {
    var spoke = object("spec: {}");
    ((com.fasterxml.jackson.databind.node.ObjectNode) spoke.get("spec")).put(field, text);
    return assertTimeoutPreemptively(AT_ONCE, () -> numbers.convert(spoke, "v1", "v2"))
        .path("spec")
        .path(field);
  }

  private void refusedAtOnce(JsonNode object, String from, String to, String... message) {
    assertTimeoutPreemptively(
        AT_ONCE,
        () ->
            assertThatThrownBy(() -> numbers.convert(object, from, to))
                .isInstanceOf(ConversionException.class)
                .hasMessageContainingAll(message)
                .satisfies(e -> assertThat(e.getMessage()).hasSizeLessThan(600)));
  }

  private void spokeTextRefused(String field, String text, String... message) {
    var spoke = object("spec: {}");
    ((com.fasterxml.jackson.databind.node.ObjectNode) spoke.get("spec")).put(field, text);
    refusedAtOnce(spoke, "v1", "v2", message);
  }

  private void hubNumberRefused(String field, String number, String... message) {
    var hub = object("spec: {}");
    ((com.fasterxml.jackson.databind.node.ObjectNode) hub.get("spec"))
        .set(field, EngineJson.nodes().numberNode(new BigDecimal(number)));
    refusedAtOnce(hub, "v2", "v1", message);
  }

  @ParameterizedTest(name = "{0} = {1} is refused: {2}")
  @CsvSource(
      delimiter = '|',
      value = {
        "memoryMilli | 1e600000000    | value too large for a quantity",
        "memoryMilli | 1e999999999    | value too large for a quantity",
        "memoryMilli | 1E+9999999999  | value too large for a quantity",
        "memoryMilli | 1e-999999999   | value too small for a quantity",
        "memoryMilli | 1Ei            | value too large for a quantity in milli-units",
        "memoryMilli | 9223372036854775808m | value too large for a quantity in milli-units",
        "port        | 1e600000000    | value too large for a number",
        "port        | 9223372036854775808  | value too large for an integer field",
        "port        | -9223372036854775809 | value too large for an integer field",
        "port        | 1e-999999999   | value too small for a number",
        "ratio       | 1e9999999999   | value too large for a number",
        "graceSeconds | 2562048h      | value too large for a duration",
        "graceSeconds | 1.5.5h        | is not a duration",
      })
  void hugeExponentsAndTheEdgesOfInt64AreRefusedWithAReason(
      String field, String text, String message) {
    spokeTextRefused(field, text, message, "rules[");
  }

  @ParameterizedTest(name = "a million digits at {0} is refused")
  @ValueSource(strings = {"memoryMilli", "port", "ratio", "graceSeconds"})
  void aMillionDigitsAreRefusedBeforeParsingAndNotEchoed(String field) {
    spokeTextRefused(field, MILLION_DIGITS, "value too large", "1000000 characters");
  }

  @Test
  void hubNumbersWithHugeExponentsAreRefusedInEveryNumericStrategy() {
    hubNumberRefused("timeoutMs", "1e999999999", "value too large for a scaled number");
    hubNumberRefused("timeoutMs", "1e-999999999", "value too small for a scaled number");
    hubNumberRefused("port", "1e999999999", "value too large for a string");
    hubNumberRefused("ratio", "-1e999999999", "value too large for a string");
  }

  @Test
  void aScaleWhoseResultLeavesTheIntegerRangeIsRefused() {
    var spoke = object("spec: {limitSec: 9223372036854775}");
    assertThat(numbers.convert(spoke, "v1", "v2").path("spec").path("limitMs").asLong())
        .isEqualTo(9223372036854775000L);
    refusedAtOnce(
        object("spec: {limitSec: 9223372036854776}"),
        "v1",
        "v2",
        "value too large for an integer field");
  }

  @Test
  void theEdgesOfInt64ConvertExactly() {
    assertThat(spokeToHub("port", "9223372036854775807").asLong()).isEqualTo(Long.MAX_VALUE);
    assertThat(spokeToHub("port", "-9223372036854775808").asLong()).isEqualTo(Long.MIN_VALUE);
    assertThat(spokeToHub("memoryMilli", "9223372036854775807m").asLong())
        .isEqualTo(Long.MAX_VALUE);
    assertThat(spokeToHub("graceSeconds", "2562047h47m16s").asLong()).isEqualTo(9223372036L);
    assertThat(spokeToHub("port", "1e18").asLong()).isEqualTo(1_000_000_000_000_000_000L);
  }

  @Test
  void negativeZeroIsZeroInEveryStrategy() {
    assertThat(spokeToHub("port", "-0").asLong()).isZero();
    assertThat(spokeToHub("port", "-0.0").asLong()).isZero();
    assertThat(spokeToHub("ratio", "-0.0").decimalValue().signum()).isZero();
    assertThat(spokeToHub("memoryMilli", "-0").asLong()).isZero();
    assertThat(spokeToHub("memoryMilli", "-0e-999999")).isNotNull();
    assertThat(spokeToHub("graceSeconds", "-0s").asLong()).isZero();
    assertThat(spokeToHub("graceSeconds", "-0").asLong()).isZero();
  }

  @Test
  void aZeroWithAHugeExponentIsZero() {
    assertThat(spokeToHub("port", "0e999999999").asLong()).isZero();
    assertThat(spokeToHub("memoryMilli", "0e999999").asLong()).isZero();
  }

  @Test
  void anEnumRemapOfAHugeNumberIsUnmappedAtOnce() {
    var remap =
        router(
            target("code: {type: integer}", "code: {type: integer}"),
            spokeRules(
                """
                - strategy: EnumRemap
                  enumRemap: {path: spec.code, mapping: [{hub: 301, spoke: 1}, {hub: 302, spoke: 2}]}
                """));
    var hub = object("spec: {}");
    ((com.fasterxml.jackson.databind.node.ObjectNode) hub.get("spec"))
        .set("code", EngineJson.nodes().numberNode(new BigDecimal("1e999999999")));
    assertTimeoutPreemptively(
        AT_ONCE,
        () ->
            assertThatThrownBy(() -> remap.convert(hub, "v2", "v1"))
                .isInstanceOf(ConversionException.class)
                .hasMessageContaining("unmapped"));
  }
}
