package dev.versio.engine;

import static dev.versio.engine.Fixtures.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.versio.engine.diagnostic.DiagnosticCode;
import org.junit.jupiter.api.Test;

class ForEachAndWhenTest {
  private static final String HUB =
      """
      pools:
        type: array
        items:
          type: object
          properties:
            vmSize: {type: string}
            count: {type: integer}
            taints:
              type: array
              items: {type: object, properties: {effectName: {type: string}, key: {type: string}}}
      """;
  private static final String SPOKE =
      """
      pools:
        type: array
        items:
          type: object
          properties:
            size: {type: string}
            count: {type: integer}
            taints:
              type: array
              items: {type: object, properties: {effect: {type: string}, key: {type: string}}}
      """;
  private static final String TWO_LEVELS =
      spokeRules(
          """
      - strategy: ForEach
        forEach:
          hubItemsPath: spec.pools
          spokeItemsPath: spec.pools
          rules:
            - strategy: FieldRename
              fieldRename: {hubPath: vmSize, spokePath: size}
            - strategy: ForEach
              forEach:
                hubItemsPath: taints
                spokeItemsPath: taints
                rules:
                  - strategy: FieldRename
                    fieldRename: {hubPath: effectName, spokePath: effect}
      """);

  @Test
  void twoNestedLevelsConvertEveryElementBothWays() {
    var router = router(target(HUB, SPOKE), TWO_LEVELS);
    var hub =
        object(
            """
        spec:
          pools:
          - {vmSize: large, count: 2, taints: [{effectName: NoSchedule, key: gpu}]}
          - {vmSize: small, count: 1}
        """);
    var spoke = router.convert(hub, "v2", "v1");
    assertThat(spoke.path("spec"))
        .isEqualTo(
            object(
                """
        pools:
        - {size: large, count: 2, taints: [{effect: NoSchedule, key: gpu}]}
        - {size: small, count: 1}
        """));
    assertThat(router.convert(spoke, "v1", "v2").path("spec")).isEqualTo(hub.path("spec"));
    assertThat(compiled(target(HUB, SPOKE), TWO_LEVELS).lossless()).isTrue();
  }

  @Test
  void withoutForEachTheDifferingElementFieldsAreUncoveredWithAForEachHint() {
    var diagnostics = rejected(target(HUB, SPOKE), spokeRules("[]"));
    assertThat(diagnostics)
        .anySatisfy(
            d -> {
              assertThat(d.path()).isEqualTo("spec.pools[].vmSize");
              assertThat(d.hint()).contains("ForEach over spec.pools");
            });
  }

  @Test
  void nestedUncoveredFieldsAreReportedWithTheirFullPathAndTheForEachLocation() {
    var diagnostics =
        rejected(
            target(HUB, SPOKE),
            spokeRules(
                """
        - strategy: ForEach
          forEach:
            hubItemsPath: spec.pools
            spokeItemsPath: spec.pools
            rules:
              - strategy: FieldRename
                fieldRename: {hubPath: vmSize, spokePath: size}
        """));
    assertThat(diagnostics)
        .anySatisfy(
            d -> {
              assertThat(d.code()).isEqualTo(DiagnosticCode.UNCOVERED_FIELD);
              assertThat(d.path()).isEqualTo("spec.pools[].taints[].effectName");
              assertThat(d.ruleLocation()).isEqualTo("rules[0]");
            });
  }

  @Test
  void aListWhoseElementsLoseAllTheyHeldIsLeftOutNotWrittenAsEmptyObjects() {
    var hub =
        """
        renderers:
          type: array
          items: {type: object, properties: {kustomize: {type: object, properties: {a: {type: string}}}}}
        """;
    var spoke =
        """
        renderers:
          type: array
          items: {type: object, properties: {other: {type: string}}}
        """;
    var config =
        spokeRules(
            """
        - strategy: ForEach
          acknowledgeLossy: true
          forEach:
            hubItemsPath: spec.renderers
            spokeItemsPath: spec.renderers
            rules:
              - strategy: Delete
                acknowledgeLossy: true
                delete: {path: kustomize, existsOn: Hub}
              - strategy: Delete
                acknowledgeLossy: true
                delete: {path: other, existsOn: Spoke}
        """);
    var router = router(target(hub, spoke), config);
    var converted =
        router.convert(
            object(
                "{apiVersion: example.test/v2, kind: Widget, spec: {renderers: [{kustomize: {a: b}}]}}"),
            "v2",
            "v1");
    assertThat(converted.path("spec").has("renderers")).as("%s", converted).isFalse();
    var kept =
        router.convert(
            object("{apiVersion: example.test/v2, kind: Widget, spec: {renderers: [{}]}}"),
            "v2",
            "v1");
    assertThat(kept.path("spec").path("renderers").size())
        .as("a list of empty elements stays as it was")
        .isEqualTo(1);
  }

