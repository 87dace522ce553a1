package dev.versio.engine.rule.catalog;

import static dev.versio.engine.rule.catalog.ParamSpec.choice;
import static dev.versio.engine.rule.catalog.ParamSpec.optional;
import static dev.versio.engine.rule.catalog.ParamSpec.required;
import static dev.versio.engine.rule.catalog.ParamType.ENUM_MAPPING;
import static dev.versio.engine.rule.catalog.ParamType.JSON;
import static dev.versio.engine.rule.catalog.ParamType.PATH;
import static dev.versio.engine.rule.catalog.SpecBuilder.spec;

import dev.versio.engine.rule.Rule.ExistsOn;
import dev.versio.engine.rule.Rule.OnUnknown;
import dev.versio.engine.rule.Strategy;

/** Strategies about values: enum remapping, and fields that exist on one side only. */
final class ValueStrategies {
  private ValueStrategies() {}

  private static final String EXISTS_ON = "The side that declares the field: `Hub` or `Spoke`.";

  static StrategySpec enumRemap() {
    return spec(Strategy.ENUM_REMAP, "Maps the values of an enum field between the two versions.")
        .param(
            optional(
                "path",
                PATH,
                "hubPath and spokePath",
                "The field, at the same path on both sides (or give `hubPath` and `spokePath`)."))
        .param(
            optional(
                "hubPath",
                PATH,
                "path",
                "The field on the hub, when it also moved (with `spokePath`, instead of `path`)."))
        .param(
            optional(
                "spokePath",
                PATH,
                "path",
                "The field on the spoke, when it also moved (with `hubPath`, instead of `path`)."))
        .param(
            required(
                "mapping",
                ENUM_MAPPING,
                "Pairs of `{hub: <value>, spoke: <value>}`; values are scalars and compare by"
                    + " type (`\"2\"` is not `2`). When several hub values share a spoke value,"
                    + " spoke→hub writes the one whose pair says `preferred: true`, else the one"
                    + " equal to the spoke value; with neither, the rule is an error."))
        .param(
            choice(
                "onUnmappedHubValue",
                OnUnknown.class,
                OnUnknown.ERROR,
                "What hub→spoke does with a value the mapping does not list: fail the"
                    + " conversion, or drop the field."))
        .param(
            choice(
                "onUnmappedSpokeValue",
                OnUnknown.class,
                OnUnknown.ERROR,
                "What spoke→hub does with a value the mapping does not list: fail the"
                    + " conversion, or drop the field."))
        .hubToSpoke(
            "Replaces the hub value by its spoke value.",
            "Only with `onUnmappedHubValue: Error` and a one-to-one mapping (two hub values that"
                + " share a spoke value cannot be told apart once converted; a warning says so).")
        .spokeToHub(
            "Replaces the spoke value by its hub value (for a shared spoke value, the preferred"
                + " or identical hub value).",
            "Only with `onUnmappedSpokeValue: Error`.")
        .note(
            "With `Error`, the mapping is checked against both schemas' `enum` lists at compile"
                + " time: an unmapped value, or a mapped value the other side does not allow, is"
                + " an error.")
        .note(
            "A field that moved and changed its values at once (`spec.keyAlgorithm: rsa` →"
                + " `spec.privateKey.algorithm: RSA`) is one rule with `hubPath` and `spokePath`"
                + " instead of `path`.")
        .schemas(
            "tier: {type: string, enum: [Premium, Basic]}\n",
            "tier: {type: string, enum: [P, B]}\n")
        .rule(
            """
            - strategy: EnumRemap
              enumRemap:
                path: spec.tier
                mapping:
                - {hub: Premium, spoke: P}
                - {hub: Basic, spoke: B}
            """)
        .objects("spec: {tier: Premium}\n", "spec: {tier: P}\n")
        .build();
  }

