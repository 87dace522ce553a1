package dev.versio.engine;

import static dev.versio.engine.Fixtures.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.versio.engine.diagnostic.DiagnosticCode;
import org.junit.jupiter.api.Test;

/**
 * {@code nested: true} on the singleton strategies converts generated resources where every block
 * is a list of one, at any depth and either way round, and says what it loses.
 */
class NestedSingletonsTest {
  /** The hub as a newer generated provider writes it: plain objects. */
  private static final String HUB =
      """
      network:
        type: object
        properties:
          name: {type: string}
          subnet:
            type: object
            properties:
              id: {type: string}
              range: {type: object, properties: {cidr: {type: string}}}
          routes:
            type: array
            items:
              type: object
              properties:
                to: {type: string}
                via: {type: object, properties: {gateway: {type: string}}}
      """;

  /** The spoke as the older generator wrote it: every block a list of at most one. */
  private static final String SPOKE =
      """
      network:
        type: array
        maxItems: 1
        items:
          type: object
          properties:
            name: {type: string}
            subnet:
              type: array
              maxItems: 1
              items:
                type: object
                properties:
                  id: {type: string}
                  range:
                    type: array
                    maxItems: 1
                    items: {type: object, properties: {cidr: {type: string}}}
            routes:
              type: array
              items:
                type: object
                properties:
                  to: {type: string}
                  via:
                    type: array
                    maxItems: 1
                    items: {type: object, properties: {gateway: {type: string}}}
      """;

  private static final String RULE =
      """
      - strategy: ObjectToSingletonArray
        objectToSingletonArray: {hubPath: spec.network, spokePath: spec.network, nested: true}
      """;

  @Test
  void singletonsInsideSingletonsAndInsideListsConvertBothWaysLosslessly() {
    var router = router(target(HUB, SPOKE), spokeRules(RULE));
    var hub =
        object(
            """
            apiVersion: example.test/v2
            kind: Widget
            metadata: {name: w}
            spec:
              network:
                name: main
                subnet: {id: s-1, range: {cidr: 10.0.0.0/16}}
                routes:
                - {to: 0.0.0.0/0, via: {gateway: igw}}
                - {to: 10.1.0.0/16}
            """);

    var spoke = router.convert(hub, "v2", "v1");

    assertThat(spoke.path("spec"))
        .isEqualTo(
            yaml(
                """
                network:
                - name: main
                  subnet: [{id: s-1, range: [{cidr: 10.0.0.0/16}]}]
                  routes:
                  - {to: 0.0.0.0/0, via: [{gateway: igw}]}
                  - {to: 10.1.0.0/16}
                """));
    assertThat(router.convert(spoke, "v1", "v2")).isEqualTo(hub);
    var verdict =
        analyzed(target(HUB, SPOKE), spokeRules(RULE))
            .spokes()
            .getFirst()
            .ruleResults()
            .getFirst()
            .lossless();
    assertThat(verdict.hubToSpoke()).isTrue();
    assertThat(verdict.spokeToHub()).isTrue();
  }

  @Test
  void anInnerListThatMayHoldManyMakesItsDirectionLossyWithACounterexample() {
    var spoke =
        SPOKE.replace(
            "subnet:\n        type: array\n        maxItems: 1\n",
            "subnet:\n        type: array\n");
    assertThat(spoke).isNotEqualTo(SPOKE);

    var report = analyzed(target(HUB, spoke), spokeRules(RULE));

    assertThat(report.diagnostics())
        .anySatisfy(d -> assertThat(d.code()).isEqualTo(DiagnosticCode.LOSSY_NOT_ACKNOWLEDGED));
    var rule = report.spokes().getFirst().ruleResults().getFirst();
    assertThat(rule.lossless().hubToSpoke()).isTrue();
    assertThat(rule.lossless().spokeToHub()).isFalse();
    assertThat(rule.counterexamples())
        .anySatisfy(c -> assertThat(c.direction()).isEqualTo("spoke->hub"));
  }

  @Test
  void withoutNestedTheInnerSingletonIsAnErrorThatOffersNested() {
    var diagnostics = rejected(target(HUB, SPOKE), spokeRules(RULE.replace(", nested: true", "")));

    assertThat(diagnostics)
        .anySatisfy(
            d -> {
              assertThat(d.code()).isEqualTo(DiagnosticCode.SHAPE_MISMATCH);
              assertThat(d.hint()).contains("set nested: true");
            });
  }

  @Test
  void aDifferenceOtherThanASingletonIsAnErrorNamingItsPath() {
    var hub = HUB.replace("cidr: {type: string}", "cidr: {type: integer}");

    var diagnostics = rejected(target(hub, SPOKE), spokeRules(RULE));

    assertThat(diagnostics)
        .anySatisfy(
            d -> {
              assertThat(d.code()).isEqualTo(DiagnosticCode.SHAPE_MISMATCH);
              assertThat(d.message())
                  .contains(
                      "differ by more than singleton arrays, first at spec.network.subnet.range.cidr");
            });
  }

  @Test
  void theMirrorStrategyReshapesTheOtherWayRound() {
    var router =
        router(
            target(SPOKE, HUB),
            spokeRules(
                """
                - strategy: SingletonArrayToObject
                  singletonArrayToObject: {hubPath: spec.network, spokePath: spec.network, nested: true}
                """));

    var spoke =
        router.convert(
            object(
                """
                apiVersion: example.test/v2
                kind: Widget
                metadata: {name: w}
                spec: {network: [{subnet: [{id: s-1}], routes: [{via: [{gateway: igw}]}]}]}
                """),
            "v2",
            "v1");

    assertThat(spoke.path("spec"))
        .isEqualTo(yaml("network: {subnet: {id: s-1}, routes: [{via: {gateway: igw}}]}"));
  }
}
