package dev.versio.engine;

import static dev.versio.engine.Fixtures.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.versio.engine.compile.Verdict;
import dev.versio.engine.diagnostic.DiagnosticCode;
import org.junit.jupiter.api.Test;

class EnumRemapTest {
  private static final String HUB = "tier: {type: string, enum: [Premium, Basic]}";
  private static final String SPOKE = "tier: {type: string, enum: [P, B]}";
  private static final String CONFIG =
      spokeRules(
          """
      - strategy: EnumRemap
        enumRemap:
          path: spec.tier
          mapping: [{hub: Premium, spoke: P}, {hub: Basic, spoke: B}]
      """);

  @Test
  void valuesAreRemappedBothWays() {
    var router = router(target(HUB, SPOKE), CONFIG);
    assertThat(router.convert(object("spec: {tier: Premium}"), "v2", "v1").path("spec"))
        .isEqualTo(object("tier: P"));
    assertThat(router.convert(object("spec: {tier: B}"), "v1", "v2").path("spec"))
        .isEqualTo(object("tier: Basic"));
    assertThat(compiled(target(HUB, SPOKE), CONFIG).lossless()).isTrue();
  }

  @Test
  void withoutARuleDifferingEnumsAreUncoveredAndTheHintNamesEnumRemap() {
    var diagnostics = rejected(target(HUB, SPOKE), spokeRules("[]"));
    assertThat(diagnostics)
        .anySatisfy(
            d -> {
              assertThat(d.code()).isEqualTo(DiagnosticCode.UNCOVERED_FIELD);
              assertThat(d.path()).isEqualTo("spec.tier");
              assertThat(d.hint()).contains("EnumRemap");
            });
  }

  @Test
  void aHubEnumValueLeftUnmappedIsACompileErrorUnderError() {
    var diagnostics =
        rejected(target("tier: {type: string, enum: [Premium, Basic, Gold]}", SPOKE), CONFIG);
    assertThat(diagnostics)
        .singleElement()
        .satisfies(
            d -> {
              assertThat(d.code()).isEqualTo(DiagnosticCode.ENUM_VALUE_UNMAPPED);
              assertThat(d.message()).contains("\"Gold\"");
              assertThat(d.hint()).contains("onUnmappedHubValue: Drop");
            });
  }

  @Test
  void aValueOutsideTheSchemaEnumFailsAtRuntimeUnderErrorAndIsDroppedUnderDrop() {
    var open = target("tier: {type: string}", "tier: {type: string}");
    var strict = router(open, CONFIG);
    assertThatThrownBy(() -> strict.convert(object("spec: {tier: Gold}"), "v2", "v1"))
        .hasMessageContaining("rules[0] (EnumRemap) at spec.tier")
        .hasMessageContaining("unmapped value \"Gold\"");
    var dropping =
        router(
            open,
            spokeRules(
                """
        - strategy: EnumRemap
          enumRemap: {path: spec.tier, mapping: [{hub: Premium, spoke: P}], onUnmappedHubValue: Drop}
          acknowledgeLossy: true
        """));
    assertThat(dropping.convert(object("spec: {tier: Gold}"), "v2", "v1").path("spec").has("tier"))
        .isFalse();
  }

  @Test
  void keysAreTypedSoTheStringTwoIsNotTheNumberTwoButTwoPointZeroIs() {
    var target = target("level: {type: integer}", "level: {type: string}");
    var router =
        router(
            target,
            spokeRules(
                """
        - strategy: EnumRemap
          enumRemap: {path: spec.level, mapping: [{hub: 2, spoke: "two"}]}
        """));
    assertThat(router.convert(object("spec: {level: 2.0}"), "v2", "v1").path("spec"))
        .isEqualTo(object("level: two"));
    assertThatThrownBy(() -> router.convert(object("spec: {level: '2'}"), "v2", "v1"))
        .hasMessageContaining("unmapped");
  }

  @Test
  void aMappingThatIsNotOneToOneWarnsAndIsLossyTowardsTheHub() {
    var target = target("tier: {type: string}", "tier: {type: string}");
    var compiled =
        compiled(
            target,
            spokeRules(
                """
        - strategy: EnumRemap
          enumRemap: {path: spec.tier, mapping: [{hub: Premium, spoke: P}, {hub: Gold, spoke: P}]}
          acknowledgeLossy: true
        """));
    assertThat(compiled.plans().get("v1").verdict()).isEqualTo(new Verdict(true, false));
    assertThat(compiled.warnings())
        .extracting(d -> d.code())
        .contains(DiagnosticCode.ENUM_NOT_INJECTIVE);
  }
}
