package dev.versio.engine.suggest;

import static dev.versio.engine.Fixtures.object;
import static dev.versio.engine.Fixtures.target;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.versio.engine.Fixtures;
import dev.versio.engine.compile.CompileResult;
import dev.versio.engine.compile.Compiler;
import dev.versio.engine.route.Router;
import dev.versio.engine.rule.ConversionConfig;
import dev.versio.engine.rule.SpokeRules;
import dev.versio.engine.rule.UnmappedFieldPolicy;
import dev.versio.engine.schema.SchemaSource;
import java.math.BigDecimal;
import java.util.List;
import org.junit.jupiter.api.Test;

class SuggesterTest {
  private final Suggester suggester = new Suggester();

  private SpokeSuggestion spoke(String hubProperties, String spokeProperties) {
    return suggester.suggest(target(hubProperties, spokeProperties), null).spokes().getFirst();
  }

  /** A router for the rules the suggester writes, compiled by the engine like a user's config. */
  private Router routerForProposedRules(SchemaSource target) {
    var spoke = suggester.suggest(target, null).spokes().getFirst();
    var config =
        new ConversionConfig(
            "v2",
            List.of(
                new SpokeRules("v1", spoke.rules().stream().map(ProposedRule::toRule).toList())),
            UnmappedFieldPolicy.ERROR,
            null);
    var result = new Compiler().compile(config, target);
    assertThat(result).isInstanceOf(CompileResult.Compiled.class);
    return new Router(((CompileResult.Compiled) result).config(), Fixtures.GROUP);
  }

  @Test
  void aFieldMovedOutOfAnObjectAndNamedAfterItIsRenamedInsideAForEachOverItsList() {
    var hub =
        """
        pools:
          type: array
          items:
            type: object
            properties:
              name: {type: string}
              timeouts: {type: object, properties: {request: {type: string}, idle: {type: string}}}
              grace: {type: string}
        """;
    var spoke =
        """
        pools:
          type: array
          items:
            type: object
            properties:
              name: {type: string}
              requestTimeout: {type: string}
              idleTimeout: {type: string}
              grace: {type: string}
        """;
    var target = target(hub, spoke);
    var rules = suggester.suggest(target, null).spokes().getFirst().rules();
    assertThat(rules).hasSize(2);
    assertThat(rules.getFirst())
        .isInstanceOfSatisfying(
            ProposedRule.Rename.class,
            r -> {
              assertThat(r.hubPath()).isEqualTo("spec.pools[].timeouts.request");
              assertThat(r.spokePath()).isEqualTo("spec.pools[].requestTimeout");
              assertThat(r.reason()).contains("moved into timeouts");
              assertThat(r.strategy()).isEqualTo(dev.versio.engine.rule.Strategy.FIELD_RENAME);
            });
    // the rule a config can hold: a ForEach over the list with the rename inside
    assertThat(rules.getFirst().toRule())
        .isInstanceOfSatisfying(
            dev.versio.engine.rule.Rule.ForEach.class,
            f -> {
              assertThat(f.hubItemsPath().toString()).isEqualTo("spec.pools");
              assertThat(f.rules())
                  .singleElement()
                  .isEqualTo(
                      new dev.versio.engine.rule.Rule.FieldRename(
                          dev.versio.engine.FieldPath.parse("timeouts.request"),
                          dev.versio.engine.FieldPath.parse("requestTimeout"),
                          dev.versio.engine.rule.RuleOptions.none()));
            });
  }

  @Test
  void anObjectThatHoldsNothingButTheMovedFieldIsOnlyOffered() {
    var spoke =
        spoke(
            "{endpoint: {type: object, properties: {url: {type: string}}}}",
            "{endpointURL: {type: string}}");
    assertThat(spoke.rules()).isEmpty();
    assertThat(spoke.possibleRenames())
        .singleElement()
        .satisfies(r -> assertThat(r.reason()).contains("ObjectToScalar"));
  }

  @Test
  void fieldsInDifferentListsAreNeverPaired() {
    var spoke =
        spoke(
            "{a: {type: array, items: {type: object, properties: {x: {type: string}}}}}",
            "{b: {type: array, items: {type: object, properties: {x: {type: string}}}}}");
    assertThat(spoke.rules()).noneMatch(r -> r.toString().contains("[].x"));
  }

