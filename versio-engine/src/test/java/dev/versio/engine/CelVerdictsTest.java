package dev.versio.engine;

import static dev.versio.engine.Fixtures.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.versio.engine.diagnostic.DiagnosticCode;
import org.junit.jupiter.api.Test;

/** What the analysis says of a CEL rule is what running it shows. */
class CelVerdictsTest {
  private static final String HUB =
      "replicas: {type: integer}\nport: {type: integer, minimum: 1024, maximum: 65535}";
  private static final String SPOKE =
      "size: {type: integer}\nport: {type: integer, minimum: 1024, maximum: 65535}";

  private static String cel(String hubToSpoke, String spokeToHub) {
    return spokeRules(
        """
        - strategy: CEL
          acknowledgeLossy: true
          reason: checked by samples
          cel:
            hubPaths: [spec.replicas]
            spokePaths: [spec.size]
            hubToSpoke: '%s'
            spokeToHub: '%s'
        """
            .formatted(hubToSpoke, spokeToHub));
  }

  @Test
  void aValueThatConvertsButCannotConvertBackIsACounterexample() {
    var report =
        analyzed(
            target(HUB, SPOKE),
            cel(
                "{\"spec.size\": object.spec.replicas}",
                "{\"spec.replicas\": object.spec.size + 10 / (object.spec.size - 1) * 0}"));
    var rule = report.spokes().getFirst().ruleResults().getFirst();
    var hubToSpoke =
        rule.counterexamples().stream()
            .filter(c -> c.direction().equals("hub->spoke"))
            .findFirst()
            .orElseThrow();
    assertThat(hubToSpoke.failure()).contains("/ by zero");
    assertThat(hubToSpoke.describe())
        .startsWith("spec.replicas = 1 -> spec.size = 1 -> converting back fails:");
  }

  @Test
  void aValueTheExpressionDropsIsACounterexampleEvenThoughTheWayBackReadsNothing() {
    // converting back, the expression's only source is absent: it writes nothing (an object
    // lacking fields converts), and the value the way there dropped is reported as lost
    var report =
        analyzed(
            target(HUB, SPOKE),
            cel(
                "object.spec.replicas > 3 ? {\"spec.size\": object.spec.replicas} : {}",
                "{\"spec.replicas\": object.spec.size}"));
    var rule = report.spokes().getFirst().ruleResults().getFirst();
    var hubToSpoke =
        rule.counterexamples().stream()
            .filter(c -> c.direction().equals("hub->spoke"))
            .findFirst()
            .orElseThrow();
    assertThat(hubToSpoke.failure()).isNull();
    assertThat(hubToSpoke.describe())
        .isEqualTo("spec.replicas = 0 -> (not kept) -> spec.replicas absent");
  }

  @Test
  void anExpressionThatFailsOnEveryValueIsAnErrorEvenWhenAcknowledged() {
    var errors =
        rejected(
            target(HUB, SPOKE),
            cel(
                "{\"spec.size\": int(string(object.spec.replicas) + \"x\")}",
                "{\"spec.replicas\": object.spec.size}"));
    assertThat(errors)
        .anySatisfy(
            d -> {
              assertThat(d.code()).isEqualTo(DiagnosticCode.RULE_ALWAYS_FAILS);
              assertThat(d.message())
                  .contains("cel.hubToSpoke fails on every value tried")
                  .contains("spec.replicas = 0");
            });
  }

  @Test
  void anExpressionThatFailsOnlyOnSomeValuesCompiles() {
    compiled(
        target(HUB, SPOKE),
        cel(
            "{\"spec.size\": 100 / object.spec.replicas}",
            "{\"spec.replicas\": 100 / object.spec.size}"));
  }

  @Test
  void probesKeepToTheMinimumAndMaximumOfANumber() {
    var config =
        spokeRules(
            """
        - strategy: CEL
          acknowledgeLossy: true
          cel:
            hubPaths: [spec.port]
            spokePaths: [spec.port]
            hubToSpoke: '{"spec.port": object.spec.port == 65535 ? 65534 : object.spec.port}'
            spokeToHub: '{"spec.port": object.spec.port}'
        - strategy: FieldRename
          fieldRename: {hubPath: spec.replicas, spokePath: spec.size}
        """);
    var rule = analyzed(target(HUB, SPOKE), config).spokes().getFirst().ruleResults().getFirst();
    assertThat(rule.counterexamples())
        .as("the edge of the range is probed, and nothing outside it")
        .anySatisfy(
            c -> assertThat(c.describe()).startsWith("spec.port = 65535 -> spec.port = 65534"));
    assertThat(rule.counterexamples().toString()).doesNotContain("spec.port = 0 ");
  }
}