  @Test
  void aFifthForEachLevelIsRejected() {
    var innermost = "forEach: {hubItemsPath: x, spokeItemsPath: x, rules: []}";
    var rules = "- strategy: ForEach\n  " + innermost;
    for (int level = 0; level < 4; level++) {
      rules =
          "- strategy: ForEach\n  forEach:\n    hubItemsPath: x\n    spokeItemsPath: x\n"
              + "    rules:\n"
              + rules.indent(6);
    }
    var diagnostics = rejected(target(HUB, SPOKE), spokeRules(rules));
    assertThat(diagnostics)
        .anySatisfy(
            d -> {
              assertThat(d.code()).isEqualTo(DiagnosticCode.FOREACH_TOO_DEEP);
              assertThat(d.ruleLocation())
                  .isEqualTo(
                      "rules[0].forEach.rules[0].forEach.rules[0].forEach.rules[0].forEach.rules[0]");
            });
  }

  @Test
  void anElementThatIsNotAnObjectOrASourceThatIsNotAnArrayFails() {
    var router = router(target(HUB, SPOKE), TWO_LEVELS);
    assertThatThrownBy(() -> router.convert(object("spec: {pools: [7]}"), "v2", "v1"))
        .hasMessageContaining("rules[0] (ForEach)")
        .hasMessageContaining("element 0 of spec.pools is not an object");
    assertThatThrownBy(() -> router.convert(object("spec: {pools: {a: 1}}"), "v2", "v1"))
        .hasMessageContaining("expected an array at spec.pools");
  }

  @Test
  void aNestedFailureNamesTheNestedRule() {
    var hub = "items: {type: array, items: {type: object, properties: {tier: {type: string}}}}";
    var router =
        router(
            target(hub, hub),
            spokeRules(
                """
        - strategy: ForEach
          forEach:
            hubItemsPath: spec.items
            spokeItemsPath: spec.items
            rules:
              - strategy: EnumRemap
                enumRemap: {path: tier, mapping: [{hub: A, spoke: a}]}
        """));
    assertThatThrownBy(
            () -> router.convert(object("spec: {items: [{tier: A}, {tier: Z}]}"), "v2", "v1"))
        .hasMessageContaining("rules[0].forEach.rules[0] (EnumRemap)")
        .hasMessageContaining("unmapped value \"Z\"");
  }

  @Test
  void whenAppliesTheRuleOnlyToMatchingObjectsAndWarnsAboutPartialCoverage() {
    var target =
        target(
            "plan: {type: string}\nburstLimit: {type: integer}",
            "plan: {type: string}\nburst: {type: integer}");
    var config =
        spokeRules(
            """
        - strategy: FieldRename
          fieldRename: {hubPath: spec.burstLimit, spokePath: spec.burst}
          when: {path: spec.plan, equals: enterprise}
          acknowledgeLossy: true
          reason: only enterprise plans have a burst limit
        """);
    var router = router(target, config);
    assertThat(
            router
                .convert(object("spec: {plan: enterprise, burstLimit: 9}"), "v2", "v1")
                .path("spec"))
        .isEqualTo(object("plan: enterprise\nburst: 9"));
    assertThat(
            router.convert(object("spec: {plan: basic, burstLimit: 9}"), "v2", "v1").path("spec"))
        .isEqualTo(object("plan: basic"));
    assertThat(compiled(target, config).warnings())
        .extracting(d -> d.code())
        .contains(DiagnosticCode.WHEN_PARTIAL_COVERAGE);
  }

  @Test
  void whenComparesNumbersByValueButNeverAStringWithANumber() {
    var target =
        target(
            "tier: {type: integer}\na: {type: string}", "tier: {type: integer}\nb: {type: string}");
    var router =
        router(
            target,
            spokeRules(
                """
        - strategy: FieldRename
          fieldRename: {hubPath: spec.a, spokePath: spec.b}
          when: {path: spec.tier, equals: 1}
          acknowledgeLossy: true
        """));
    assertThat(router.convert(object("spec: {tier: 1.0, a: x}"), "v2", "v1").path("spec").has("b"))
        .isTrue();
    assertThat(router.convert(object("spec: {tier: '1', a: x}"), "v2", "v1").path("spec").has("b"))
        .isFalse();
  }

