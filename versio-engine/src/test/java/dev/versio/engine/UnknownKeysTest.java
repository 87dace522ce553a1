package dev.versio.engine;

import static dev.versio.engine.Fixtures.yaml;
import static org.assertj.core.api.Assertions.assertThat;

import dev.versio.engine.diagnostic.Diagnostic;
import dev.versio.engine.diagnostic.DiagnosticCode;
import dev.versio.engine.rule.ConfigParser;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Typos at every level of a config are errors that say what was probably meant. */
class UnknownKeysTest {
  private static final Set<String> API_KEYS =
      Set.of("targetCRD", "webhookServerRef", "driftPolicy");

  private static final String RENAME =
      "{strategy: FieldRename, fieldRename: {hubPath: spec.a, spokePath: spec.b}}";

  @Test
  void aMisspelledSpokeKeyIsAnErrorThatSuggestsTheKnownOne() {
    var d = single(errors("hubVersion: v2\nspokes:\n- version: v1\n  rule: [" + RENAME + "]\n"));
    assertThat(d.code()).isEqualTo(DiagnosticCode.UNKNOWN_KEY);
    assertThat(d.spoke()).isEqualTo("v1");
    assertThat(d.path()).isEqualTo("spokes[0].rule");
    assertThat(d.message()).isEqualTo("spoke v1 has no key 'rule'");
    assertThat(d.hint()).isEqualTo("did you mean 'rules'?");
  }

  @Test
  void aMisspelledSpecKeyIsAnErrorWhenTheCallerNamesTheApiKeys() {
    var parsed =
        new ConfigParser()
            .parse(
                yaml("hubversion: v2\ntargetCRD: {name: x}\nspokes: [{version: v1, rules: []}]\n"),
                API_KEYS);
    var diagnostics = ((ConfigParser.Result.Invalid) parsed).diagnostics();
    assertThat(diagnostics)
        .filteredOn(d -> d.code() == DiagnosticCode.UNKNOWN_KEY)
        .singleElement()
        .satisfies(
            d -> {
              assertThat(d.path()).isEqualTo("hubversion");
              assertThat(d.message()).isEqualTo("spec has no key 'hubversion'");
              assertThat(d.hint()).isEqualTo("did you mean 'hubVersion'?");
            });
  }

  @Test
  void anUnknownKeyFarFromEveryKnownOneListsTheKnownKeys() {
    var parsed =
        new ConfigParser()
            .parse(yaml("hubVersion: v2\ncolour: red\nspokes: [{version: v1}]\n"), API_KEYS);
    assertThat(single(((ConfigParser.Result.Invalid) parsed).diagnostics()).hint())
        .isEqualTo(
            "spec holds hubVersion, spokes, unmappedFieldPolicy, unmappedFieldReason, driftPolicy,"
                + " targetCRD, webhookServerRef");
  }

  @Test
  void withoutTheApiKeysUnknownSpecKeysAreLeftToTheCaller() {
    var parsed =
        new ConfigParser()
            .parse(yaml("hubVersion: v2\ntargetCRD: {name: x}\nspokes: [{version: v1}]\n"));
    assertThat(parsed).isInstanceOf(ConfigParser.Result.Parsed.class);
  }

  @Test
  void aMisspelledRuleKeySuggestsTheKnownOneAndPointsAtIt() {
    var d =
        single(
            rules(
                "{strategy: FieldRename, fieldRename: {hubPath: spec.a, spokePath: spec.b},"
                    + " acknowledgeLosy: true}"));
    assertThat(d.code()).isEqualTo(DiagnosticCode.UNKNOWN_PARAM);
    assertThat(d.ruleLocation()).isEqualTo("rules[0]");
    assertThat(d.path()).isEqualTo("acknowledgeLosy");
    assertThat(d.hint()).isEqualTo("did you mean 'acknowledgeLossy'?");
  }

