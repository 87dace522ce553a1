package dev.versio.engine;

import static dev.versio.engine.Fixtures.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.versio.engine.compile.Verdict;
import dev.versio.engine.diagnostic.DiagnosticCode;
import dev.versio.engine.runtime.ConversionException;
import org.junit.jupiter.api.Test;

class MapStrategiesTest {
  private static final String FIELDS =
      """
      ownerTeam: {type: string}
      costCenter: {type: string}
      """;
  private static final String MAP = "billing: {type: object, additionalProperties: {type: string}}";
  private static final String FIELDS_TO_MAP =
      spokeRules(
          """
      - strategy: FieldsToMap
        fieldsToMap:
          hubPaths: [spec.ownerTeam, spec.costCenter]
          spokeMapPath: spec.billing
          keyNames: {spec.ownerTeam: team, spec.costCenter: cc}
      """);

  @Test
  void fieldsToMapGathersPresentFieldsUnderTheirKeys() {
    var router = router(target(FIELDS, MAP), FIELDS_TO_MAP);
    assertThat(
            router
                .convert(object("spec: {ownerTeam: a, costCenter: '42'}"), "v2", "v1")
                .path("spec"))
        .isEqualTo(object("billing: {team: a, cc: '42'}"));
    assertThat(router.convert(object("spec: {ownerTeam: a}"), "v2", "v1").path("spec"))
        .isEqualTo(object("billing: {team: a}"));
    assertThat(router.convert(object("spec: {}"), "v2", "v1").path("spec").has("billing"))
        .as("no empty map when no field is present")
        .isFalse();
  }

  @Test
  void fieldsToMapExpandsBackAndRejectsAnUnknownKeyAtRuntime() {
    var router = router(target(FIELDS, MAP), FIELDS_TO_MAP);
    assertThat(
            router.convert(object("spec: {billing: {team: b, cc: '7'}}"), "v1", "v2").path("spec"))
        .isEqualTo(object("ownerTeam: b\ncostCenter: '7'"));
    assertThatThrownBy(
            () -> router.convert(object("spec: {billing: {team: b, region: eu}}"), "v1", "v2"))
        .isInstanceOf(ConversionException.class)
        .hasMessageContaining("spoke v1, spoke->hub, rules[0] (FieldsToMap)")
        .hasMessageContaining("unexpected key 'region'");
  }

  @Test
  void fieldsToMapWithDropIsLossyTowardsTheHub() {
    var config =
        spokeRules(
            """
        - strategy: FieldsToMap
          fieldsToMap: {hubPaths: [spec.ownerTeam, spec.costCenter], spokeMapPath: spec.billing, onUnknownSpokeKey: Drop}
          acknowledgeLossy: true
        """);
    var compiled = compiled(target(FIELDS, MAP), config);
    assertThat(compiled.plans().get("v1").verdict()).isEqualTo(new Verdict(true, false));
    var router = router(target(FIELDS, MAP), config);
    assertThat(
            router
                .convert(object("spec: {billing: {ownerTeam: x, region: eu}}"), "v1", "v2")
                .path("spec"))
        .isEqualTo(object("ownerTeam: x"));
  }

  @Test
  void fieldsToMapRejectsKeyNamesForPathsItDoesNotList() {
    var diagnostics =
        rejected(
            target(FIELDS, MAP),
            spokeRules(
                """
        - strategy: FieldsToMap
          fieldsToMap: {hubPaths: [spec.ownerTeam, spec.costCenter], spokeMapPath: spec.billing, keyNames: {ownerTeam: team}}
        """));
    assertThat(diagnostics).anySatisfy(d -> assertThat(d.hint()).contains("full dotted path"));
  }

  @Test
  void mapToFieldsSpreadsTheMapAndGathersItBack() {
    var target =
        target(
            "selectors: {type: object, additionalProperties: {type: string}}",
            """
        appSelector: {type: string}
        tierSelector: {type: string}
        """);
    var config =
        spokeRules(
            """
        - strategy: MapToFields
          mapToFields:
            hubMapPath: spec.selectors
            spokePaths: [spec.appSelector, spec.tierSelector]
            keyNames: {spec.appSelector: app, spec.tierSelector: tier}
        """);
    var router = router(target, config);
    assertThat(
            router
                .convert(object("spec: {selectors: {app: web, tier: front}}"), "v2", "v1")
                .path("spec"))
        .isEqualTo(object("appSelector: web\ntierSelector: front"));
    assertThat(router.convert(object("spec: {appSelector: api}"), "v1", "v2").path("spec"))
        .isEqualTo(object("selectors: {app: api}"));
    assertThat(router.convert(object("spec: {selectors: {}}"), "v2", "v1").path("spec").isEmpty())
        .isTrue();
    assertThatThrownBy(() -> router.convert(object("spec: {selectors: {zone: a}}"), "v2", "v1"))
        .hasMessageContaining("hub->spoke, rules[0] (MapToFields)")
        .hasMessageContaining("'zone'");
    assertThat(compiled(target, config).lossless()).isTrue();
  }

  @Test
  void aMapValueSchemaDifferenceIsNotAutoCovered() {
    var diagnostics =
        rejected(
            target(
                "labels: {type: object, additionalProperties: {type: string}}",
                "labels: {type: object, additionalProperties: {type: integer}}"),
            spokeRules("[]"));
    assertThat(diagnostics)
        .anySatisfy(
            d -> {
              assertThat(d.code()).isEqualTo(DiagnosticCode.UNCOVERED_FIELD);
              assertThat(d.message()).contains("map of string").contains("map of integer");
            });
  }
}
