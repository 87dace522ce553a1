package dev.versio.bench.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class FleetPlanTest {
  private static final List<String> ALL_30 =
      List.of(
          "ArrayToMapByKey",
          "CEL",
          "Constant",
          "DefaultValue",
          "Delete",
          "Duration",
          "EnumRemap",
          "FieldRename",
          "FieldsToMap",
          "FieldsToScalar",
          "ForEach",
          "FromAnnotation",
          "FromLabel",
          "JSONPatch",
          "JSONString",
          "ListJoin",
          "ListSplit",
          "MapKeyRename",
          "MapToArrayByKey",
          "MapToFields",
          "NumericScale",
          "ObjectToScalar",
          "ObjectToSingletonArray",
          "Quantity",
          "ScalarToFields",
          "ScalarToObject",
          "SingletonArrayToObject",
          "ToAnnotation",
          "ToLabel",
          "TypeCoerce");

  @Test
  void twentyCrdsCoverAllThirtyStrategiesWithThreeToTenPerSpoke() {
    var fleet = FleetPlan.generate(20, 3, 10, 1);

    assertThat(fleet).hasSize(20);
    assertThat(FleetPlan.strategies(fleet)).containsExactlyElementsOf(ALL_30);
    assertThat(fleet)
        .allSatisfy(
            t ->
                assertThat(t.casesBySpoke().values())
                    .hasSize(2)
                    .allSatisfy(cases -> assertThat(cases).hasSizeBetween(3, 10)));
  }

  @Test
  void theSmallestFleetThatCanCoverEveryCaseStillDoes() {
    var fleet = FleetPlan.generate(2, 8, 8, 7);

    assertThat(FleetPlan.strategies(fleet)).containsExactlyElementsOf(ALL_30);
  }

  @Test
  void aFleetTooSmallToCoverEveryCaseIsRefusedWithWhatToChange() {
    assertThatThrownBy(() -> FleetPlan.generate(1, 3, 10, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("cannot cover all 31 cases")
        .hasMessageContaining("raise the CRD count or the maximum");
    assertThatThrownBy(() -> FleetPlan.generate(5, 4, 3, 1)).hasMessageContaining("1 ≤ min ≤ max");
  }

  @Test
  void theSameSeedGivesTheSameFleetAndAnotherSeedAnotherOne() {
    var once = FleetPlan.generate(20, 3, 10, 42);

    assertThat(FleetPlan.generate(20, 3, 10, 42)).isEqualTo(once);
    assertThat(FleetPlan.generate(20, 3, 10, 43)).isNotEqualTo(once);
  }

  @Test
  void everyGeneratedTargetCompilesAndItsObjectsConvertToEverySpokeAndBack() {
    for (var target : FleetPlan.generate(20, 3, 10, 1)) {
      var router = target.router();
      var hub = target.hubObject("fleet", "obj-000");
      for (var spoke : FleetPlan.SPOKES) {
        var atSpoke = router.convert(hub, FleetPlan.HUB, spoke);
        assertThat(atSpoke.path("apiVersion").asText()).isEqualTo(FleetPlan.GROUP + "/" + spoke);
        assertThat(atSpoke.path("spec").path("fixture").asText())
            .isEqualTo(hub.path("spec").path("fixture").asText());
        var back = router.convert(atSpoke, spoke, FleetPlan.HUB);
        assertThat(back.path("spec").path("fixture")).isEqualTo(hub.path("spec").path("fixture"));
        // created at a spoke, stored at the hub, read back at that spoke: what the fleet checks
        assertThat(router.convert(back, FleetPlan.HUB, spoke).path("spec"))
            .as("%s at %s after a round trip through the hub", target.kind(), spoke)
            .isEqualTo(atSpoke.path("spec"));
      }
    }
  }

  @Test
  void aCaseIsMovedUnderItsOwnFieldAndKey() {
    int index = FleetPlan.CASES.indexOf("ToAnnotation");
    var field = String.format("s%02d", index);

    var rules =
        FleetPlan.rewrite(
            "[{strategy: ToAnnotation, toAnnotation: {hubPath: spec.a, key: bench/a}}]",
            "ToAnnotation");

    assertThat(rules)
        .isEqualTo(
            "[{strategy: ToAnnotation, toAnnotation: {hubPath: spec."
                + field
                + ".a, key: bench/"
                + field
                + "}}]");
    assertThat(FleetPlan.rewrite("{op: move, from: /spec/ttl}", "ToAnnotation"))
        .isEqualTo("{op: move, from: /spec/" + field + "/ttl}");
  }
}