  @Test
  void aMisspelledParameterSuggestsTheDeclaredOne() {
    var d =
        unknownParam(
            rules("{strategy: FieldRename, fieldRename: {hubpath: spec.a, spokePath: spec.b}}"));
    assertThat(d.path()).isEqualTo("fieldRename.hubpath");
    assertThat(d.message()).isEqualTo("fieldRename has no parameter 'hubpath'");
    assertThat(d.hint()).isEqualTo("did you mean 'hubPath'?");
  }

  @Test
  void aStrategyInTheWrongCaseSuggestsTheExactSpelling() {
    var d = single(rules("{strategy: fieldRename, fieldRename: {hubPath: a, spokePath: b}}"));
    assertThat(d.code()).isEqualTo(DiagnosticCode.UNKNOWN_STRATEGY);
    assertThat(d.path()).isEqualTo("strategy");
    assertThat(d.message())
        .isEqualTo("unknown strategy 'fieldRename'; did you mean 'FieldRename'?");
    assertThat(single(rules("{strategy: jsonPatch, jsonPatch: {}}")).message())
        .endsWith("did you mean 'JSONPatch'?");
    assertThat(single(rules("{strategy: FieldRenam, fieldRename: {}}")).message())
        .endsWith("did you mean 'FieldRename'?");
    assertThat(single(rules("{strategy: Rename, fieldRename: {}}")).message())
        .isEqualTo("unknown strategy 'Rename'");
  }

  @Test
  void aRuleWithoutAStrategyNamesTheMisspelledKeyOrTheStrategyOfItsBlock() {
    assertThat(single(rules("{stratgy: FieldRename, fieldRename: {}}")).hint())
        .isEqualTo("did you mean 'strategy'? (the rule has 'stratgy')");
    assertThat(single(rules("{fieldRename: {hubPath: a, spokePath: b}}")).hint())
        .isEqualTo("add strategy: FieldRename (the rule has a 'fieldRename' block)");
  }

  @Test
  void aMisspelledWhenKeyIsAnErrorInsteadOfAConditionThatNeverHolds() {
    var d =
        single(
            rules(
                "{strategy: FieldRename, fieldRename: {hubPath: a, spokePath: b},"
                    + " when: {path: spec.plan, equal: gold}}"));
    assertThat(d.code()).isEqualTo(DiagnosticCode.WHEN_INVALID);
    assertThat(d.path()).isEqualTo("when.equal");
    assertThat(d.hint()).isEqualTo("did you mean 'equals'?");
  }

  @Test
  void aMisspelledKeyInsideAForEachIsReportedAtItsNestedRule() {
    var d =
        unknownParam(
            rules(
                "{strategy: ForEach, forEach: {hubItemsPath: spec.l, spokeItemsPath: spec.l,"
                    + " rules: [{strategy: FieldRename, fieldRename: {hubPath: a, spokePat: b}}]}}"));
    assertThat(d.ruleLocation()).isEqualTo("rules[0].forEach.rules[0]");
    assertThat(d.path()).isEqualTo("fieldRename.spokePat");
  }

  private static Diagnostic unknownParam(List<Diagnostic> diagnostics) {
    return single(
        diagnostics.stream().filter(d -> d.code() == DiagnosticCode.UNKNOWN_PARAM).toList());
  }

  private static List<Diagnostic> rules(String rule) {
    return errors("hubVersion: v2\nspokes:\n- version: v1\n  rules: [" + rule + "]\n");
  }

  private static List<Diagnostic> errors(String spec) {
    var parsed = new ConfigParser().parse(yaml(spec));
    assertThat(parsed).isInstanceOf(ConfigParser.Result.Invalid.class);
    return ((ConfigParser.Result.Invalid) parsed).diagnostics();
  }

  private static Diagnostic single(List<Diagnostic> diagnostics) {
    assertThat(diagnostics).as("diagnostics").hasSize(1);
    return diagnostics.getFirst();
  }
}
