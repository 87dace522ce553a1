package dev.versio.engine.rule.catalog;

import static dev.versio.engine.rule.catalog.ParamSpec.choice;
import static dev.versio.engine.rule.catalog.ParamSpec.optional;
import static dev.versio.engine.rule.catalog.ParamSpec.required;
import static dev.versio.engine.rule.catalog.ParamType.BOOLEAN;
import static dev.versio.engine.rule.catalog.ParamType.JSON_MAP;
import static dev.versio.engine.rule.catalog.ParamType.PATH;
import static dev.versio.engine.rule.catalog.ParamType.PATHS;
import static dev.versio.engine.rule.catalog.ParamType.STRING;
import static dev.versio.engine.rule.catalog.ParamType.STRING_MAP;
import static dev.versio.engine.rule.catalog.SpecBuilder.hubPath;
import static dev.versio.engine.rule.catalog.SpecBuilder.spec;
import static dev.versio.engine.rule.catalog.SpecBuilder.spokePath;

import dev.versio.engine.rule.Rule.OnUnknown;
import dev.versio.engine.rule.Strategy;

/** Strategies that move a value or change its shape: renames, wraps, singletons, maps. */
final class ShapeStrategies {
  private ShapeStrategies() {}

  private static final String NESTED =
      "Also converts the singleton arrays inside, at any depth: wherever one side holds an array"
          + " of objects and the other that object, the array is unwrapped or wrapped (either way"
          + " round); without it the element and the object must be the same shape.";

  private static final String NESTED_NOTE =
      "`nested` is for generated resources where every block is a list of one (`network:"
          + " [{subnet: [{id: …}]}]` against `network: {subnet: {id: …}}`); lists of many inside"
          + " (`routes: [{match: [{…}]}]` against `routes: [{match: {…}}]`) are converted element by"
          + " element. Any other difference is an error that names its path.";

  static StrategySpec fieldRename() {
    return spec(
            Strategy.FIELD_RENAME, "Moves a field to another path; the value is copied as it is.")
        .param(hubPath("The field on the hub."))
        .param(spokePath("The same field on the spoke."))
        .param(
            optional(
                "spokeAliases",
                PATHS,
                "[]",
                "Older spoke names of the same field (a deprecated alias): spoke→hub reads"
                    + " `spokePath`, else the first alias set."))
        .hubToSpoke("Copies the hub value to `spokePath` (never to an alias).", "Always.")
        .spokeToHub(
            "Copies the spoke value to `hubPath`: `spokePath` when set, else the first alias"
                + " that is (`spokePath` wins over every alias, an earlier alias over a later one).",
            "Without `spokeAliases` (an alias comes back under `spokePath`, and loses to it when"
                + " both are set).")
        .note(
            "Both sides must be of the same kind. When the two shapes are identical all the way"
                + " down, the rename carries the whole subtree; objects whose children differ"
                + " need rules for those children, and arrays whose elements differ need a"
                + " `ForEach` (`SHAPE_MISMATCH`).")
        .schemas("diskGiB: {type: integer}\n", "diskSize: {type: integer}\n")
        .rule(
            """
            - strategy: FieldRename
              fieldRename:
                hubPath: spec.diskGiB
                spokePath: spec.diskSize
            """)
        .objects("spec: {diskGiB: 20}\n", "spec: {diskSize: 20}\n")
        .build();
  }

  static StrategySpec scalarToObject() {
    return spec(Strategy.SCALAR_TO_OBJECT, "Wraps a hub scalar into a spoke object under one key.")
        .param(hubPath("The scalar on the hub."))
        .param(spokePath("The object on the spoke."))
        .param(required("key", STRING, "The key of the spoke object that holds the scalar."))
        .param(
            optional(
                "defaultsForOtherKeys",
                JSON_MAP,
                "{}",
                "Values written next to `key` when wrapping; `key` wins over a default of the"
                    + " same name."))
        .hubToSpoke(
            "Writes `{<defaultsForOtherKeys>, key: <hub value>}` at `spokePath`.", "Always.")
        .spokeToHub(
            "Copies the object's `key` to `hubPath`; a missing key writes nothing.",
            "Only when the spoke object declares no property but `key` (the others are dropped;"
                + " defaults do not bring them back).")
        .schemas(
            "tls: {type: boolean}\n",
            "tls: {type: object, properties: {enabled: {type: boolean}}}\n")
        .rule(
            """
            - strategy: ScalarToObject
              scalarToObject:
                hubPath: spec.tls
                spokePath: spec.tls
                key: enabled
            """)
        .objects("spec: {tls: true}\n", "spec: {tls: {enabled: true}}\n")
        .build();
  }