  @Test
  void identicalVersionsNeedNoRule() {
    var props = "{replicas: {type: integer}, image: {type: string}}";

    var suggestion = suggester.suggest(target(props, props), null);

    assertThat(suggestion.hubVersion()).isEqualTo("v2");
    assertThat(suggestion.spokes())
        .singleElement()
        .satisfies(s -> assertThat(s.identical()).isTrue());
  }

  @Test
  void aNumberWhoseNameChangedItsUnitIsScaledNotRenamed() {
    var spoke = spoke("{timeoutMs: {type: number}}", "{timeoutSec: {type: number}}");

    assertThat(spoke.rules())
        .singleElement()
        .isInstanceOfSatisfying(
            ProposedRule.Scale.class,
            s -> {
              assertThat(s.hubPath()).isEqualTo("spec.timeoutMs");
              assertThat(s.spokePath()).isEqualTo("spec.timeoutSec");
              assertThat(s.factor()).isEqualByComparingTo("1000");
              assertThat(s.reason()).contains("hub = spoke × 1000");
            });
    assertThat(spoke.possibleRenames()).isEmpty();
    assertThat(spoke.hubOnly()).isEmpty();
    assertThat(spoke.spokeOnly()).isEmpty();
  }

  @Test
  void theProposedScaleConvertsMillisecondsToSecondsAndBackWhenTheEngineRunsIt() {
    var target = target("{timeoutMs: {type: number}}", "{timeoutSec: {type: number}}");

    var router = routerForProposedRules(target);

    assertThat(
            router
                .convert(object("spec: {timeoutMs: 1500}"), "v2", "v1")
                .path("spec")
                .path("timeoutSec")
                .decimalValue())
        .isEqualByComparingTo("1.5");
    assertThat(
            router
                .convert(object("spec: {timeoutSec: 2}"), "v1", "v2")
                .path("spec")
                .path("timeoutMs")
                .decimalValue())
        .isEqualByComparingTo("2000");
  }

  @Test
  void aScaleTowardsTheLargerUnitInTheHubHasAFractionalFactor() {
    var spoke = spoke("{sizeGiB: {type: number}}", "{sizeMi: {type: number}}");

    assertThat(spoke.rules())
        .singleElement()
        .isInstanceOfSatisfying(
            ProposedRule.Scale.class,
            s -> assertThat(s.factor()).isEqualByComparingTo(new BigDecimal("0.0009765625")));
  }

  @Test
  void unitsWhoseRatioHasNoExactDecimalOrThatMeasureDifferentThingsAreNotPaired() {
    var spoke =
        spoke(
            "{windowHours: {type: number}, limitMs: {type: integer}}",
            "{windowMinutes: {type: number}, limitBytes: {type: integer}}");

    assertThat(spoke.rules()).isEmpty();
    assertThat(spoke.possibleRenames()).isEmpty();
  }

  @Test
  void unrelatedNamesOfTheSameTypeAreNeitherRenamedNorOffered() {
    var spoke =
        spoke(
            "{selectors: {type: object, additionalProperties: {type: string}},"
                + " ownerTeam: {type: string}, costCenter: {type: string}}",
            "{billing: {type: object, additionalProperties: {type: string}},"
                + " appSelector: {type: string}, tierSelector: {type: string}, note: {type: string}}");

    assertThat(spoke.rules()).isEmpty();
    assertThat(spoke.possibleRenames()).isEmpty();
    assertThat(spoke.hubOnly()).contains("spec.selectors");
    assertThat(spoke.spokeOnly()).contains("spec.billing");
  }

  @Test
  void namesSharingOnlyOneWordOfTwoAreNotPaired() {
    var spoke = spoke("{cpuLimit: {type: integer}}", "{memoryLimit: {type: integer}}");

    assertThat(spoke.rules()).isEmpty();
    assertThat(spoke.possibleRenames()).isEmpty();
  }

  @Test
  void namesThatDifferOnlyInCaseOrSeparatorsAreRenamed() {
    var spoke = spoke("{maxSurge: {type: integer}}", "{max_surge: {type: integer}}");

    assertThat(spoke.rules())
        .singleElement()
        .isInstanceOfSatisfying(
            ProposedRule.Rename.class,
            r -> {
              assertThat(r.spokePath()).isEqualTo("spec.max_surge");
              assertThat(r.reason()).contains("case and separators");
            });
  }

