package dev.versio.engine.rule.catalog;

import static dev.versio.engine.rule.catalog.ParamSpec.required;
import static dev.versio.engine.rule.catalog.ParamType.PATH;
import static dev.versio.engine.rule.catalog.ParamType.RULES;
import static dev.versio.engine.rule.catalog.ParamType.STRING;
import static dev.versio.engine.rule.catalog.ParamType.STRING_MAP;
import static dev.versio.engine.rule.catalog.SpecBuilder.hubPath;
import static dev.versio.engine.rule.catalog.SpecBuilder.spec;
import static dev.versio.engine.rule.catalog.SpecBuilder.spokePath;

import dev.versio.engine.rule.RuleParser;
import dev.versio.engine.rule.Strategy;

/** Strategies over collections: joined lists, keyed arrays, map keys and array elements. */
final class CollectionStrategies {
  private CollectionStrategies() {}

  private static final String SEPARATOR =
      "The text between elements; not empty (a list joined with nothing cannot be split).";
  private static final String JOIN_KEEPS =
      "When no element can hold the separator or be empty: numbers and booleans with a"
          + " punctuation separator, or strings whose `enum`, `pattern` or `maxLength` rules it"
          + " out (e.g. `pattern: '^[a-z0-9-]+$'` with `,`).";
  private static final String SPLIT_KEEPS =
      "For string elements; numbers and booleans lose their spelling (`080` comes back as"
          + " `80`).";
  private static final String KEY_FIELD =
      "The element field whose value keys the map: a string, present and unique in every"
          + " element.";
  private static final String KEYED_NOTE =
      "The map's value schema must equal the element schema without the key field. Arrays are"
          + " rebuilt in byte-wise key order, and a key field inside a map value wins over the"
          + " map key.";

  static StrategySpec listJoin() {
    return spec(
            Strategy.LIST_JOIN,
            "Joins a hub array of scalars into one spoke string, and splits it back.")
        .param(hubPath("The array of strings, numbers or booleans on the hub."))
        .param(spokePath("The string on the spoke."))
        .param(required("separator", STRING, SEPARATOR))
        .hubToSpoke("Writes the elements as text, joined with the separator.", JOIN_KEEPS)
        .spokeToHub(
            "Splits the string on the separator and converts each part to the element type;"
                + " `\"\"` gives `[]`.",
            SPLIT_KEEPS)
        .schemas("ports: {type: array, items: {type: integer}}\n", "portsCSV: {type: string}\n")
        .rule(
            """
            - strategy: ListJoin
              listJoin:
                hubPath: spec.ports
                spokePath: spec.portsCSV
                separator: ","
              acknowledgeLossy: true
              reason: a v1 port written as 080 comes back as 80
            """)
        .objects("spec: {ports: [80, 443]}\n", "spec: {portsCSV: '80,443'}\n")
        .lossless(true, false)
        .build();
  }

  static StrategySpec listSplit() {
    return spec(
            Strategy.LIST_SPLIT,
            "Splits a hub string into a spoke array of scalars, and joins it back (the mirror of"
                + " `ListJoin`).")
        .param(hubPath("The string on the hub."))
        .param(spokePath("The array of strings, numbers or booleans on the spoke."))
        .param(required("separator", STRING, SEPARATOR))
        .hubToSpoke(
            "Splits the string on the separator and converts each part to the element type;"
                + " `\"\"` gives `[]`.",
            SPLIT_KEEPS)
        .spokeToHub("Writes the elements as text, joined with the separator.", JOIN_KEEPS)
        .schemas(
            "scopes: {type: string}\n",
            "scopes: {type: array, items: {type: string, enum: [read, write, admin]}}\n")
        .rule(
            """
            - strategy: ListSplit
              listSplit:
                hubPath: spec.scopes
                spokePath: spec.scopes
                separator: " "
            """)
        .objects("spec: {scopes: read write}\n", "spec: {scopes: [read, write]}\n")
        .build();
  }

  static StrategySpec arrayToMapByKey() {
    return spec(
            Strategy.ARRAY_TO_MAP_BY_KEY,
            "Turns a hub array of objects into a spoke map keyed by one field of each element.")
        .param(hubPath("The array of objects on the hub."))
        .param(spokePath("The map on the spoke."))
        .param(required("keyField", STRING, KEY_FIELD))
        .hubToSpoke(
            "Writes each element, without its key field, under its key.",
            "No: the order of the elements is lost.")
        .spokeToHub("Writes one element per entry, with the key field added.", "Always.")
        .note(KEYED_NOTE)
        .schemas(
            """
            routes:
              type: array
              items: {type: object, properties: {name: {type: string}, port: {type: integer}}}
            """,
            """
            routes:
              type: object
              additionalProperties: {type: object, properties: {port: {type: integer}}}
            """)
        .rule(
            """
            - strategy: ArrayToMapByKey
              arrayToMapByKey:
                hubPath: spec.routes
                spokePath: spec.routes
                keyField: name
              acknowledgeLossy: true
              reason: route order carries no meaning
            """)
        .objects(
            "spec: {routes: [{name: api, port: 8080}, {name: web, port: 80}]}\n",
            "spec: {routes: {api: {port: 8080}, web: {port: 80}}}\n")
        .lossless(false, true)
        .build();
  }

