package dev.versio.engine;

import static dev.versio.engine.Fixtures.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.versio.engine.compile.Verdict;
import dev.versio.engine.diagnostic.DiagnosticCode;
import org.junit.jupiter.api.Test;

class EnumRemapTest {
  private static final String HUB = "tier: {type: string, enum: [Premium, Basic]}";
  private static final String SPOKE = "tier: {type: string, enum: [P, B]}";
  private static final String CONFIG =
      spokeRules(
          """
      - strategy: EnumRemap
        enumRemap:
          path: spec.tier
          mapping: [{hub: Premium, spoke: P}, {hub: Basic, spoke: B}]
      """);

  @Test
  void valuesAreRemappedBothWays() {
    var router = router(target(HUB, SPOKE), CONFIG);
    assertThat(router.convert(object("spec: {tier: Premium}"), "v2", "v1").path("spec"))
        .isEqualTo(object("tier: P"));
    assertThat(router.convert(object("spec: {tier: B}"), "v1", "v2").path("spec"))
        .isEqualTo(object("tier: Basic"));
    assertThat(compiled(target(HUB, SPOKE), CONFIG).lossless()).isTrue();
  }

  @Test
  void withoutARuleDifferingEnumsAreUncoveredAndTheHintNamesEnumRemap() {
    var diagnostics = rejected(target(HUB, SPOKE), spokeRules("[]"));
    assertThat(diagnostics)
        .anySatisfy(
            d -> {
              assertThat(d.code()).isEqualTo(DiagnosticCode.UNCOVERED_FIELD);
              assertThat(d.path()).isEqualTo("spec.tier");
              assertThat(d.hint()).contains("EnumRemap");
            });
  }

  @Test
  void aHubEnumValueLeftUnmappedIsACompileErrorUnderError() {
    var diagnostics =
        rejected(target("tier: {type: string, enum: [Premium, Basic, Gold]}", SPOKE), CONFIG);
    assertThat(diagnostics)
        .singleElement()
        .satisfies(
            d -> {
              assertThat(d.code()).isEqualTo(DiagnosticCode.ENUM_VALUE_UNMAPPED);
              assertThat(d.message()).contains("\"Gold\"");
              assertThat(d.hint()).contains("onUnmappedHubValue: Drop");
            });
  }

  @Test
  void aValueOutsideTheSchemaEnumFailsAtRuntimeUnderErrorAndIsDroppedUnderDrop() {
    var open = target("tier: {type: string}", "tier: {type: string}");
    var strict = router(open, CONFIG);
    assertThatThrownBy(() -> strict.convert(object("spec: {tier: Gold}"), "v2", "v1"))
        .hasMessageContaining("rules[0] (EnumRemap) at spec.tier")
        .hasMessageContaining("unmapped value \"Gold\"");
    var dropping =
        router(
            open,
            spokeRules(
                """
        - strategy: EnumRemap
          enumRemap: {path: spec.tier, mapping: [{hub: Premium, spoke: P}], onUnmappedHubValue: Drop}
          acknowledgeLossy: true
        """));
    assertThat(dropping.convert(object("spec: {tier: Gold}"), "v2", "v1").path("spec").has("tier"))
        .isFalse();
  }

  @Test
  void keysAreTypedSoTheStringTwoIsNotTheNumberTwoButTwoPointZeroIs() {
    var target = target("level: {type: integer}", "level: {type: string}");
    var router =
        router(
            target,
            spokeRules(
                """
        - strategy: EnumRemap
          enumRemap: {path: spec.level, mapping: [{hub: 2, spoke: "two"}]}
        """));
    assertThat(router.convert(object("spec: {level: 2.0}"), "v2", "v1").path("spec"))
        .isEqualTo(object("level: two"));
    assertThatThrownBy(() -> router.convert(object("spec: {level: '2'}"), "v2", "v1"))
        .hasMessageContaining("unmapped");
  }

  @Test
  void aMappingThatIsNotOneToOneWarnsAndIsLossyHubToSpokeWhereTheHubValuesFold() {
    var target = target("tier: {type: string}", "tier: {type: string}");
    var compiled =
        compiled(
            target,
            spokeRules(
                """
        - strategy: EnumRemap
          enumRemap: {path: spec.tier, mapping: [{hub: Premium, spoke: P, preferred: true}, {hub: Gold, spoke: P}]}
          acknowledgeLossy: true
        """));
    assertThat(compiled.plans().get("v1").verdict()).isEqualTo(new Verdict(false, true));
    assertThat(compiled.warnings())
        .filteredOn(d -> d.code() == DiagnosticCode.ENUM_NOT_INJECTIVE)
        .singleElement()
        .asString()
        .contains("hub values \"Premium\", \"Gold\" share spoke value \"P\"")
        .contains("spoke→hub writes \"Premium\", preferred");
  }

  /**
   * HTTP redirect codes as a routing resource folds them: 303 and 307 become 302, 308 becomes 301.
   */
  private static final String REDIRECTS = "code: {type: integer, enum: [301, 302, 303, 307, 308]}";

  private static final String FOLDED = "code: {type: integer, enum: [301, 302]}";