  static StrategySpec objectToScalar() {
    return spec(
            Strategy.OBJECT_TO_SCALAR,
            "Unwraps one key of a hub object into a spoke scalar (the mirror of `ScalarToObject`).")
        .param(hubPath("The object on the hub."))
        .param(spokePath("The scalar on the spoke."))
        .param(required("key", STRING, "The key of the hub object that holds the scalar."))
        .param(
            optional(
                "defaultsForOtherKeys",
                JSON_MAP,
                "{}",
                "Values written next to `key` when wrapping back; `key` wins over a default of"
                    + " the same name."))
        .hubToSpoke(
            "Copies the object's `key` to `spokePath`; a missing key writes nothing.",
            "Only when the hub object declares no property but `key` (the others are dropped;"
                + " defaults do not bring them back).")
        .spokeToHub(
            "Writes `{<defaultsForOtherKeys>, key: <spoke value>}` at `hubPath`.", "Always.")
        .schemas(
            "endpoint: {type: object, properties: {url: {type: string}}}\n",
            "endpointURL: {type: string}\n")
        .rule(
            """
            - strategy: ObjectToScalar
              objectToScalar:
                hubPath: spec.endpoint
                spokePath: spec.endpointURL
                key: url
            """)
        .objects(
            "spec: {endpoint: {url: 'https://db.example.com'}}\n",
            "spec: {endpointURL: 'https://db.example.com'}\n")
        .build();
  }

  static StrategySpec singletonArrayToObject() {
    return spec(
            Strategy.SINGLETON_ARRAY_TO_OBJECT,
            "Turns a hub array that holds one element into a spoke object.")
        .param(hubPath("The array on the hub."))
        .param(spokePath("The object (or any value) on the spoke."))
        .param(optional("nested", BOOLEAN, "false", NESTED))
        .hubToSpoke(
            "Copies the array's first element to `spokePath`; an empty array writes nothing.",
            "Only when the hub array declares `maxItems` of 1 or less: later elements are dropped"
                + " (with `nested`, the same holds for every hub array unwrapped inside).")
        .spokeToHub(
            "Writes `[<spoke value>]` at `hubPath`.",
            "Always (with `nested`: unless a spoke array inside is unwrapped and may hold more than"
                + " one element).")
        .note(NESTED_NOTE)
        .schemas(
            """
            listeners:
              type: array
              maxItems: 1
              items: {type: object, properties: {port: {type: integer}}}
            """,
            "listener: {type: object, properties: {port: {type: integer}}}\n")
        .rule(
            """
            - strategy: SingletonArrayToObject
              singletonArrayToObject:
                hubPath: spec.listeners
                spokePath: spec.listener
            """)
        .objects("spec: {listeners: [{port: 443}]}\n", "spec: {listener: {port: 443}}\n")
        .build();
  }

  static StrategySpec objectToSingletonArray() {
    return spec(
            Strategy.OBJECT_TO_SINGLETON_ARRAY,
            "Turns a hub object into a spoke array of one element (the mirror of"
                + " `SingletonArrayToObject`).")
        .param(hubPath("The object (or any value) on the hub."))
        .param(spokePath("The array on the spoke."))
        .param(optional("nested", BOOLEAN, "false", NESTED))
        .hubToSpoke(
            "Writes `[<hub value>]` at `spokePath`.",
            "Always (with `nested`: unless a hub array inside is unwrapped and may hold more than"
                + " one element).")
        .spokeToHub(
            "Copies the array's first element to `hubPath`; an empty array writes nothing.",
            "Only when the spoke array declares `maxItems` of 1 or less: later elements are"
                + " dropped (with `nested`, the same holds for every spoke array unwrapped"
                + " inside).")
        .note(NESTED_NOTE)
        .schemas(
            """
            backup:
              type: object
              properties:
                schedule: {type: string}
                target:
                  type: object
                  properties: {bucket: {type: string}}
            """,
            """
            backups:
              type: array
              items:
                type: object
                properties:
                  schedule: {type: string}
                  target:
                    type: array
                    maxItems: 1
                    items:
                      type: object
                      properties: {bucket: {type: string}}
            """)
        .rule(
            """
            - strategy: ObjectToSingletonArray
              objectToSingletonArray:
                hubPath: spec.backup
                spokePath: spec.backups
                nested: true
              acknowledgeLossy: true
              reason: v1 accepted a list, but only one backup schedule was ever honoured
            """)
        .objects(
            "spec: {backup: {schedule: '@daily', target: {bucket: archive}}}\n",
            "spec: {backups: [{schedule: '@daily', target: [{bucket: archive}]}]}\n")
        .lossless(true, false)
        .build();
  }

