package dev.versio.engine;

import static dev.versio.engine.Fixtures.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.versio.engine.schema.SchemaSource;
import dev.versio.engine.schema.VersionSchema;
import org.junit.jupiter.api.Test;

/**
 * CRDs that keep unknown fields at {@code spec} (as several large projects ship them): rules may
 * reach inside, the rest is copied as it is, and the report says the schemas cannot verify it.
 */
class OpaqueSchemasTest {
  private static final String OPAQUE_SPEC =
      """
      type: object
      properties:
        apiVersion: {type: string}
        kind: {type: string}
        metadata: {type: object}
        spec: {type: object, x-kubernetes-preserve-unknown-fields: true}
      """;

  private static SchemaSource opaque() {
    var schema = dev.versio.engine.schema.SchemaNode.parse(object(OPAQUE_SPEC));
    return target(
        new VersionSchema("v2", true, true, schema), new VersionSchema("v1", true, false, schema));
  }

  private static final String MOVE_TIMEOUT =
      spokeRules(
          """
      - strategy: FieldRename
        fieldRename: {hubPath: spec.timeouts.pipeline, spokePath: spec.timeout}
      """);

  @Test
  void aRuleInsideAnOpaqueSpecConvertsItsFieldAndEverythingElseIsCopiedBothWays() {
    var router = router(opaque(), MOVE_TIMEOUT);
    var spoke =
        object(
            """
            apiVersion: example.test/v1
            kind: Widget
            spec: {timeout: 1h, tasks: [{name: a, params: {x: 1}}], serviceAccount: build}
            """);
    var hub = router.convert(spoke, "v1", "v2");
    assertThat(hub.path("spec"))
        .isEqualTo(
            object(
                """
                timeouts: {pipeline: 1h}
                tasks: [{name: a, params: {x: 1}}]
                serviceAccount: build
                """));
    assertThat(router.convert(hub, "v2", "v1").path("spec")).isEqualTo(spoke.path("spec"));
  }

  @Test
  void theReportNamesTheOpaqueFieldsSoThatNoVerdictClaimsMoreThanTheSchemasShow() {
    var report = analyzed(opaque(), MOVE_TIMEOUT).spokes().getFirst();
    assertThat(report.opaque()).containsExactly("spec");
    assertThat(report.verifiable()).isFalse();
    var typed =
        analyzed(
                target("size: {type: integer}", "size: {type: integer}"),
                spokeRules("[]").replace("rules:\n    []", "rules: []"))
            .spokes()
            .getFirst();
    assertThat(typed.verifiable()).isTrue();
  }

  @Test
  void aPathThroughATypedFieldThatIsNotDeclaredIsStillAnError() {
    var config =
        spokeRules(
            """
        - strategy: FieldRename
          fieldRename: {hubPath: spec.size, spokePath: spec.sizes}
        """);
    assertThat(lines(rejected(target("size: {type: integer}", "size: {type: integer}"), config)))
        .contains("PATH_NOT_FOUND");
  }
}
