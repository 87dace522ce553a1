package dev.versio.engine;

import static dev.versio.engine.Fixtures.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.versio.engine.diagnostic.DiagnosticCode;
import dev.versio.engine.runtime.ConversionException;
import org.junit.jupiter.api.Test;

/** JSONString keeps a value as JSON text on one side, and refuses text it cannot read back. */
class JsonStringTest {
  private static final String HUB =
      "values: {type: object, x-kubernetes-preserve-unknown-fields: true}\n";
  private static final String SPOKE = "valuesJSON: {type: string}\n";
  private static final String RULE =
      """
      - strategy: JSONString
        jsonString: {hubPath: spec.values, spokePath: spec.valuesJSON}
        acknowledgeLossy: true
        reason: text comes back written one way
      """;

  private static com.fasterxml.jackson.databind.node.ObjectNode at(String version, String spec) {
    return object(
        "apiVersion: example.test/"
            + version
            + "\nkind: Widget\nmetadata: {name: w}\nspec: "
            + spec);
  }

  @Test
  void anOpaqueValueIsWrittenAsSortedJsonTextAndReadBackUnchanged() {
    var router = router(target(HUB, SPOKE), spokeRules(RULE));
    var hub = at("v2", "{values: {z: [1, 2.50, {b: true}], a: null, m: text}}");

    var spoke = router.convert(hub, "v2", "v1");

    assertThat(spoke.path("spec").path("valuesJSON").asText())
        .isEqualTo("{\"a\":null,\"m\":\"text\",\"z\":[1,2.50,{\"b\":true}]}");
    assertThat(router.convert(spoke, "v1", "v2")).isEqualTo(hub);
  }

  @Test
  void textThatIsNotJsonIsRefusedNamingTheField() {
    var router = router(target(HUB, SPOKE), spokeRules(RULE));

    assertThatThrownBy(() -> router.convert(at("v1", "{valuesJSON: 'replicas: 3'}"), "v1", "v2"))
        .isInstanceOf(ConversionException.class)
        .hasMessageContaining("spec.valuesJSON")
        .hasMessageContaining("is not valid JSON");
  }

  @Test
  void jsonOfAnotherTypeThanTheValueFieldIsRefused() {
    var router = router(target(HUB, SPOKE), spokeRules(RULE));

    assertThatThrownBy(() -> router.convert(at("v1", "{valuesJSON: '[1, 2]'}"), "v1", "v2"))
        .isInstanceOf(ConversionException.class)
        .hasMessageContaining("holds array, but spec.values is object");
  }

  @Test
  void readingTextIsLossyWithACounterexampleOfTextThatComesBackRewritten() {
    var report =
        analyzed(
            target(HUB, SPOKE),
            spokeRules(
                RULE.replace(
                    "acknowledgeLossy: true\n  reason: text comes back written one way\n", "")));

    assertThat(report.diagnostics())
        .anySatisfy(d -> assertThat(d.code()).isEqualTo(DiagnosticCode.LOSSY_NOT_ACKNOWLEDGED));
    var rule = report.spokes().getFirst().ruleResults().getFirst();
    assertThat(rule.lossless().hubToSpoke()).isTrue();
    assertThat(rule.lossless().spokeToHub()).isFalse();
    assertThat(rule.counterexamples())
        .singleElement()
        .satisfies(
            c ->
                assertThat(c.describe())
                    .isEqualTo(
                        "spec.valuesJSON = \"{ }\" -> spec.values = {} -> spec.valuesJSON = \"{}\""));
  }

  @Test
  void twoStringsAreAnErrorThatPointsToFieldRename() {
    var diagnostics = rejected(target("values: {type: string}\n", SPOKE), spokeRules(RULE));

    assertThat(diagnostics)
        .anySatisfy(
            d -> {
              assertThat(d.code()).isEqualTo(DiagnosticCode.TYPE_MISMATCH);
              assertThat(d.hint()).contains("FieldRename");
            });
  }
}
