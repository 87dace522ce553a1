package dev.versio.engine;

import static dev.versio.engine.Fixtures.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.versio.engine.diagnostic.DiagnosticCode;
import org.junit.jupiter.api.Test;

class NeedlessAcknowledgementTest {
  private static final String HUB = "replicas: {type: integer}\nnotes: {type: string}";
  private static final String SPOKE = "size: {type: integer}";

  @Test
  void anAcknowledgementOnALosslessRuleWarnsAndOneOnALossyRuleDoesNot() {
    var config =
        spokeRules(
            """
        - strategy: FieldRename
          acknowledgeLossy: true
          fieldRename: {hubPath: spec.replicas, spokePath: spec.size}
        - strategy: Delete
          acknowledgeLossy: true
          delete: {path: spec.notes, existsOn: Hub}
        """);
    var report = analyzed(target(HUB, SPOKE), config);
    var needless =
        report.diagnostics().stream()
            .filter(d -> d.code() == DiagnosticCode.NEEDLESS_ACKNOWLEDGEMENT)
            .toList();
    assertThat(needless).hasSize(1);
    assertThat(needless.getFirst().message()).contains("rule (FieldRename)");
    assertThat(needless.getFirst().hint()).contains("remove acknowledgeLossy").contains("rules[0]");
  }
}