  static StrategySpec fieldsToMap() {
    return spec(Strategy.FIELDS_TO_MAP, "Gathers several hub fields into one spoke map.")
        .param(required("hubPaths", PATHS, "The hub fields to gather."))
        .param(required("spokeMapPath", PATH, "The map on the spoke."))
        .param(
            optional(
                "keyNames",
                STRING_MAP,
                "{}",
                "The map key of a hub field, keyed by its path exactly as listed in `hubPaths`;"
                    + " by default the path's last segment."))
        .param(
            choice(
                "onUnknownSpokeKey",
                OnUnknown.class,
                OnUnknown.ERROR,
                "What spoke→hub does with a map key that names no hub field: fail the"
                    + " conversion, or drop the entry."))
        .hubToSpoke(
            "Puts every hub field that is present into a new map; writes no map when none is.",
            "Always.")
        .spokeToHub(
            "Writes each known key of the map to its hub field.",
            "Only with `onUnknownSpokeKey: Error` (`Drop` loses the other entries).")
        .note("Two fields that map to the same key are rejected at compile time.")
        .schemas(
            "ownerTeam: {type: string}\ncostCenter: {type: string}\n",
            "billing: {type: object, additionalProperties: {type: string}}\n")
        .rule(
            """
            - strategy: FieldsToMap
              fieldsToMap:
                hubPaths: [spec.ownerTeam, spec.costCenter]
                spokeMapPath: spec.billing
                keyNames: {spec.ownerTeam: team, spec.costCenter: cc}
            """)
        .objects(
            "spec: {ownerTeam: storage, costCenter: '4711'}\n",
            "spec: {billing: {team: storage, cc: '4711'}}\n")
        .build();
  }

  static StrategySpec mapToFields() {
    return spec(
            Strategy.MAP_TO_FIELDS,
            "Spreads one hub map into several spoke fields (the mirror of `FieldsToMap`).")
        .param(required("hubMapPath", PATH, "The map on the hub."))
        .param(required("spokePaths", PATHS, "The spoke fields to spread it into."))
        .param(
            optional(
                "keyNames",
                STRING_MAP,
                "{}",
                "The map key of a spoke field, keyed by its path exactly as listed in"
                    + " `spokePaths`; by default the path's last segment."))
        .param(
            choice(
                "onUnknownHubKey",
                OnUnknown.class,
                OnUnknown.ERROR,
                "What hub→spoke does with a map key that names no spoke field: fail the"
                    + " conversion, or drop the entry."))
        .hubToSpoke(
            "Writes each known key of the map to its spoke field.",
            "Only with `onUnknownHubKey: Error` (`Drop` loses the other entries).")
        .spokeToHub(
            "Puts every spoke field that is present into a new map; writes no map when none is.",
            "Always.")
        .note("Two fields that map to the same key are rejected at compile time.")
        .schemas(
            "selectors: {type: object, additionalProperties: {type: string}}\n",
            "appSelector: {type: string}\ntierSelector: {type: string}\n")
        .rule(
            """
            - strategy: MapToFields
              mapToFields:
                hubMapPath: spec.selectors
                spokePaths: [spec.appSelector, spec.tierSelector]
                keyNames: {spec.appSelector: app, spec.tierSelector: tier}
            """)
        .objects(
            "spec: {selectors: {app: web, tier: frontend}}\n",
            "spec: {appSelector: web, tierSelector: frontend}\n")
        .build();
  }
}