  @Test
  void aSharedSpokeValueGoesBackToTheIdenticalHubValueNeverToTheLastPairListed() {
    var config =
        spokeRules(
            """
        - strategy: EnumRemap
          enumRemap:
            path: spec.code
            mapping: [{hub: 301, spoke: 301}, {hub: 302, spoke: 302}, {hub: 303, spoke: 302}, {hub: 307, spoke: 302}, {hub: 308, spoke: 301}]
          acknowledgeLossy: true
        """);
    var router = router(target(REDIRECTS, FOLDED), config);

    assertThat(
            router
                .convert(object("spec: {code: 301}"), "v1", "v2")
                .path("spec")
                .path("code")
                .asInt())
        .isEqualTo(301);
    assertThat(
            router
                .convert(object("spec: {code: 302}"), "v1", "v2")
                .path("spec")
                .path("code")
                .asInt())
        .isEqualTo(302);
    var rule =
        analyzed(target(REDIRECTS, FOLDED), config).spokes().getFirst().ruleResults().getFirst();
    assertThat(rule.lossless().hubToSpoke()).isFalse();
    assertThat(rule.lossless().spokeToHub()).isTrue();
    assertThat(rule.counterexamples())
        .singleElement()
        .satisfies(
            e -> {
              assertThat(e.direction()).isEqualTo("hub->spoke");
              assertThat(e.describe()).contains("spec.code = 30");
            });
  }

  @Test
  void aSharedSpokeValueWithNeitherAPreferredNorAnIdenticalHubValueIsAnError() {
    var diagnostics =
        rejected(
            target("tier: {type: string}", "tier: {type: string}"),
            spokeRules(
                """
            - strategy: EnumRemap
              enumRemap: {path: spec.tier, mapping: [{hub: Premium, spoke: P}, {hub: Gold, spoke: P}]}
              acknowledgeLossy: true
            """));

    assertThat(diagnostics)
        .anySatisfy(
            d -> {
              assertThat(d.code()).isEqualTo(DiagnosticCode.ENUM_VALUE_UNMAPPED);
              assertThat(d.message())
                  .contains("spoke value \"P\" is mapped from hub values \"Premium\", \"Gold\"")
                  .contains("never by the list order");
              assertThat(d.hint()).contains("preferred: true");
            });
  }

  @Test
  void aHubValueMappedToTwoSpokeValuesIsAnError() {
    var diagnostics =
        rejected(
            target("tier: {type: string}", "tier: {type: string}"),
            spokeRules(
                """
            - strategy: EnumRemap
              enumRemap: {path: spec.tier, mapping: [{hub: Premium, spoke: P}, {hub: Premium, spoke: Q}]}
            """));

    assertThat(diagnostics)
        .anySatisfy(
            d ->
                assertThat(d.message())
                    .contains("hub value \"Premium\" is mapped to both \"P\" and \"Q\""));
  }

  /**
   * For random many-to-one mappings over small enums: a direction the compiler calls lossless
   * round-trips every value of its enum, and a lossy one has a counterexample that is real.
   */
  @Test
  void theVerdictOfRandomManyToOneMappingsMatchesWhatEveryValueDoes() {
    var random = new java.util.Random(Long.getLong("versio.seed", 20261203L));
    for (int n = 0; n < 200; n++) {
      int hubs = 1 + random.nextInt(5);
      int spokes = 1 + random.nextInt(hubs);
      var hubValues = new java.util.ArrayList<String>();
      var spokeValues = new java.util.ArrayList<String>();
      for (int i = 0; i < hubs; i++) {
        hubValues.add("h" + i);
      }
      for (int i = 0; i < spokes; i++) {
        spokeValues.add(random.nextBoolean() && i < hubs ? "h" + i : "s" + i);
      }
      var pairs = new java.util.ArrayList<String>();
      var used = new java.util.HashSet<String>();
      var preferredFor = new java.util.HashSet<String>();
      for (int i = 0; i < hubs; i++) {
        var spoke = i < spokes ? spokeValues.get(i) : spokeValues.get(random.nextInt(spokes));
        used.add(spoke);
        boolean preferred = preferredFor.add(spoke);
        pairs.add(
            "{hub: h" + i + ", spoke: " + spoke + (preferred ? ", preferred: true" : "") + "}");
      }
      var target =
          target(
              "v: {type: string, enum: [" + String.join(", ", hubValues) + "]}",
              "v: {type: string, enum: [" + String.join(", ", used) + "]}");
      var config =
          spokeRules(
              "- strategy: EnumRemap\n  enumRemap: {path: spec.v, mapping: ["
                  + String.join(", ", pairs)
                  + "]}\n  acknowledgeLossy: true\n");
      var router = router(target, config);
      var rule = analyzed(target, config).spokes().getFirst().ruleResults().getFirst();
      boolean hubRoundTrips = true;
      for (var h : hubValues) {
        var back =
            router.convert(router.convert(object("spec: {v: " + h + "}"), "v2", "v1"), "v1", "v2");
        hubRoundTrips &= back.path("spec").path("v").asText().equals(h);
      }
      boolean spokeRoundTrips = true;
      for (var sv : used) {
        var back =
            router.convert(router.convert(object("spec: {v: " + sv + "}"), "v1", "v2"), "v2", "v1");
        spokeRoundTrips &= back.path("spec").path("v").asText().equals(sv);
      }
      assertThat(rule.lossless().hubToSpoke())
          .as("mapping %s, hub->spoke", pairs)
          .isEqualTo(hubRoundTrips);
      assertThat(rule.lossless().spokeToHub())
          .as("mapping %s, spoke->hub", pairs)
          .isEqualTo(spokeRoundTrips);
      assertThat(rule.counterexamples().isEmpty())
          .as("mapping %s: a lossy verdict shows its counterexample", pairs)
          .isEqualTo(hubRoundTrips && spokeRoundTrips);
    }
  }
}