  @Test
  void aNameWithAnAbbreviatedOrReorderedWordIsRenamed() {
    var spoke =
        spoke(
            "{databaseHost: {type: string}, maxReplicas: {type: integer}}",
            "{dbHost: {type: string}, replicasMax: {type: integer}}");

    assertThat(spoke.rules())
        .extracting(r -> ((ProposedRule.Rename) r).spokePath())
        .containsExactly("spec.dbHost", "spec.replicasMax");
  }

  @Test
  void aFieldMovedUnderAnotherParentKeepingItsNameIsRenamed() {
    var spoke =
        spoke(
            "{tls: {type: object, properties: {enabled: {type: boolean}}}}",
            "{enabled: {type: boolean}}");

    assertThat(spoke.rules())
        .singleElement()
        .isInstanceOfSatisfying(
            ProposedRule.Rename.class,
            r -> {
              assertThat(r.hubPath()).isEqualTo("spec.tls.enabled");
              assertThat(r.spokePath()).isEqualTo("spec.enabled");
              assertThat(r.reason()).contains("different place");
            });
  }

  @Test
  void aNamePartlyAlikeIsOfferedForTheAuthorToConfirmNotWritten() {
    var spoke =
        spoke(
            "{burstLimit: {type: number}, image: {type: string}}",
            "{burst: {type: number}, image: {type: string}}");

    assertThat(spoke.rules()).isEmpty();
    assertThat(spoke.possibleRenames())
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.hubPath()).isEqualTo("spec.burstLimit");
              assertThat(r.spokePath()).isEqualTo("spec.burst");
              assertThat(r.reason()).contains("share some words (burst)");
            });
    assertThat(spoke.hubOnly()).containsExactly("spec.burstLimit");
    assertThat(spoke.spokeOnly()).containsExactly("spec.burst");
  }

  @Test
  void aUnitNamedOnOneSideOnlyIsOfferedAsARenameOrAScale() {
    var spoke = spoke("{ttl: {type: integer}}", "{ttlSeconds: {type: integer}}");

    assertThat(spoke.rules()).isEmpty();
    assertThat(spoke.possibleRenames())
        .singleElement()
        .satisfies(r -> assertThat(r.reason()).contains("else a NumericScale"));
  }

  @Test
  void aLoneFieldOfTheSameTypeWithAnUnrelatedNameIsLeftToTheAuthor() {
    var spoke =
        spoke(
            "{replicas: {type: integer}, image: {type: string}}",
            "{size: {type: integer}, image: {type: string}}");

    assertThat(spoke.rules()).isEmpty();
    assertThat(spoke.possibleRenames()).isEmpty();
    assertThat(spoke.hubOnly()).containsExactly("spec.replicas");
    assertThat(spoke.spokeOnly()).containsExactly("spec.size");
  }

  @Test
  void aCommonNameMovedBetweenTwoParentsBothVersionsHaveIsOnlyOffered() {
    var spoke =
        spoke(
            "{tls: {type: object, properties: {enabled: {type: boolean}, cert: {type: string}}},"
                + " metrics: {type: object, properties: {port: {type: integer}}}}",
            "{tls: {type: object, properties: {cert: {type: string}}},"
                + " metrics: {type: object, properties: {port: {type: integer}, enabled: {type: boolean}}}}");

    assertThat(spoke.rules()).isEmpty();
    assertThat(spoke.possibleRenames())
        .singleElement()
        .satisfies(r -> assertThat(r.reason()).contains("parents both versions have"));
  }

  @Test
  void anAmbiguousGuessIsLeftToTheAuthor() {
    var spoke =
        spoke("{owner: {type: string}}", "{ownerName: {type: string}, ownerEmail: {type: string}}");

    assertThat(spoke.rules()).isEmpty();
    assertThat(spoke.possibleRenames()).isEmpty();
    assertThat(spoke.hubOnly()).containsExactly("spec.owner");
    assertThat(spoke.spokeOnly()).containsExactly("spec.ownerName", "spec.ownerEmail");
  }

  @Test
  void aDurationTextAndAnIntegerOfSecondsGetADurationRule() {
    var spoke = spoke("{grace: {type: string}}", "{graceSeconds: {type: integer}}");

    assertThat(spoke.rules())
        .singleElement()
        .isInstanceOfSatisfying(
            ProposedRule.Duration.class,
            d -> {
              assertThat(d.hubPath()).isEqualTo("spec.grace");
              assertThat(d.spokePath()).isEqualTo("spec.graceSeconds");
              assertThat(d.reason()).contains("acknowledge");
            });
  }

  @Test
  void aQuantityTextAndAnIntegerOfMilliUnitsGetAQuantityRule() {
    var spoke = spoke("{memory: {type: string}}", "{memoryMilli: {type: integer}}");

    assertThat(spoke.rules()).singleElement().isInstanceOf(ProposedRule.Quantity.class);
  }

  @Test
  void aScalarWhoseTypeChangedGetsATypeCoerceButAnEnumOrABooleanNumberDoesNot() {
    var spoke =
        spoke(
            "{port: {type: integer}, tier: {type: string, enum: [A, B]}, on: {type: boolean}}",
            "{port: {type: string}, tier: {type: integer}, on: {type: integer}}");

    assertThat(spoke.rules())
        .singleElement()
        .isInstanceOfSatisfying(
            ProposedRule.Coerce.class, c -> assertThat(c.path()).isEqualTo("spec.port"));
    assertThat(spoke.retyped())
        .extracting(SpokeSuggestion.Retyped::path)
        .containsExactly("spec.tier", "spec.on");
  }

  @Test
  void aChangedTypeInsideArrayItemsIsReportedAtTheItemFieldOnly() {
    var spoke =
        spoke(
            "{ports: {type: array, items: {type: object, properties: {port: {type: integer}, name: {type: string}}}}}",
            "{ports: {type: array, items: {type: object, properties: {port: {type: string}, name: {type: integer}}}}}");

    assertThat(spoke.rules()).isEmpty();
    assertThat(spoke.retyped())
        .extracting(SpokeSuggestion.Retyped::path)
        .containsExactly("spec.ports[].port", "spec.ports[].name");
  }

  @Test
  void arraysAreRenamedOnlyWhenTheirItemFieldsMatch() {
    var spoke =
        spoke(
            "{listeners: {type: array, items: {type: object, properties: {port: {type: integer}}}},"
                + " tags: {type: array, items: {type: string}}}",
            "{Listeners: {type: array, items: {type: object, properties: {schedule: {type: string}}}},"
                + " Tags: {type: array, items: {type: string}}}");

    assertThat(spoke.rules())
        .singleElement()
        .isInstanceOfSatisfying(
            ProposedRule.Rename.class,
            r -> {
              assertThat(r.hubPath()).isEqualTo("spec.tags");
              assertThat(r.spokePath()).isEqualTo("spec.Tags");
            });
    assertThat(spoke.hubOnly()).containsExactly("spec.listeners");
    assertThat(spoke.spokeOnly()).containsExactly("spec.Listeners");
  }

  @Test
  void anUnknownHubVersionNamesTheDeclaredOnes() {
    var props = "{replicas: {type: integer}}";

    assertThatThrownBy(() -> suggester.suggest(target(props, props), "v9"))
        .hasMessageContaining("no version v9")
        .hasMessageContaining("[v2, v1]");
  }

  private static final String OBJECTS =
      """
      network:
        type: object
        properties:
          name: {type: string}
          subnet: {type: object, properties: {id: {type: string}}}
      routes:
        type: array
        items:
          type: object
          properties:
            to: {type: string}
            via: {type: object, properties: {gw: {type: string}}}
      """;

  /** The same fields as a generator of provider resources writes them: lists of at most one. */
  private static final String LISTS_OF_ONE =
      """
      network:
        type: array
        maxItems: 1
        items:
          type: object
          properties:
            name: {type: string}
            subnet: {type: array, maxItems: 1, items: {type: object, properties: {id: {type: string}}}}
      routes:
        type: array
        items:
          type: object
          properties:
            to: {type: string}
            via: {type: array, maxItems: 1, items: {type: object, properties: {gw: {type: string}}}}
      """;

  @Test
  void objectsHeldAsListsOfOneBecomeSingletonRulesThatCompileAndConvert() {
    var suggestion = spoke(OBJECTS, LISTS_OF_ONE);

    assertThat(suggestion.rules())
        .containsExactly(
            new ProposedRule.Singleton(
                "spec.network",
                "spec.network",
                false,
                true,
                "spec.network is a list of one in v1 and an object in v2, with lists of one inside"
                    + " it too (nested)"),
            new ProposedRule.Singleton(
                "spec.routes[].via",
                "spec.routes[].via",
                false,
                false,
                "spec.routes[].via is a list of one in v1 and an object in v2"));
    assertThat(suggestion.hubOnly()).isEmpty();
    assertThat(suggestion.spokeOnly()).isEmpty();
    var converted =
        routerForProposedRules(target(OBJECTS, LISTS_OF_ONE))
            .convert(
                object(
                    """
                    apiVersion: example.test/v2
                    kind: Widget
                    metadata: {name: w}
                    spec:
                      network: {name: main, subnet: {id: s-1}}
                      routes: [{to: 0.0.0.0/0, via: {gw: igw}}]
                    """),
                "v2",
                "v1");
    assertThat(converted.path("spec"))
        .isEqualTo(
            Fixtures.yaml(
                "{network: [{name: main, subnet: [{id: s-1}]}], routes: [{to: 0.0.0.0/0, via:"
                    + " [{gw: igw}]}]}"));
  }

  @Test
  void aListThatMayHoldMoreThanOneIsProposedWithTheLossToAcknowledge() {
    var suggestion =
        spoke(
            OBJECTS, LISTS_OF_ONE.replace("via: {type: array, maxItems: 1,", "via: {type: array,"));

    assertThat(suggestion.rules())
        .filteredOn(r -> r instanceof ProposedRule.Singleton s && s.hubPath().contains("via"))
        .singleElement()
        .satisfies(
            r -> assertThat(r.reason()).contains("only the first element converts: acknowledge"));
  }

  @Test
  void aListOfOneWhoseFieldsAlsoChangedIsLeftToTheAuthor() {
    var suggestion =
        spoke(OBJECTS, LISTS_OF_ONE.replace("name: {type: string}", "title: {type: string}"));

    assertThat(suggestion.rules())
        .noneMatch(
            r -> r instanceof ProposedRule.Singleton s && s.hubPath().equals("spec.network"));
    assertThat(suggestion.hubOnly()).contains("spec.network.subnet.id");
  }

  @Test
  void respelledEnumValuesBecomeAnEnumRemapThatCompilesAndConverts() {
    var hub = "mode: {type: string, enum: [Fast, OnFailure]}\n";
    var spokeSchema = "mode: {type: string, enum: [fast, on-failure]}\n";

    var suggestion = spoke(hub, spokeSchema);

    assertThat(suggestion.rules()).singleElement().isInstanceOf(ProposedRule.EnumChange.class);
    assertThat(suggestion.rules().getFirst().reason())
        .isEqualTo("values changed in v1: Fast -> fast, OnFailure -> on-failure");
    var converted =
        routerForProposedRules(target(hub, spokeSchema))
            .convert(
                object(
                    "apiVersion: example.test/v2\nkind: Widget\nmetadata: {name: w}\nspec: {mode: OnFailure}"),
                "v2",
                "v1");
    assertThat(converted.path("spec").path("mode").asText()).isEqualTo("on-failure");
  }

  @Test
  void anEnumValueOnlyTheHubHasIsDroppedAndTheReasonSaysToAcknowledgeIt() {
    var suggestion =
        spoke(
            "mode: {type: string, enum: [fast, slow, turbo]}\n",
            "mode: {type: string, enum: [fast, slow]}\n");

    assertThat(suggestion.rules())
        .singleElement()
        .satisfies(
            r -> {
              var e = (ProposedRule.EnumChange) r;
              assertThat(e.dropHub()).isTrue();
              assertThat(e.dropSpoke()).isFalse();
              assertThat(e.reason())
                  .isEqualTo(
                      "v2 has values v1 lacks (turbo): the rule drops them converting to v1, so"
                          + " acknowledge that with a reason, or map each to a value v1 has");
            });
  }

  @Test
  void enumsWithValuesLeftOverOnBothSidesAreLeftToTheAuthor() {
    var suggestion =
        spoke(
            "mode: {type: string, enum: [fast, turbo]}\n",
            "mode: {type: string, enum: [fast, quick]}\n");

    assertThat(suggestion.rules()).isEmpty();
    assertThat(suggestion.retyped())
        .singleElement()
        .satisfies(t -> assertThat(t.path()).isEqualTo("spec.mode"));
  }
}
