package dev.versio.engine;

import static dev.versio.engine.Fixtures.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.versio.engine.compile.Verdict;
import dev.versio.engine.diagnostic.DiagnosticCode;
import org.junit.jupiter.api.Test;

class CollectionStrategiesTest {
  private static final String PORTS = "ports: {type: array, items: {type: integer}}";
  private static final String CSV = "portsCSV: {type: string}";

  @Test
  void listJoinOfIntegersRoundTripsAndAnEmptyStringIsAnEmptyList() {
    var target = target(PORTS, CSV);
    var config =
        spokeRules(
            "- {strategy: ListJoin, listJoin: {hubPath: spec.ports, spokePath: spec.portsCSV, separator: ','}, acknowledgeLossy: true}");
    var router = router(target, config);
    assertThat(router.convert(object("spec: {ports: [80, 443]}"), "v2", "v1").path("spec"))
        .isEqualTo(object("portsCSV: '80,443'"));
    assertThat(router.convert(object("spec: {portsCSV: '80,443'}"), "v1", "v2").path("spec"))
        .isEqualTo(object("ports: [80, 443]"));
    assertThat(router.convert(object("spec: {portsCSV: ''}"), "v1", "v2").path("spec"))
        .isEqualTo(object("ports: []"));
    assertThat(compiled(target, config).plans().get("v1").verdict())
        .isEqualTo(new Verdict(true, false));
    assertThatThrownBy(() -> router.convert(object("spec: {portsCSV: '80,,443'}"), "v1", "v2"))
        .hasMessageContaining("'' is not a number");
  }

  @Test
  void listJoinOfFreeStringsIsLossyBecauseAnElementMayHoldTheSeparator() {
    var target =
        target("scopes: {type: array, items: {type: string}}", "scopesText: {type: string}");
    assertThat(
            rejected(
                target,
                spokeRules(
                    "- {strategy: ListJoin, listJoin: {hubPath: spec.scopes, spokePath: spec.scopesText, separator: ' '}}")))
        .singleElement()
        .satisfies(d -> assertThat(d.message()).contains("hub->spoke conversion is lossy"));
    var enumTarget =
        target(
            "scopes: {type: array, items: {type: string, enum: [read, write]}}",
            "scopesText: {type: string}");
    assertThat(
            compiled(
                    enumTarget,
                    spokeRules(
                        "- {strategy: ListJoin, listJoin: {hubPath: spec.scopes, spokePath: spec.scopesText, separator: ' '}}"))
                .lossless())
        .isTrue();
  }

  @Test
  void listJoinRefusesElementsThatAreNotScalars() {
    var diagnostics =
        rejected(
            target(
                "l: {type: array, items: {x-kubernetes-int-or-string: true}}", "s: {type: string}"),
            spokeRules(
                "- {strategy: ListJoin, listJoin: {hubPath: spec.l, spokePath: spec.s, separator: ','}}"));
    assertThat(diagnostics)
        .singleElement()
        .satisfies(d -> assertThat(d.message()).contains("must be an array of strings, integers"));
  }

  @Test
  void listSplitIsTheMirrorOfListJoin() {
    var target =
        target("scopesText: {type: string}", "scopes: {type: array, items: {type: string}}");
    var router =
        router(
            target,
            spokeRules(
                "- {strategy: ListSplit, listSplit: {hubPath: spec.scopesText, spokePath: spec.scopes, separator: ' '}, acknowledgeLossy: true}"));
    assertThat(router.convert(object("spec: {scopesText: 'read write'}"), "v2", "v1").path("spec"))
        .isEqualTo(object("scopes: [read, write]"));
    assertThat(router.convert(object("spec: {scopes: [a, b]}"), "v1", "v2").path("spec"))
        .isEqualTo(object("scopesText: 'a b'"));
  }

  @Test
  void listSplitTakesTheSeparatorAsLiteralTextAndKeepsEmptyParts() {
    var target =
        target("scopesText: {type: string}", "scopes: {type: array, items: {type: string}}");
    var router =
        router(
            target,
            spokeRules(
                "- {strategy: ListSplit, listSplit: {hubPath: spec.scopesText, spokePath: spec.scopes, separator: '.|'}, acknowledgeLossy: true}"));
    assertThat(router.convert(object("spec: {scopesText: 'a.|.|b.|'}"), "v2", "v1").path("spec"))
        .isEqualTo(object("scopes: [a, '', b, '']"));
    assertThat(router.convert(object("spec: {scopesText: 'a|b.c'}"), "v2", "v1").path("spec"))
        .as("a regex would have split on '|' or '.'")
        .isEqualTo(object("scopes: ['a|b.c']"));
    assertThat(router.convert(object("spec: {scopesText: ''}"), "v2", "v1").path("spec"))
        .isEqualTo(object("scopes: []"));
  }

  private static final String ROUTES =
      """
      routes: {type: array, items: {type: object, properties: {name: {type: string}, port: {type: integer}}}}
      """;
  private static final String BY_NAME =
      "routesByName: {type: object, additionalProperties: {type: object, properties: {port: {type: integer}}}}";

