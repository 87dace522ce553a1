package dev.versio.engine;

import static dev.versio.engine.Fixtures.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.versio.engine.compile.Verdict;
import dev.versio.engine.diagnostic.DiagnosticCode;
import dev.versio.engine.route.Router;
import dev.versio.engine.runtime.ConversionException;
import org.junit.jupiter.api.Test;

class MetadataStrategiesTest {
  private static final String HUB =
      """
      name: {type: string}
      notes: {type: object, properties: {text: {type: string}, priority: {type: integer}}}
      """;
  private static final String SPOKE = "name: {type: string}";

  /** spec.notes kept in an annotation of the spoke, restored on the way back. */
  private static Router notesInAnAnnotation() {
    return router(
        target(HUB, SPOKE),
        spokeRules(
            """
        - strategy: ToAnnotation
          toAnnotation: {hubPath: spec.notes, key: example.test/notes, restoreOnReverse: true}
        """));
  }

  @Test
  void toAnnotationStashesSortedJsonAndRestoresItRemovingTheKey() {
    var router = notesInAnAnnotation();
    var spoke =
        router.convert(
            object(
                "metadata: {name: w}\nspec: {name: a, notes: {text: hi, priority: 12345678901234567890}}"),
            "v2",
            "v1");
    assertThat(spoke.path("metadata").path("annotations").path("example.test/notes").asText())
        .isEqualTo("{\"priority\":12345678901234567890,\"text\":\"hi\"}");
    assertThat(spoke.path("spec")).isEqualTo(object("name: a"));

    var hub = router.convert(spoke, "v1", "v2");
    assertThat(hub.path("spec"))
        .isEqualTo(object("name: a\nnotes: {text: hi, priority: 12345678901234567890}"));
    assertThat(hub.path("metadata")).isEqualTo(object("name: w"));
  }

  @Test
  void aConversionWhoseRulesNeverWriteMetadataSharesTheInputsMetadataInsteadOfCopyingIt() {
    var router = router(target(HUB, HUB), "hubVersion: v2\nspokes:\n- version: v1\n  rules: []\n");
    var input = object("metadata: {name: w, labels: {a: b}}\nspec: {name: a}");
    var spoke = router.convert(input, "v2", "v1");
    assertThat(spoke.get("metadata")).isSameAs(input.get("metadata"));
  }

  @Test
  void stashingAndRestoringAnnotationsNeverChangesTheInputsMetadata() {
    var router = notesInAnAnnotation();
    var hub = object("metadata: {name: w, labels: {a: b}}\nspec: {name: a, notes: {text: hi}}");
    var hubBefore = hub.deepCopy();
    var spoke = router.convert(hub, "v2", "v1");
    var spokeBefore = spoke.deepCopy();
    router.convert(spoke, "v1", "v2");
    assertThat(hub).isEqualTo(hubBefore);
    assertThat(spoke).isEqualTo(spokeBefore);
    assertThat(spoke.get("metadata")).isNotSameAs(hub.get("metadata"));
  }

  @Test
  void toAnnotationWithoutRestoreIsLossyBothWaysAndStripsTheKey() {
    var config =
        spokeRules(
            """
        - strategy: ToAnnotation
          toAnnotation: {hubPath: spec.notes, key: example.test/notes}
          acknowledgeLossy: true
        """);
    assertThat(compiled(target(HUB, SPOKE), config).plans().get("v1").verdict())
        .isEqualTo(new Verdict(false, false));
    var hub =
        router(target(HUB, SPOKE), config)
            .convert(
                object(
                    "metadata: {annotations: {example.test/notes: '{}', keep: me}}\nspec: {name: a}"),
                "v1",
                "v2");
    assertThat(hub.path("metadata")).isEqualTo(object("annotations: {keep: me}"));
  }

  @Test
  void restoringAnAnnotationThatIsNotJsonFailsWithAFix() {
    var router = notesInAnAnnotation();
    assertThatThrownBy(
            () ->
                router.convert(
                    object("metadata: {annotations: {example.test/notes: hello}}"), "v1", "v2"))
        .isInstanceOf(ConversionException.class)
        .hasMessageContaining("rules[0] (ToAnnotation)")
        .hasMessageContaining("not valid JSON");
  }