  static StrategySpec mapToArrayByKey() {
    return spec(
            Strategy.MAP_TO_ARRAY_BY_KEY,
            "Turns a hub map into a spoke array of objects that carry the key in one field (the"
                + " mirror of `ArrayToMapByKey`).")
        .param(hubPath("The map on the hub."))
        .param(spokePath("The array of objects on the spoke."))
        .param(required("keyField", STRING, KEY_FIELD))
        .hubToSpoke("Writes one element per entry, with the key field added.", "Always.")
        .spokeToHub(
            "Writes each element, without its key field, under its key.",
            "No: the order of the elements is lost.")
        .note(KEYED_NOTE)
        .schemas(
            """
            quotas:
              type: object
              additionalProperties: {type: object, properties: {limit: {type: integer}}}
            """,
            """
            quotas:
              type: array
              items: {type: object, properties: {resource: {type: string}, limit: {type: integer}}}
            """)
        .rule(
            """
            - strategy: MapToArrayByKey
              mapToArrayByKey:
                hubPath: spec.quotas
                spokePath: spec.quotas
                keyField: resource
              acknowledgeLossy: true
              reason: quota order carries no meaning
            """)
        .objects(
            "spec: {quotas: {cpu: {limit: 4}, memory: {limit: 8}}}\n",
            "spec: {quotas: [{resource: cpu, limit: 4}, {resource: memory, limit: 8}]}\n")
        .lossless(true, false)
        .build();
  }

  static StrategySpec mapKeyRename() {
    return spec(
            Strategy.MAP_KEY_RENAME,
            "Renames some keys of a free-form map; the other keys pass through.")
        .param(hubPath("The map on the hub."))
        .param(spokePath("The map on the spoke."))
        .param(
            required(
                "renames",
                STRING_MAP,
                "Hub key → spoke key; at least one, and no two hub keys renamed to the same"
                    + " spoke key."))
        .hubToSpoke("Writes the map with every listed key renamed.", "Always.")
        .spokeToHub("Writes the map with every renamed key given its hub name back.", "Always.")
        .note(
            "Both sides must be free-form maps (objects with `additionalProperties`) whose values"
                + " have the same shape. A key that would come back under another name (a spoke"
                + " map that already holds `role` and `component`, say) fails the conversion"
                + " instead of changing.")
        .schemas(
            "podLabels: {type: object, additionalProperties: {type: string}}\n",
            "podLabels: {type: object, additionalProperties: {type: string}}\n")
        .rule(
            """
            - strategy: MapKeyRename
              mapKeyRename:
                hubPath: spec.podLabels
                spokePath: spec.podLabels
                renames: {component: role}
            """)
        .objects(
            "spec: {podLabels: {component: db, team: storage}}\n",
            "spec: {podLabels: {role: db, team: storage}}\n")
        .build();
  }

  static StrategySpec forEach() {
    return spec(
            Strategy.FOR_EACH, "Converts every element of an array of objects with its own rules.")
        .param(required("hubItemsPath", PATH, "The array on the hub."))
        .param(required("spokeItemsPath", PATH, "The array on the spoke."))
        .param(
            required(
                "rules",
                RULES,
                "The rules for one element; their paths are relative to the element. A"
                    + " `ForEach` may hold further `ForEach`es ("
                    + RuleParser.MAX_FOREACH_DEPTH
                    + " levels in all)."))
        .hubToSpoke(
            "Converts each hub element with the rules and replaces the spoke array with the"
                + " results.",
            "When every rule inside is lossless hub→spoke (and the elements are fully"
                + " covered).")
        .spokeToHub(
            "Converts each spoke element back and replaces the hub array.",
            "When every rule inside is lossless spoke→hub (and the elements are fully"
                + " covered).")
        .note(
            "Element fields identical on both sides need no rule. Every element must be an"
                + " object; when the two paths differ and the object also holds the destination"
                + " array, both arrays must have the same length. A hub-only field of the elements"
                + " is kept with `ToAnnotation` inside the `ForEach`: one annotation of the object"
                + " holds every element's value (see `ToAnnotation`). When every element loses all"
                + " it held (its only fields dropped), the list is left out instead of written as"
                + " `[{}]`.")
        .schemas(
            """
            pools:
              type: array
              items: {type: object, properties: {name: {type: string}, vmSize: {type: string}}}
            """,
            """
            pools:
              type: array
              items: {type: object, properties: {name: {type: string}, size: {type: string}}}
            """)
        .rule(
            """
            - strategy: ForEach
              forEach:
                hubItemsPath: spec.pools
                spokeItemsPath: spec.pools
                rules:
                - strategy: FieldRename
                  fieldRename: {hubPath: vmSize, spokePath: size}
            """)
        .objects(
            "spec: {pools: [{name: default, vmSize: large}]}\n",
            "spec: {pools: [{name: default, size: large}]}\n")
        .build();
  }
}