  @Test
  void arrayToMapByKeyKeysElementsAndRebuildsASortedArray() {
    var target = target(ROUTES, BY_NAME);
    var config =
        spokeRules(
            "- {strategy: ArrayToMapByKey, arrayToMapByKey: {hubPath: spec.routes, spokePath: spec.routesByName, keyField: name}, acknowledgeLossy: true}");
    var router = router(target, config);
    assertThat(
            router
                .convert(
                    object("spec: {routes: [{name: web, port: 80}, {name: api, port: 8080}]}"),
                    "v2",
                    "v1")
                .path("spec"))
        .isEqualTo(object("routesByName: {web: {port: 80}, api: {port: 8080}}"));
    assertThat(
            router
                .convert(
                    object("spec: {routesByName: {web: {port: 80}, api: {port: 8080}}}"),
                    "v1",
                    "v2")
                .path("spec"))
        .isEqualTo(object("routes: [{name: api, port: 8080}, {name: web, port: 80}]"));
    assertThat(compiled(target, config).plans().get("v1").verdict())
        .as("the array's order is lost")
        .isEqualTo(new Verdict(false, true));
  }

  @Test
  void arrayToMapByKeyFailsOnDuplicateMissingOrNonStringKeys() {
    var router =
        router(
            target(ROUTES, BY_NAME),
            spokeRules(
                "- {strategy: ArrayToMapByKey, arrayToMapByKey: {hubPath: spec.routes, spokePath: spec.routesByName, keyField: name}, acknowledgeLossy: true}"));
    assertThatThrownBy(
            () -> router.convert(object("spec: {routes: [{name: a}, {name: a}]}"), "v2", "v1"))
        .hasMessageContaining("keys must be unique");
    assertThatThrownBy(() -> router.convert(object("spec: {routes: [{port: 1}]}"), "v2", "v1"))
        .hasMessageContaining("no string 'name'");
    assertThatThrownBy(() -> router.convert(object("spec: {routes: [{name: 7}]}"), "v2", "v1"))
        .hasMessageContaining("no string 'name'");
  }

  @Test
  void arrayToMapByKeyChecksTheMapValuesMatchTheElementsWithoutTheKey() {
    var diagnostics =
        rejected(
            target(
                ROUTES,
                "routesByName: {type: object, additionalProperties: {type: object, properties: {port: {type: string}}}}"),
            spokeRules(
                "- {strategy: ArrayToMapByKey, arrayToMapByKey: {hubPath: spec.routes, spokePath: spec.routesByName, keyField: name}, acknowledgeLossy: true}"));
    assertThat(diagnostics).extracting(d -> d.code()).contains(DiagnosticCode.SHAPE_MISMATCH);
  }

  @Test
  void mapToArrayByKeySortsByteWiseAndAKeyFieldInTheValueWins() {
    var target =
        target(
            "quotas: {type: object, additionalProperties: {type: object, properties: {limit: {type: integer}}}}",
            "quotaList: {type: array, items: {type: object, properties: {resource: {type: string}, limit: {type: integer}}}}");
    var router =
        router(
            target,
            spokeRules(
                "- {strategy: MapToArrayByKey, mapToArrayByKey: {hubPath: spec.quotas, spokePath: spec.quotaList, keyField: resource}, acknowledgeLossy: true}"));
    assertThat(
            router
                .convert(
                    object("spec: {quotas: {b: {limit: 1}, B: {limit: 2}, a: {limit: 3}}}"),
                    "v2",
                    "v1")
                .path("spec"))
        .isEqualTo(
            object(
                "quotaList: [{resource: B, limit: 2}, {resource: a, limit: 3}, {resource: b, limit: 1}]"));
  }

  private static final String MAP =
      "podLabels: {type: object, additionalProperties: {type: string}}";

  @Test
  void mapKeyRenameRenamesListedKeysAndPassesTheRestThrough() {
    var target = target(MAP, MAP);
    var config =
        spokeRules(
            "- {strategy: MapKeyRename, mapKeyRename: {hubPath: spec.podLabels, spokePath: spec.podLabels, renames: {component: role}}}");
    var router = router(target, config);
    assertThat(
            router
                .convert(object("spec: {podLabels: {component: db, app: x}}"), "v2", "v1")
                .path("spec"))
        .isEqualTo(object("podLabels: {role: db, app: x}"));
    assertThat(router.convert(object("spec: {podLabels: {role: db}}"), "v1", "v2").path("spec"))
        .isEqualTo(object("podLabels: {component: db}"));
    assertThat(compiled(target, config).lossless()).isTrue();
  }

  @Test
  void mapKeyRenameFailsRatherThanChangeAKeyThatWouldNotComeBack() {
    var router =
        router(
            target(MAP, MAP),
            spokeRules(
                "- {strategy: MapKeyRename, mapKeyRename: {hubPath: spec.podLabels, spokePath: spec.podLabels, renames: {component: role}}}"));
    assertThatThrownBy(() -> router.convert(object("spec: {podLabels: {role: x}}"), "v2", "v1"))
        .hasMessageContaining("rules[0] (MapKeyRename)")
        .hasMessageContaining("would not come back");
    assertThatThrownBy(
            () -> router.convert(object("spec: {podLabels: {component: x}}"), "v1", "v2"))
        .hasMessageContaining("would not come back");
  }

  @Test
  void mapKeyRenameRejectsTwoKeysRenamedToOneAndNonMaps() {
    assertThat(
            rejected(
                target(MAP, MAP),
                spokeRules(
                    "- {strategy: MapKeyRename, mapKeyRename: {hubPath: spec.podLabels, spokePath: spec.podLabels, renames: {a: x, b: x}}}")))
        .anySatisfy(d -> assertThat(d.message()).contains("could not be reversed"));
    assertThat(
            rejected(
                target("m: {type: string}", MAP),
                spokeRules(
                    "- {strategy: MapKeyRename, mapKeyRename: {hubPath: spec.m, spokePath: spec.podLabels, renames: {a: b}}}")))
        .anySatisfy(d -> assertThat(d.message()).contains("must be a free-form map"));
  }
}
