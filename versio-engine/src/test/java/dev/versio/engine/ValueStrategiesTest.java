package dev.versio.engine;

import static dev.versio.engine.Fixtures.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.versio.engine.compile.Verdict;
import dev.versio.engine.diagnostic.DiagnosticCode;
import dev.versio.engine.schema.SchemaNode;
import dev.versio.engine.schema.VersionSchema;
import org.junit.jupiter.api.Test;

class ValueStrategiesTest {
  private static final String HUB = "name: {type: string}";
  private static final String SPOKE = "name: {type: string}\nmaxConnections: {type: integer}";

  @Test
  void defaultValueWritesTheDefaultTowardsTheDeclaringSideAlwaysAndDropsItOnTheWayBack() {
    var config =
        spokeRules(
            """
        - strategy: DefaultValue
          defaultValue: {path: spec.maxConnections, existsOn: Spoke, default: 100}
          acknowledgeLossy: true
          reason: v1-only knob
        """);
    var router = router(target(HUB, SPOKE), config);
    assertThat(router.convert(object("metadata: {name: x}"), "v2", "v1").path("spec"))
        .isEqualTo(object("maxConnections: 100"));
    assertThat(
            router.convert(object("spec: {name: a, maxConnections: 5}"), "v1", "v2").path("spec"))
        .isEqualTo(object("name: a"));
    assertThat(compiled(target(HUB, SPOKE), config).plans().get("v1").verdict())
        .isEqualTo(new Verdict(true, false));
  }

  @Test
  void defaultValueMustBeAcknowledgedBecauseOneDirectionDrops() {
    assertThat(
            rejected(
                target(HUB, SPOKE),
                spokeRules(
                    """
        - strategy: DefaultValue
          defaultValue: {path: spec.maxConnections, existsOn: Spoke, default: 100}
        """)))
        .extracting(d -> d.code())
        .containsExactly(DiagnosticCode.LOSSY_NOT_ACKNOWLEDGED);
  }

  @Test
  void aDefaultThatDoesNotFitTheSchemaIsRejected() {
    var diagnostics =
        rejected(
            target(HUB, SPOKE),
            spokeRules(
                """
        - strategy: DefaultValue
          defaultValue: {path: spec.maxConnections, existsOn: Spoke, default: "lots"}
          acknowledgeLossy: true
        """));
    assertThat(diagnostics)
        .anySatisfy(d -> assertThat(d.message()).contains("does not fit").contains("integer"));
  }

  @Test
  void constantOnTheHubSideIsInjectedTowardsTheHub() {
    var target = target("name: {type: string}\napiLevel: {type: string}", "name: {type: string}");
    var config =
        spokeRules(
            """
        - strategy: Constant
          constant: {path: spec.apiLevel, existsOn: Hub, value: "1"}
          acknowledgeLossy: true
        """);
    var router = router(target, config);
    assertThat(router.convert(object("spec: {name: a}"), "v1", "v2").path("spec"))
        .isEqualTo(object("name: a\napiLevel: '1'"));
    assertThat(router.convert(object("spec: {name: a, apiLevel: '9'}"), "v2", "v1").path("spec"))
        .isEqualTo(object("name: a"));
    assertThat(compiled(target, config).plans().get("v1").verdict())
        .isEqualTo(new Verdict(false, true));
  }

  @Test
  void deleteDropsTheFieldAndWarnsWhenItIsRequired() {
    var target =
        target(
            """
        name: {type: string}
        experimentalMode: {type: boolean}
        """,
            HUB);
    var config =
        spokeRules(
            """
        - strategy: Delete
          delete: {path: spec.experimentalMode, existsOn: Hub}
          acknowledgeLossy: true
        """);
    var router = router(target, config);
    assertThat(
            router
                .convert(object("spec: {name: a, experimentalMode: true}"), "v2", "v1")
                .path("spec"))
        .isEqualTo(object("name: a"));
    assertThat(compiled(target, config).plans().get("v1").verdict())
        .isEqualTo(new Verdict(false, true));
  }

  @Test
  void deletingARequiredFieldWarns() {
    var hub = specSchemaWithRequired();
    var compiled =
        compiled(
            target(
                new VersionSchema("v2", true, true, hub),
                new VersionSchema("v1", true, false, specSchema(HUB))),
            spokeRules(
                """
        - strategy: Delete
          delete: {path: spec.mode, existsOn: Hub}
          acknowledgeLossy: true
        """));
    assertThat(compiled.warnings())
        .extracting(d -> d.code())
        .contains(DiagnosticCode.DELETE_OF_REQUIRED_FIELD);
  }

  private static SchemaNode specSchemaWithRequired() {
    return SchemaNode.parse(
        yaml(
            """
        type: object
        properties:
          apiVersion: {type: string}
          kind: {type: string}
          metadata: {type: object}
          spec:
            type: object
            required: [mode]
            properties:
              name: {type: string}
              mode: {type: string}
        """));
  }
}
