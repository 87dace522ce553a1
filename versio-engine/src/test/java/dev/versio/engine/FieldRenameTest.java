package dev.versio.engine;

import static dev.versio.engine.Fixtures.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.versio.engine.diagnostic.DiagnosticCode;
import org.junit.jupiter.api.Test;

class FieldRenameTest {
  private static final String HUB =
      """
      replicas: {type: integer}
      image: {type: string}
      """;
  private static final String SPOKE =
      """
      size: {type: integer}
      image: {type: string}
      """;
  private static final String CONFIG =
      spokeRules(
          """
      - strategy: FieldRename
        fieldRename: {hubPath: spec.replicas, spokePath: spec.size}
      """);

  @Test
  void hubToSpokeMovesTheValueAndKeepsIdenticalFieldsAndMetadata() {
    var router = router(target(HUB, SPOKE), CONFIG);
    var hub =
        object(
            """
        apiVersion: example.test/v2
        kind: Widget
        metadata: {name: w, labels: {a: b}}
        spec: {replicas: 3, image: nginx}
        """);

    var spoke = router.convert(hub, "v2", "v1");

    assertThat(spoke)
        .isEqualTo(
            object(
                """
        apiVersion: example.test/v1
        kind: Widget
        metadata: {name: w, labels: {a: b}}
        spec: {size: 3, image: nginx}
        """));
    assertThat(hub.path("spec").has("replicas")).as("input untouched").isTrue();
  }

  @Test
  void spokeToHubMovesItBack() {
    var router = router(target(HUB, SPOKE), CONFIG);
    var hub =
        router.convert(
            object("apiVersion: example.test/v1\nkind: Widget\nspec: {size: 7}\n"), "v1", "v2");
    assertThat(hub.path("spec")).isEqualTo(object("replicas: 7"));
    assertThat(hub.path("apiVersion").asText()).isEqualTo("example.test/v2");
  }

  @Test
  void theRenameIsLosslessBothWays() {
    var config = compiled(target(HUB, SPOKE), CONFIG);
    assertThat(config.plans().get("v1").verdict().lossless()).isTrue();
  }

  @Test
  void aTypeMismatchIsRejectedWithAHintToCoerce() {
    var diagnostics = rejected(target(HUB, "size: {type: string}\nimage: {type: string}"), CONFIG);
    assertThat(diagnostics)
        .anySatisfy(
            d -> {
              assertThat(d.code()).isEqualTo(DiagnosticCode.TYPE_MISMATCH);
              assertThat(d.spoke()).isEqualTo("v1");
              assertThat(d.ruleIndex()).isZero();
              assertThat(d.message())
                  .contains("spec.replicas")
                  .contains("integer")
                  .contains("string");
              assertThat(d.hint()).contains("TypeCoerce");
            });
  }

  @Test
  void withoutTheRuleTheRenamedFieldsAreUncoveredOnBothSides() {
    var diagnostics = rejected(target(HUB, SPOKE), spokeRules("[]"));
    assertThat(diagnostics)
        .filteredOn(d -> d.code() == DiagnosticCode.UNCOVERED_FIELD)
        .extracting(d -> d.path())
        .containsExactlyInAnyOrder("spec.replicas", "spec.size");
    assertThat(diagnostics).allSatisfy(d -> assertThat(d.hint()).contains("FieldRename"));
  }
}