  @Test
  void aWhenGatedRuleIsLossyForTheObjectsItSkipsAndSaysWhichOneLosesWhat() {
    var target =
        target(
            "plan: {type: string}\nburstLimit: {type: integer}",
            "plan: {type: string}\nburst: {type: integer}");
    var rule =
        """
        - strategy: FieldRename
          fieldRename: {hubPath: spec.burstLimit, spokePath: spec.burst}
          when: {path: spec.plan, equals: enterprise}
        """;

    var diagnostics = rejected(target, spokeRules(rule));

    assertThat(diagnostics)
        .filteredOn(d -> d.code() == DiagnosticCode.LOSSY_NOT_ACKNOWLEDGED)
        .extracting(d -> d.message())
        .satisfiesExactly(
            h ->
                assertThat(h)
                    .contains("hub->spoke conversion is lossy: on objects where spec.plan is not")
                    .contains("\"enterprise\"")
                    .contains("the fields it reads are dropped; e.g. spec.plan = ")
                    .contains("spec.burstLimit = ")
                    .contains("-> (not kept) -> spec.burstLimit absent"),
            b ->
                assertThat(b)
                    .contains("spoke->hub conversion is lossy")
                    .contains("spec.burst absent"));

    var acknowledged = spokeRules(rule + "  acknowledgeLossy: true\n");
    var result = analyzed(target, acknowledged).spokes().getFirst().ruleResults().getFirst();
    assertThat(result.lossless().hubToSpoke()).isFalse();
    assertThat(result.lossless().spokeToHub()).isFalse();
    // the counterexample is real: the object it names loses the field in the whole plan
    var example = result.counterexamples().getFirst();
    var object = object("spec: {}");
    for (var field : example.before()) {
      if (field.value() != null) {
        dev.versio.engine.runtime.Tree.set(object, field.path(), field.value());
      }
    }
    var router = router(target, acknowledged);
    var back = router.convert(router.convert(object, "v2", "v1"), "v1", "v2");
    assertThat(object.path("spec").has("burstLimit")).isTrue();
    assertThat(back.path("spec").has("burstLimit")).isFalse();
  }

  @Test
  void aWhenGatedRuleThatReadsNothingOnOneSideLosesNothingThere() {
    var target = target("plan: {type: string}", "plan: {type: string}\ntier: {type: string}");
    var result =
        analyzed(
                target,
                spokeRules(
                    """
            - strategy: DefaultValue
              defaultValue: {path: spec.tier, existsOn: Spoke, default: gold}
              when: {path: spec.plan, equals: enterprise}
              acknowledgeLossy: true
            """))
            .spokes()
            .getFirst()
            .ruleResults()
            .getFirst();

    assertThat(result.lossless().hubToSpoke()).isTrue();
  }

  @Test
  void aWhenValueTheFieldCanNeverHoldIsAnErrorInsteadOfARuleThatNeverRuns() {
    var diagnostics =
        rejected(
            target(
                "tier: {type: integer}\na: {type: string}",
                "tier: {type: integer}\nb: {type: string}"),
            spokeRules(
                """
        - strategy: FieldRename
          fieldRename: {hubPath: spec.a, spokePath: spec.b}
          when: {path: spec.tier, equals: "1"}
          acknowledgeLossy: true
        """));

    assertThat(diagnostics)
        .anySatisfy(
            d -> {
              assertThat(d.code()).isEqualTo(DiagnosticCode.WHEN_INVALID);
              assertThat(d.message()).contains("when.equals \"1\" can never match");
            });
    var outsideTheEnum =
        rejected(
            target(
                "plan: {type: string, enum: [team, enterprise]}\na: {type: string}",
                "plan: {type: string, enum: [team, enterprise]}\nb: {type: string}"),
            spokeRules(
                """
        - strategy: FieldRename
          fieldRename: {hubPath: spec.a, spokePath: spec.b}
          when: {path: spec.plan, equals: Enterprise}
          acknowledgeLossy: true
        """));
    assertThat(outsideTheEnum)
        .anySatisfy(d -> assertThat(d.code()).isEqualTo(DiagnosticCode.WHEN_INVALID));
  }

  @Test
  void whenPathMustExistInBothSchemas() {
    var target = target("plan: {type: string}\na: {type: string}", "b: {type: string}");
    var diagnostics =
        rejected(
            target,
            spokeRules(
                """
        - strategy: FieldRename
          fieldRename: {hubPath: spec.a, spokePath: spec.b}
          when: {path: spec.plan, equals: x}
        """));
    assertThat(diagnostics).extracting(d -> d.code()).contains(DiagnosticCode.WHEN_INVALID);
  }
}
