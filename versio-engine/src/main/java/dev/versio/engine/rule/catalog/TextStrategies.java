package dev.versio.engine.rule.catalog;

import static dev.versio.engine.rule.catalog.ParamSpec.optional;
import static dev.versio.engine.rule.catalog.ParamSpec.required;
import static dev.versio.engine.rule.catalog.ParamType.BOOLEAN;
import static dev.versio.engine.rule.catalog.ParamType.PATH_MAP;
import static dev.versio.engine.rule.catalog.ParamType.STRING;
import static dev.versio.engine.rule.catalog.SpecBuilder.hubPath;
import static dev.versio.engine.rule.catalog.SpecBuilder.spec;
import static dev.versio.engine.rule.catalog.SpecBuilder.spokePath;

import dev.versio.engine.rule.Strategy;

/** Strategies that split a string into fields with a pattern and join them with a template. */
final class TextStrategies {
  private TextStrategies() {}

  private static final String PATTERN =
      "An RE2 regular expression whose named groups `(?P<name>…)` capture the fields; every"
          + " field must be a group.";
  private static final String TEMPLATE =
      "Literal text and `{{.name}}` placeholders that rebuild the string; every field must"
          + " appear.";
  private static final String OVERRIDE =
      "Declares both directions lossless: the engine cannot prove that the pattern and the"
          + " template are inverses.";
  private static final String LOSSLESS = "Exactly when `losslessOverride: true`.";
  private static final String NOTE =
      "Compiling it always warns `UNVERIFIABLE_INVERSE`: check the round trip with samples in"
          + " `versio test`. RE2 runs in linear time, so no pattern can stall the webhook.";

  static StrategySpec scalarToFields() {
    return spec(
            Strategy.SCALAR_TO_FIELDS,
            "Splits a hub string into several spoke fields, and joins them back.")
        .param(hubPath("The string on the hub."))
        .param(required("pattern", STRING, PATTERN))
        .param(
            required(
                "spokeFields", PATH_MAP, "The spoke field of each group, keyed by group name."))
        .param(required("joinTemplate", STRING, TEMPLATE))
        .param(optional("losslessOverride", BOOLEAN, "false", OVERRIDE))
        .hubToSpoke(
            "Matches the pattern (the first match; anchor it with `^…$`) and writes each group"
                + " to its field, converted to the field's type; no match fails the conversion.",
            LOSSLESS)
        .spokeToHub(
            "Fills the template with the fields that are present; a placeholder whose field is"
                + " absent fails the conversion.",
            LOSSLESS)
        .note(NOTE)
        .schemas("image: {type: string}\n", "imageRepo: {type: string}\nimageTag: {type: string}\n")
        .rule(
            """
            - strategy: ScalarToFields
              scalarToFields:
                hubPath: spec.image
                pattern: '^(?P<repo>[^:]+):(?P<tag>.+)$'
                spokeFields: {repo: spec.imageRepo, tag: spec.imageTag}
                joinTemplate: '{{.repo}}:{{.tag}}'
                losslessOverride: true
            """)
        .objects("spec: {image: 'nginx:1.27'}\n", "spec: {imageRepo: nginx, imageTag: '1.27'}\n")
        .build();
  }

  static StrategySpec fieldsToScalar() {
    return spec(
            Strategy.FIELDS_TO_SCALAR,
            "Joins several hub fields into one spoke string, and splits it back (the mirror of"
                + " `ScalarToFields`).")
        .param(required("hubFields", PATH_MAP, "The hub field of each group, keyed by group name."))
        .param(required("pattern", STRING, PATTERN))
        .param(spokePath("The string on the spoke."))
        .param(required("joinTemplate", STRING, TEMPLATE))
        .param(optional("losslessOverride", BOOLEAN, "false", OVERRIDE))
        .hubToSpoke(
            "Fills the template with the fields that are present; a placeholder whose field is"
                + " absent fails the conversion.",
            LOSSLESS)
        .spokeToHub(
            "Matches the pattern (the first match; anchor it with `^…$`) and writes each group"
                + " to its field, converted to the field's type; no match fails the conversion.",
            LOSSLESS)
        .note(NOTE)
        .schemas("dbHost: {type: string}\ndbPort: {type: integer}\n", "dbAddress: {type: string}\n")
        .rule(
            """
            - strategy: FieldsToScalar
              fieldsToScalar:
                hubFields: {host: spec.dbHost, port: spec.dbPort}
                pattern: '^(?P<host>[^:]+):(?P<port>\\d+)$'
                spokePath: spec.dbAddress
                joinTemplate: '{{.host}}:{{.port}}'
                losslessOverride: true
            """)
        .objects("spec: {dbHost: db.local, dbPort: 5432}\n", "spec: {dbAddress: 'db.local:5432'}\n")
        .build();
  }

  static StrategySpec jsonString() {
    return spec(
            Strategy.JSON_STRING,
            "Writes a value as JSON text in a string field, and reads it back (an object, a list"
                + " or a number serialised into a string).")
        .param(hubPath("The value, or the string holding it as JSON, on the hub."))
        .param(spokePath("The other one on the spoke."))
        .hubToSpoke(
            "A value hub: writes it as JSON text, keys sorted and without spaces. A string hub:"
                + " reads the JSON text and writes the value it holds.",
            "From the value: always. From the text: no (`{ \"b\": 1, \"a\": 2 }` comes back"
                + " as `{\"a\":2,\"b\":1}`).")
        .spokeToHub("The same conversion, the other way.", "Mirrored: from the value only.")
        .note(
            "One side must be a string and the other not. Text that is not JSON, or JSON of"
                + " another type than the value field (a list where an object is declared), fails"
                + " the conversion with the field named, so a client writing bad text is refused"
                + " rather than losing it; the text `null` and a JSON null value write nothing."
                + " The value side may be opaque (`x-kubernetes-preserve-unknown-fields`).")
        .schemas(
            """
            settings:
              type: object
              properties:
                mode: {type: string}
                replicas: {type: integer}
            """,
            "settingsJSON: {type: string}\n")
        .rule(
            """
            - strategy: JSONString
              jsonString:
                hubPath: spec.settings
                spokePath: spec.settingsJSON
              acknowledgeLossy: true
              reason: v1 text with other spacing or key order comes back written one way
            """)
        .objects(
            "spec: {settings: {mode: fast, replicas: 3}}\n",
            "spec: {settingsJSON: '{\"mode\":\"fast\",\"replicas\":3}'}\n")
        .lossless(true, false)
        .build();
  }
}