  static StrategySpec defaultValue() {
    return spec(
            Strategy.DEFAULT_VALUE,
            "Gives a field that exists on one side only a value when converting towards that"
                + " side.")
        .param(required("path", PATH, "The field, on the side that declares it."))
        .param(choice("existsOn", ExistsOn.class, null, EXISTS_ON))
        .param(
            required(
                "default",
                JSON,
                "The value written towards the declaring side; it must fit the field's schema."))
        .hubToSpoke(
            "`existsOn: Spoke`: writes `default` at `path`. `existsOn: Hub`: the field is"
                + " dropped.",
            "Only with `existsOn: Spoke`.")
        .spokeToHub(
            "`existsOn: Hub`: writes `default` at `path`. `existsOn: Spoke`: the field is"
                + " dropped.",
            "Only with `existsOn: Hub`.")
        .note(
            "One direction always drops the field, so the rule always needs `acknowledgeLossy:"
                + " true`. The value is written whether or not the object had one (the other"
                + " side has no field to take it from).")
        .schemas(
            "replicas: {type: integer}\n",
            "replicas: {type: integer}\nmaxConnections: {type: integer}\n")
        .rule(
            """
            - strategy: DefaultValue
              defaultValue:
                path: spec.maxConnections
                existsOn: Spoke
                default: 100
              acknowledgeLossy: true
              reason: v2 sizes connections itself; a v1 setting is dropped
            """)
        .objects("spec: {replicas: 3}\n", "spec: {replicas: 3, maxConnections: 100}\n")
        .lossless(true, false)
        .build();
  }

  static StrategySpec constant() {
    return spec(
            Strategy.CONSTANT,
            "Writes a fixed value into a field that exists on one side only, when converting"
                + " towards that side.")
        .param(required("path", PATH, "The field, on the side that declares it."))
        .param(choice("existsOn", ExistsOn.class, null, EXISTS_ON))
        .param(
            required(
                "value",
                JSON,
                "The value written towards the declaring side; it must fit the field's schema."))
        .hubToSpoke(
            "`existsOn: Spoke`: writes `value` at `path`. `existsOn: Hub`: the field is dropped.",
            "Only with `existsOn: Spoke`.")
        .spokeToHub(
            "`existsOn: Hub`: writes `value` at `path`. `existsOn: Spoke`: the field is dropped.",
            "Only with `existsOn: Hub`.")
        .note(
            "It behaves exactly like `DefaultValue`; the name says that the value is fixed rather"
                + " than a default. It always needs `acknowledgeLossy: true`.")
        .schemas(
            "replicas: {type: integer}\napiLevel: {type: string}\n", "replicas: {type: integer}\n")
        .rule(
            """
            - strategy: Constant
              constant:
                path: spec.apiLevel
                existsOn: Hub
                value: "1"
              acknowledgeLossy: true
              reason: every v1 object speaks API level 1
            """)
        .objects("spec: {replicas: 3, apiLevel: '1'}\n", "spec: {replicas: 3}\n")
        .lossless(false, true)
        .build();
  }

  static StrategySpec delete() {
    return spec(Strategy.DELETE, "Drops a field that exists on one side only, on purpose.")
        .param(required("path", PATH, "The field, on the side that declares it."))
        .param(choice("existsOn", ExistsOn.class, null, EXISTS_ON))
        .hubToSpoke(
            "`existsOn: Hub`: the field is dropped. `existsOn: Spoke`: nothing to do.",
            "Only with `existsOn: Spoke`.")
        .spokeToHub(
            "`existsOn: Spoke`: the field is dropped. `existsOn: Hub`: nothing to do.",
            "Only with `existsOn: Hub`.")
        .note(
            "It always needs `acknowledgeLossy: true`. Deleting a field the declaring side lists"
                + " as `required` is a warning: converted objects would fail validation unless"
                + " the schema also declares a default (use `DefaultValue` instead).")
        .schemas(
            "replicas: {type: integer}\nexperimental: {type: boolean}\n",
            "replicas: {type: integer}\n")
        .rule(
            """
            - strategy: Delete
              delete:
                path: spec.experimental
                existsOn: Hub
              acknowledgeLossy: true
              reason: v1 clients never set experimental features
            """)
        .objects("spec: {replicas: 3, experimental: true}\n", "spec: {replicas: 3}\n")
        .back("spec: {replicas: 3}\n")
        .lossless(false, true)
        .build();
  }
}
