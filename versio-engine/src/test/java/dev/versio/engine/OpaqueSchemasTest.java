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

  private static final String WRAP_TLS =
      spokeRules(
          """
      - strategy: ScalarToObject
        scalarToObject: {hubPath: spec.tls, spokePath: spec.tlsConfig, key: enabled}
      """);

  @Test
  void aStrategyThatNeedsATypeTheOpaqueSchemaDoesNotDeclareSaysSoAndHowToDeclareIt() {
    var diagnostics = rejected(opaque(), WRAP_TLS);

    assertThat(diagnostics)
        .anySatisfy(
            d -> {
              assertThat(d.code())
                  .isEqualTo(dev.versio.engine.diagnostic.DiagnosticCode.TYPE_NOT_DECLARED);
              assertThat(d.message())
                  .contains("spec.tlsConfig lies inside spec, which keeps unknown fields");
              assertThat(d.hint()).contains("declare spec.tlsConfig among the properties of spec");
            });
  }

  @Test
  void fieldsDeclaredBesideUnknownOnesAreTypedAndTheirRulesCompile() {
    var declared =
        OPAQUE_SPEC.replace(
            "spec: {type: object, x-kubernetes-preserve-unknown-fields: true}",
            "spec: {type: object, x-kubernetes-preserve-unknown-fields: true, properties: {tls: {type:"
                + " boolean}, tlsConfig: {type: object, properties: {enabled: {type: boolean}}}}}");
    var hub = dev.versio.engine.schema.SchemaNode.parse(object(declared));
    var target =
        target(new VersionSchema("v2", true, true, hub), new VersionSchema("v1", true, false, hub));

    var converted =
        router(target, WRAP_TLS)
            .convert(
                object(
                    "{apiVersion: example.test/v2, kind: Widget, spec: {tls: true, other: [1]}}"),
                "v2",
                "v1");

    assertThat(converted.path("spec"))
        .isEqualTo(object("{tlsConfig: {enabled: true}, other: [1]}"));
  }
}