  @Test
  void toLabelWithStringSerializationRoundTripsAndValidatesTheValue() {
    var target = target("env: {type: string}", "{}");
    var router =
        router(
            target,
            spokeRules(
                """
        - strategy: ToLabel
          toLabel: {hubPath: spec.env, key: example.test/env, serialization: String, restoreOnReverse: true}
        """));
    var spoke = router.convert(object("spec: {env: prod}"), "v2", "v1");
    assertThat(spoke.path("metadata").path("labels")).isEqualTo(object("example.test/env: prod"));
    assertThat(router.convert(spoke, "v1", "v2").path("spec")).isEqualTo(object("env: prod"));
    assertThatThrownBy(() -> router.convert(object("spec: {env: 'not a label!'}"), "v2", "v1"))
        .hasMessageContaining("label value");
  }

  @Test
  void toLabelWithJsonSerializationOfAStringFailsAtRuntimeBecauseQuotesAreNotValidInLabels() {
    var router =
        router(
            target("env: {type: string}", "{}"),
            spokeRules(
                """
        - strategy: ToLabel
          toLabel: {hubPath: spec.env, key: example.test/env, restoreOnReverse: true}
        """));
    assertThatThrownBy(() -> router.convert(object("spec: {env: prod}"), "v2", "v1"))
        .hasMessageContaining("label value");
  }

  @Test
  void aToLabelKeyThatIsNotAQualifiedNameIsRejected() {
    var diagnostics =
        rejected(
            target("env: {type: string}", "{}"),
            spokeRules(
                """
        - strategy: ToLabel
          toLabel: {hubPath: spec.env, key: "Bad Key!"}
        """));
    assertThat(diagnostics).anySatisfy(d -> assertThat(d.message()).contains("invalid label key"));
  }

  @Test
  void fromAnnotationRestoresTheSpokeFieldFromTheHubAnnotationAndStashesBack() {
    var target =
        target("name: {type: string}", "name: {type: string}\nlegacyComment: {type: string}");
    var router =
        router(
            target,
            spokeRules(
                """
        - strategy: FromAnnotation
          fromAnnotation: {spokePath: spec.legacyComment, key: example.test/legacy-comment, stashOnReverse: true}
        """));
    var hub = router.convert(object("spec: {name: a, legacyComment: old}"), "v1", "v2");
    assertThat(
            hub.path("metadata").path("annotations").path("example.test/legacy-comment").asText())
        .isEqualTo("\"old\"");
    var spoke = router.convert(hub, "v2", "v1");
    assertThat(spoke.path("spec")).isEqualTo(object("name: a\nlegacyComment: old"));
    assertThat(spoke.path("metadata").has("annotations")).isFalse();
  }

  @Test
  void fromLabelRejectsJsonSerialization() {
    var diagnostics =
        rejected(
            target("name: {type: string}", "name: {type: string}\nzone: {type: string}"),
            spokeRules(
                """
        - strategy: FromLabel
          fromLabel: {spokePath: spec.zone, key: example.test/zone, serialization: JSON}
        """));
    assertThat(diagnostics)
        .extracting(d -> d.code())
        .contains(DiagnosticCode.LABEL_JSON_UNSUPPORTED);
  }

  @Test
  void fromLabelStashesAsStringAndIsLosslessWithStashOnReverse() {
    var target = target("name: {type: string}", "name: {type: string}\nzone: {type: string}");
    var config =
        spokeRules(
            """
        - strategy: FromLabel
          fromLabel: {spokePath: spec.zone, key: example.test/zone, stashOnReverse: true}
        """);
    assertThat(compiled(target, config).lossless()).isTrue();
    var hub = router(target, config).convert(object("spec: {zone: eu-1}"), "v1", "v2");
    assertThat(hub.path("metadata").path("labels")).isEqualTo(object("example.test/zone: eu-1"));
  }

  @Test
  void stringSerializationOfANonStringFailsWithAFix() {
    var router =
        router(
            target("n: {type: integer}", "{}"),
            spokeRules(
                """
        - strategy: ToAnnotation
          toAnnotation: {hubPath: spec.n, key: example.test/n, serialization: String}
          acknowledgeLossy: true
        """));
    assertThatThrownBy(() -> router.convert(object("spec: {n: 5}"), "v2", "v1"))
        .hasMessageContaining("rules[0] (ToAnnotation) at spec.n")
        .hasMessageContaining("use serialization: JSON");
  }

  @Test
  void anAnnotationValueThatIsNotAStringCannotBeRestored() {
    var router = notesInAnAnnotation();
    assertThatThrownBy(
            () ->
                router.convert(
                    object("metadata: {annotations: {example.test/notes: 5}}"), "v1", "v2"))
        .hasMessageContaining("is not a string");
  }
}
