package dev.versio.engine;

import static dev.versio.engine.Fixtures.analyzed;
import static dev.versio.engine.Fixtures.compiled;
import static dev.versio.engine.Fixtures.lines;
import static dev.versio.engine.Fixtures.rejected;
import static dev.versio.engine.Fixtures.spokeRules;
import static dev.versio.engine.Fixtures.target;
import static org.assertj.core.api.Assertions.assertThat;

import dev.versio.engine.compile.Verdict;
import dev.versio.engine.diagnostic.DiagnosticCode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A strategy that can lose data in general needs no acknowledgement where the schema admits no
 * value it loses (an enum, a pattern, a maximum length); where it admits one, the rejection shows
 * it.
 */
class SchemaRulesOutLossTest {
  private static final String TYPE_COERCE =
      "- {strategy: TypeCoerce, typeCoerce: {path: spec.port}}";
  private static final String LIST_JOIN =
      "- {strategy: ListJoin, listJoin: {hubPath: spec.hosts, spokePath: spec.hosts, separator: ','}}";

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '#',
      value = {
        "pattern: '^(0|[1-9][0-9]*)$'",
        "pattern: '^[1-9]\\d{0,4}$'",
        "maxLength: 1",
        "enum: ['80', '443']"
      })
  void textIntoAnIntegerIsLosslessWhenTheSchemaAdmitsOnlyItsCanonicalSpelling(String bound) {
    var target = target("port: {type: integer}", "port: {type: string, " + bound + "}");
    var config = spokeRules(TYPE_COERCE);
    assertThat(compiled(target, config).plans().get("v1").verdict()).isEqualTo(Verdict.LOSSLESS);
  }

  @org.junit.jupiter.api.Test
  void aPatternWhoseAutomatonWouldExplodeCompilesAtOnceAndProvesNothing() {
    // 2^21 deterministic states: brics ran out of memory in admission, the operator and every
    // replica; now the pattern admits every string, so the loss needs its acknowledgement
    var target = target("port: {type: integer}", "port: {type: string, pattern: '^.*a.{20}$'}");
    var errors =
        org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(
            java.time.Duration.ofSeconds(10), () -> rejected(target, spokeRules(TYPE_COERCE)));
    assertThat(errors)
        .singleElement()
        .satisfies(d -> assertThat(d.code()).isEqualTo(DiagnosticCode.LOSSY_NOT_ACKNOWLEDGED));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '#',
      value = {
        "pattern: '^[0-9]+$'#spec.port = \"007\" -> spec.port = 7 -> spec.port = \"7\"",
        "pattern: '^\\+[0-9]+$'#spec.port = \"+5\" -> spec.port = 5 -> spec.port = \"5\"",
        "maxLength: 3#spec.port = \"007\" -> spec.port = 7 -> spec.port = \"7\"",
        "enum: ['80', '0443']#spec.port = \"0443\" -> spec.port = 443 -> spec.port = \"443\""
      })
  void textIntoAnIntegerIsRejectedWithAValueTheSchemaAdmitsThatComesBackDifferently(
      String bound, String shown) {
    var target = target("port: {type: integer}", "port: {type: string, " + bound + "}");
    var errors = rejected(target, spokeRules(TYPE_COERCE));
    assertThat(errors)
        .as(lines(errors))
        .singleElement()
        .satisfies(
            d -> {
              assertThat(d.code()).isEqualTo(DiagnosticCode.LOSSY_NOT_ACKNOWLEDGED);
              assertThat(d.message()).contains("spoke->hub").contains("e.g. " + shown);
            });
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '#',
      value = {
        "pattern: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$'",
        "pattern: '^[^,]+$'",
        "enum: [a, b, c]"
      })
  void joiningTextIsLosslessWhenNoItemTheSchemaAdmitsHoldsTheSeparatorOrIsEmpty(String bound) {
    var target =
        target(
            "hosts: {type: array, items: {type: string, " + bound + "}}", "hosts: {type: string}");
    assertThat(compiled(target, spokeRules(LIST_JOIN)).plans().get("v1").verdict())
        .isEqualTo(Verdict.LOSSLESS);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '#',
      value = {
        "pattern: '^[a-z,]+$'#spec.hosts = [\"a,b\"] -> spec.hosts = \"a,b\" -> spec.hosts = [\"a\",\"b\"]",
        "maxLength: 3#spec.hosts = [\"a,b\"] -> spec.hosts = \"a,b\" -> spec.hosts = [\"a\",\"b\"]",
        "pattern: '^[a-z]*$'#spec.hosts = [\"\"] -> spec.hosts = \"\" -> spec.hosts = []"
      })
  void joiningTextIsRejectedWithAnItemTheSchemaAdmitsThatSplitsDifferently(
      String bound, String shown) {
    var target =
        target(
            "hosts: {type: array, items: {type: string, " + bound + "}}", "hosts: {type: string}");
    var report = analyzed(target, spokeRules(LIST_JOIN));
    var rule = report.spokes().getFirst().ruleResults().getFirst();
    assertThat(rule.lossless()).isEqualTo(new Verdict(false, true));
    assertThat(rule.counterexamples())
        .singleElement()
        .satisfies(c -> assertThat(c.describe()).isEqualTo(shown));
  }
}
