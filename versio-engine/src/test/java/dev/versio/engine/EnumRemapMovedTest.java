package dev.versio.engine;

import static dev.versio.engine.Fixtures.*;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A field that moved and changed its values at once: one EnumRemap with hubPath and spokePath. */
class EnumRemapMovedTest {
  private static final String HUB =
      "privateKey: {type: object, properties: {algorithm: {type: string, enum: [RSA, ECDSA]}}}";
  private static final String SPOKE = "keyAlgorithm: {type: string, enum: [rsa, ecdsa]}";

  private static String config(String paths) {
    return spokeRules(
        """
        - strategy: EnumRemap
          enumRemap:
            %s
            mapping: [{hub: RSA, spoke: rsa}, {hub: ECDSA, spoke: ecdsa}]
        """
            .formatted(paths));
  }

  @Test
  void theValueMovesAndIsRemappedBothWaysAndTheRuleIsLossless() {
    var config =
        config(
            "{hubPath: spec.privateKey.algorithm, spokePath: spec.keyAlgorithm}"
                .replace("{", "")
                .replace("}", "")
                .replace(", ", "\n    "));
    var router = router(target(HUB, SPOKE), config);
    var hub =
        object(
            "{apiVersion: example.test/v2, kind: Widget, spec: {privateKey: {algorithm: ECDSA}}}");
    var spoke = router.convert(hub, "v2", "v1");
    assertThat(spoke.path("spec")).isEqualTo(object("{keyAlgorithm: ecdsa}"));
    assertThat(router.convert(spoke, "v1", "v2").path("spec")).isEqualTo(hub.path("spec"));
    assertThat(compiled(target(HUB, SPOKE), config).lossless()).isTrue();
  }

  @Test
  void pathTogetherWithHubPathOrOnlyOneOfTheTwoIsRejectedWithTheFix() {
    assertThat(
            lines(
                rejected(
                    target(HUB, SPOKE),
                    config("path: spec.keyAlgorithm\n    hubPath: spec.privateKey.algorithm"))))
        .contains("either path, or hubPath and spokePath, not both");
    assertThat(lines(rejected(target(HUB, SPOKE), config("hubPath: spec.privateKey.algorithm"))))
        .contains("needs both hubPath and spokePath");
    assertThat(lines(rejected(target(HUB, SPOKE), config("onUnmappedHubValue: Error"))))
        .contains("enumRemap.path is required");
  }
}
