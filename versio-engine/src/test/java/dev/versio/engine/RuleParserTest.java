package dev.versio.engine;

import static dev.versio.engine.Fixtures.yaml;
import static org.assertj.core.api.Assertions.assertThat;

import dev.versio.engine.diagnostic.Diagnostic;
import dev.versio.engine.diagnostic.DiagnosticCode;
import dev.versio.engine.diagnostic.Diagnostics;
import dev.versio.engine.rule.Rule;
import dev.versio.engine.rule.RuleParser;
import dev.versio.engine.rule.Strategy;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class RuleParserTest {
  private final RuleParser parser = new RuleParser();

  /** One valid example of every strategy, as users write it. */
  static List<String> everyStrategy() {
    return List.of(
        "{strategy: FieldRename, fieldRename: {hubPath: spec.a, spokePath: spec.b}}",
        "{strategy: ScalarToObject, scalarToObject: {hubPath: spec.a, spokePath: spec.b, key: k, defaultsForOtherKeys: {x: 1}}}",
        "{strategy: ObjectToScalar, objectToScalar: {hubPath: spec.a, spokePath: spec.b, key: k}}",
        "{strategy: SingletonArrayToObject, singletonArrayToObject: {hubPath: spec.a, spokePath: spec.b}}",
        "{strategy: ObjectToSingletonArray, objectToSingletonArray: {hubPath: spec.a, spokePath: spec.b, nested: true}}",
        "{strategy: FieldsToMap, fieldsToMap: {hubPaths: [spec.a], spokeMapPath: spec.m, keyNames: {spec.a: x}, onUnknownSpokeKey: Drop}}",
        "{strategy: MapToFields, mapToFields: {hubMapPath: spec.m, spokePaths: [spec.a], onUnknownHubKey: Error}}",
        "{strategy: ToAnnotation, toAnnotation: {hubPath: spec.a, key: x/y, serialization: String, restoreOnReverse: true}}",
        "{strategy: ToLabel, toLabel: {hubPath: spec.a, key: example.com/y}}",
        "{strategy: FromAnnotation, fromAnnotation: {spokePath: spec.a, key: x/y, stashOnReverse: true}}",
        "{strategy: FromLabel, fromLabel: {spokePath: spec.a, key: example.com/y}}",
        "{strategy: EnumRemap, enumRemap: {path: spec.a, mapping: [{hub: A, spoke: a}], onUnmappedSpokeValue: Drop}}",
        "{strategy: DefaultValue, defaultValue: {path: spec.a, existsOn: Spoke, default: 1}}",
        "{strategy: Constant, constant: {path: spec.a, existsOn: Hub, value: x}}",
        "{strategy: Delete, delete: {path: spec.a, existsOn: Hub}}",
        "{strategy: JSONPatch, jsonPatch: {hubToSpoke: [{op: move, from: /spec/a, path: /spec/b}], spokeToHub: [], losslessOverride: true}}",
        "{strategy: ForEach, forEach: {hubItemsPath: spec.l, spokeItemsPath: spec.l, rules: [{strategy: FieldRename, fieldRename: {hubPath: a, spokePath: b}}]}}",
        "{strategy: TypeCoerce, typeCoerce: {path: spec.a, onFractionalInteger: Round}}",
        "{strategy: ScalarToFields, scalarToFields: {hubPath: spec.a, pattern: '(?P<x>.*)', spokeFields: {x: spec.x}, joinTemplate: '{{.x}}'}}",
        "{strategy: FieldsToScalar, fieldsToScalar: {hubFields: {x: spec.x}, pattern: '(?P<x>.*)', spokePath: spec.a, joinTemplate: '{{.x}}'}}",
        "{strategy: ArrayToMapByKey, arrayToMapByKey: {hubPath: spec.a, spokePath: spec.b, keyField: name}}",
        "{strategy: MapToArrayByKey, mapToArrayByKey: {hubPath: spec.a, spokePath: spec.b, keyField: name}}",
        "{strategy: NumericScale, numericScale: {hubPath: spec.a, spokePath: spec.b, factor: 1000}}",
        "{strategy: ListJoin, listJoin: {hubPath: spec.a, spokePath: spec.b, separator: ','}}",
        "{strategy: ListSplit, listSplit: {hubPath: spec.a, spokePath: spec.b, separator: ' '}}",
        "{strategy: Quantity, quantity: {hubPath: spec.a, spokePath: spec.b}}",
        "{strategy: Duration, duration: {hubPath: spec.a, spokePath: spec.b}}",
        "{strategy: JSONString, jsonString: {hubPath: spec.a, spokePath: spec.b}}",
        "{strategy: MapKeyRename, mapKeyRename: {hubPath: spec.a, spokePath: spec.b, renames: {x: y}}}",
        "{strategy: CEL, cel: {hubPaths: [spec.a], spokePaths: [spec.b], hubToSpoke: '{}', spokeToHub: '{}'}, acknowledgeLossy: true}");
  }

  @ParameterizedTest
  @MethodSource("everyStrategy")
  void everyStrategyParsesIntoItsOwnRecord(String yamlRule) {
    var d = Diagnostics.forSpoke("v1");
    var rule = parser.parseRule(yaml(yamlRule), d, 0);
    assertThat(d.all()).isEmpty();
    assertThat(rule).isPresent();
    assertThat(rule.get().strategy().wireName()).isEqualTo(yaml(yamlRule).get("strategy").asText());
    assertThat(rule.get().strategy().recordType()).isEqualTo(rule.get().getClass());
  }

  @Test
  void theExamplesCoverAll30StrategiesAndEachHasOneRecordNamedAfterIt() {
    var parsed =
        everyStrategy().stream()
            .map(y -> yaml(y).get("strategy").asText())
            .collect(Collectors.toSet());
    var wireNames =
        Arrays.stream(Strategy.values()).map(Strategy::wireName).collect(Collectors.toSet());
    assertThat(wireNames).hasSize(30).isEqualTo(parsed);
    Set<Class<?>> records = Set.of(Rule.class.getPermittedSubclasses());
    assertThat(records)
        .isEqualTo(
            Arrays.stream(Strategy.values()).map(Strategy::recordType).collect(Collectors.toSet()));
    for (var s : Strategy.values()) {
      assertThat(s.recordType().getSimpleName()).isEqualToIgnoringCase(s.wireName());
    }
  }

  @Test
  void defaultsAreFilledIn() {
    var rule =
        (Rule.FieldsToMap)
            parse(
                "{strategy: FieldsToMap, fieldsToMap: {hubPaths: [spec.a], spokeMapPath: spec.m}}");
    assertThat(rule.onUnknownSpokeKey()).isEqualTo(Rule.OnUnknown.ERROR);
    assertThat(rule.keyNames()).isEmpty();
    var toLabel = (Rule.ToLabel) parse("{strategy: ToLabel, toLabel: {hubPath: spec.a, key: a}}");
    assertThat(toLabel.serialization()).isEqualTo(Rule.Serialization.JSON);
    var fromLabel =
        (Rule.FromLabel) parse("{strategy: FromLabel, fromLabel: {spokePath: spec.a, key: a}}");
    assertThat(fromLabel.serialization()).isEqualTo(Rule.Serialization.STRING);
    var coerce = (Rule.TypeCoerce) parse("{strategy: TypeCoerce, typeCoerce: {path: spec.a}}");
    assertThat(coerce.onFractionalInteger()).isEqualTo(Rule.FractionalPolicy.ERROR);
    var enumRemap =
        (Rule.EnumRemap)
            parse(
                "{strategy: EnumRemap, enumRemap: {path: spec.a, mapping: [{hub: 1, spoke: 2}]}}");
    assertThat(enumRemap.onUnmappedHubValue()).isEqualTo(Rule.OnUnknown.ERROR);
  }

  @Test
  void anUnknownStrategyListsTheKnownOnes() {
    assertThat(errors("{strategy: FieldRenam, fieldRename: {}}"))
        .singleElement()
        .satisfies(
            d -> {
              assertThat(d.code()).isEqualTo(DiagnosticCode.UNKNOWN_STRATEGY);
              assertThat(d.hint()).contains("FieldRename").contains("CEL");
            });
  }

  @Test
  void exactlyOneParamsBlockMatchingTheStrategyIsRequired() {
    assertThat(errors("{strategy: FieldRename}"))
        .extracting(Diagnostic::code)
        .containsExactly(DiagnosticCode.PARAMS_MISSING);
    assertThat(
            errors(
                "{strategy: FieldRename, fieldRename: {hubPath: a, spokePath: b}, delete: {path: a, existsOn: Hub}}"))
        .extracting(Diagnostic::code)
        .containsExactly(DiagnosticCode.PARAMS_AMBIGUOUS);
    assertThat(errors("{strategy: FieldRename, delete: {path: a, existsOn: Hub}}"))
        .singleElement()
        .satisfies(
            d -> {
              assertThat(d.code()).isEqualTo(DiagnosticCode.PARAMS_MISMATCH);
              assertThat(d.hint()).contains("strategy: Delete");
            });
  }

  @Test
  void misspelledOrMissingParametersAreReportedByName() {
    assertThat(errors("{strategy: FieldRename, fieldRename: {hubpath: spec.a, spokePath: spec.b}}"))
        .extracting(Diagnostic::message)
        .anySatisfy(m -> assertThat(m).contains("fieldRename.hubPath is required"))
        .anySatisfy(m -> assertThat(m).contains("no parameter 'hubpath'"));
  }

  @Test
  void pathsWithIndicesOrWildcardsAreRejectedWithAForEachHint() {
    assertThat(
            errors(
                "{strategy: FieldRename, fieldRename: {hubPath: 'spec.a[0]', spokePath: spec.b}}"))
        .singleElement()
        .satisfies(d -> assertThat(d.message()).contains("use a ForEach rule"));
  }

  @Test
  void structuralChecksFailClosed() {
    assertThat(
            errors(
                "{strategy: FieldRename, fieldRename: {hubPath: a, spokePath: b}, when: {path: ' '}}"))
        .extracting(Diagnostic::code)
        .containsExactly(DiagnosticCode.WHEN_INVALID);
    assertThat(
            errors(
                "{strategy: CEL, cel: {hubPaths: [a], spokePaths: [b], hubToSpoke: x, spokeToHub: y}}"))
        .extracting(Diagnostic::code)
        .containsExactly(DiagnosticCode.CEL_NEEDS_ACKNOWLEDGEMENT);
    assertThat(
            errors("{strategy: FromLabel, fromLabel: {spokePath: a, key: k, serialization: JSON}}"))
        .extracting(Diagnostic::code)
        .containsExactly(DiagnosticCode.LABEL_JSON_UNSUPPORTED);
    assertThat(errors("{strategy: ToLabel, toLabel: {hubPath: a, key: 'UPPER.example.com/x'}}"))
        .singleElement()
        .satisfies(d -> assertThat(d.message()).contains("invalid label key"));
    assertThat(
            errors("{strategy: NumericScale, numericScale: {hubPath: a, spokePath: b, factor: 0}}"))
        .singleElement()
        .satisfies(d -> assertThat(d.message()).contains("must not be 0"));
    assertThat(errors("{strategy: Delete, delete: {path: a}}"))
        .singleElement()
        .satisfies(d -> assertThat(d.message()).contains("existsOn is required"));
    assertThat(
            errors(
                "{strategy: EnumRemap, enumRemap: {path: a, mapping: [], onUnmappedHubValue: Sometimes}}"))
        .extracting(Diagnostic::message)
        .anySatisfy(m -> assertThat(m).contains("non-empty list"))
        .anySatisfy(m -> assertThat(m).contains("must be one of Error, Drop"));
  }

  private Rule parse(String yamlRule) {
    var d = Diagnostics.forSpoke("v1");
    var rule = parser.parseRule(yaml(yamlRule), d, 0);
    assertThat(d.all()).isEmpty();
    return rule.orElseThrow();
  }

  private List<Diagnostic> errors(String yamlRule) {
    var d = Diagnostics.forSpoke("v1");
    assertThat(parser.parseRule(yaml(yamlRule), d, 0)).isEmpty();
    return d.all();
  }
}
