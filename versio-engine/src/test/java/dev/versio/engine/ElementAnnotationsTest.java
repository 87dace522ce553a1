package dev.versio.engine;

import static dev.versio.engine.Fixtures.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.versio.engine.diagnostic.DiagnosticCode;
import dev.versio.engine.schema.SchemaConformance;
import org.junit.jupiter.api.Test;

/**
 * A hub-only field of list elements kept with ToAnnotation inside a ForEach: an element has no
 * metadata (the apiserver would prune one written there), so every element's value is kept in one
 * annotation of the object, keyed by list-map key or by position.
 */
class ElementAnnotationsTest {
  private static String pools(String extraField, boolean keyed) {
    return """
        pools:
          type: array
        %s
          items:
            type: object
            required: [name]
            properties:
              name: {type: string}
              size: {type: string}
        %s
        """
        .formatted(
            keyed ? "  x-kubernetes-list-type: map\n  x-kubernetes-list-map-keys: [name]" : "",
            extraField.isEmpty() ? "" : "      " + extraField);
  }

  private static final String KEEP_ZONE =
      spokeRules(
          """
      - strategy: ForEach
        forEach:
          hubItemsPath: spec.pools
          spokeItemsPath: spec.pools
          rules:
            - strategy: ToAnnotation
              toAnnotation: {hubPath: zone, key: example.com/zones, restoreOnReverse: true}
      """);

  private static final String HUB_OBJECT =
      """
      spec:
        pools:
        - {name: a, size: big, zone: eu-1a}
        - {name: b, size: small}
        - {name: c, size: small, zone: eu-1c}
      """;

  @Test
  void everyElementsValueComesBackThroughOneAnnotationOfTheObjectAndNothingIsWrittenIntoElements() {
    var target = target(pools("zone: {type: string}", true), pools("", true));
    var router = router(target, KEEP_ZONE);
    var hub = object(HUB_OBJECT);
    var spoke = router.convert(hub, "v2", "v1");
    assertThat(spoke.path("metadata").path("annotations").path("example.com/zones").asText())
        .isEqualTo("{\"a\":\"eu-1a\",\"c\":\"eu-1c\"}");
    assertThat(SchemaConformance.check(spoke, target.versions().get(1).schema()))
        .as("nothing the apiserver would prune")
        .isEmpty();
    var back = router.convert(spoke, "v1", "v2");
    assertThat(back.path("spec")).isEqualTo(hub.path("spec"));
    assertThat(back.path("metadata").has("annotations")).as("the annotation is removed").isFalse();
    assertThat(compiled(target, KEEP_ZONE).lossless()).isTrue();
  }

  @Test
  void keyedByListMapKeyAnElementMovedOrRemovedAtTheSpokeGetsItsOwnValueBack() {
    var router = router(target(pools("zone: {type: string}", true), pools("", true)), KEEP_ZONE);
    var spoke =
        (com.fasterxml.jackson.databind.node.ObjectNode)
            router.convert(object(HUB_OBJECT), "v2", "v1");
    // a v1 client drops pool a and puts c first
    var pools = spoke.withObject("spec").withArray("pools");
    var c = pools.get(2).deepCopy();
    pools.removeAll();
    pools.add(c);
    pools.addObject().put("name", "b").put("size", "small");
    var back = router.convert(spoke, "v1", "v2");
    assertThat(back.path("spec"))
        .isEqualTo(
            object(
                """
                pools:
                - {name: c, size: small, zone: eu-1c}
                - {name: b, size: small}
                """));
  }

  @Test
  void withoutListMapKeysValuesAreKeptByPositionAndTheConfigSaysWhatThatRisks() {
    var target = target(pools("zone: {type: string}", false), pools("", false));
    var result = analyzed(target, KEEP_ZONE);
    assertThat(result.diagnostics())
        .anySatisfy(d -> assertThat(d.code()).isEqualTo(DiagnosticCode.ELEMENTS_KEPT_BY_POSITION));
    var router = router(target, KEEP_ZONE);
    var spoke = router.convert(object(HUB_OBJECT), "v2", "v1");
    assertThat(spoke.path("metadata").path("annotations").path("example.com/zones").asText())
        .isEqualTo("{\"0\":\"eu-1a\",\"2\":\"eu-1c\"}");
    assertThat(router.convert(spoke, "v1", "v2").path("spec"))
        .isEqualTo(object(HUB_OBJECT).path("spec"));
  }

  @Test
  void nestedForEachesKeepOneMapPerOuterElement() {
    var hub =
        """
        pools:
          type: array
          items:
            type: object
            properties:
              name: {type: string}
              taints:
                type: array
                items: {type: object, properties: {key: {type: string}, note: {type: string}}}
        """;
    var spoke = hub.replace(", note: {type: string}", "");
    var config =
        spokeRules(
            """
        - strategy: ForEach
          forEach:
            hubItemsPath: spec.pools
            spokeItemsPath: spec.pools
            rules:
              - strategy: ForEach
                forEach:
                  hubItemsPath: taints
                  spokeItemsPath: taints
                  rules:
                    - strategy: ToAnnotation
                      toAnnotation: {hubPath: note, key: example.com/notes, restoreOnReverse: true}
        """);
    var router = router(target(hub, spoke), config);
    var object =
        object(
            """
            spec:
              pools:
              - {name: a, taints: [{key: x, note: one}, {key: y}]}
              - {name: b, taints: [{key: z, note: two}]}
            """);
    var converted = router.convert(object, "v2", "v1");
    assertThat(converted.path("metadata").path("annotations").path("example.com/notes").asText())
        .isEqualTo("{\"0\":{\"0\":\"one\"},\"1\":{\"0\":\"two\"}}");
    assertThat(router.convert(converted, "v1", "v2").path("spec")).isEqualTo(object.path("spec"));
  }

  @Test
  void aLabelInsideAForEachIsRejectedWithTheAnnotationAsTheFix() {
    var config =
        spokeRules(
            """
        - strategy: ForEach
          forEach:
            hubItemsPath: spec.pools
            spokeItemsPath: spec.pools
            rules:
              - strategy: ToLabel
                toLabel: {hubPath: zone, key: example.com/zone, restoreOnReverse: true}
        """);
    var errors = rejected(target(pools("zone: {type: string}", true), pools("", true)), config);
    assertThat(lines(errors)).contains("cannot be kept in a label").contains("use ToAnnotation");
  }

  @Test
  void withoutRestoreOnReverseTheElementValueIsALossAndTheAnnotationIsStillRemovedOnTheWayBack() {
    var config = KEEP_ZONE.replace(", restoreOnReverse: true", "");
    var target = target(pools("zone: {type: string}", true), pools("", true));
    assertThat(lines(rejected(target, config))).contains("LOSSY_NOT_ACKNOWLEDGED");
    var acknowledged =
        spokeRules(
            """
        - strategy: ForEach
          acknowledgeLossy: true
          forEach:
            hubItemsPath: spec.pools
            spokeItemsPath: spec.pools
            rules:
              - strategy: ToAnnotation
                acknowledgeLossy: true
                toAnnotation: {hubPath: zone, key: example.com/zones}
        """);
    var router = router(target, acknowledged);
    var spoke = router.convert(object(HUB_OBJECT), "v2", "v1");
    var back = router.convert(spoke, "v1", "v2");
    assertThat(back.path("spec").path("pools").get(0).has("zone")).isFalse();
    assertThat(back.path("metadata").has("annotations")).isFalse();
  }
}
