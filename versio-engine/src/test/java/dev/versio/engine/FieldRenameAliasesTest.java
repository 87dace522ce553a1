package dev.versio.engine;

import static dev.versio.engine.Fixtures.*;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A spoke that still accepts a deprecated alias of a field: both fold into one hub field. */
class FieldRenameAliasesTest {
  private static final String HUB = "minScale: {type: integer}";
  private static final String SPOKE = "minScale: {type: integer}\nminReplicas: {type: integer}";
  private static final String CONFIG =
      spokeRules(
          """
      - strategy: FieldRename
        acknowledgeLossy: true
        reason: minReplicas is the deprecated spelling; it comes back as minScale
        fieldRename: {hubPath: spec.minScale, spokePath: spec.minScale, spokeAliases: [spec.minReplicas]}
      """);

  @Test
  void theFieldWinsOverItsAliasAndTheAliasIsReadWhenTheFieldIsNotSet() {
    var router = router(target(HUB, SPOKE), CONFIG);
    var both =
        object("{apiVersion: example.test/v1, kind: Widget, spec: {minScale: 2, minReplicas: 5}}");
    assertThat(router.convert(both, "v1", "v2").path("spec")).isEqualTo(object("{minScale: 2}"));
    var aliasOnly = object("{apiVersion: example.test/v1, kind: Widget, spec: {minReplicas: 5}}");
    assertThat(router.convert(aliasOnly, "v1", "v2").path("spec"))
        .isEqualTo(object("{minScale: 5}"));
    var hub = object("{apiVersion: example.test/v2, kind: Widget, spec: {minScale: 3}}");
    assertThat(router.convert(hub, "v2", "v1").path("spec")).isEqualTo(object("{minScale: 3}"));
  }

  @Test
  void spokeToHubIsLossyWithACounterexampleAndHubToSpokeIsNot() {
    var rule = analyzed(target(HUB, SPOKE), CONFIG).spokes().getFirst().ruleResults().getFirst();
    assertThat(rule.lossless().hubToSpoke()).isTrue();
    assertThat(rule.lossless().spokeToHub()).isFalse();
    assertThat(rule.counterexamples())
        .singleElement()
        .satisfies(c -> assertThat(c.describe()).contains("spec.minReplicas"));
    assertThat(lines(rejected(target(HUB, SPOKE), CONFIG.replace("acknowledgeLossy: true", ""))))
        .contains("spoke->hub conversion is lossy");
  }

  @Test
  void anAliasOfAnotherShapeIsAnError() {
    var spoke = "minScale: {type: integer}\nminReplicas: {type: string}";
    assertThat(lines(rejected(target(HUB, spoke), CONFIG)))
        .contains("alias spec.minReplicas and spec.minScale differ in shape");
  }
}
