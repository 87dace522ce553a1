package dev.versio.engine.rule.catalog;

import static dev.versio.engine.rule.catalog.ParamSpec.optional;
import static dev.versio.engine.rule.catalog.ParamSpec.required;
import static dev.versio.engine.rule.catalog.ParamType.BOOLEAN;
import static dev.versio.engine.rule.catalog.ParamType.JSON_PATCH;
import static dev.versio.engine.rule.catalog.ParamType.PATHS;
import static dev.versio.engine.rule.catalog.ParamType.STRING;
import static dev.versio.engine.rule.catalog.SpecBuilder.spec;

import dev.versio.engine.rule.Strategy;

/** The escape hatches: an RFC 6902 patch, or a CEL expression, over the whole object. */
final class ScriptStrategies {
  private ScriptStrategies() {}

  static StrategySpec jsonPatch() {
    return spec(
            Strategy.JSON_PATCH,
            "Applies an RFC 6902 JSON Patch per direction, for changes no other strategy"
                + " describes.")
        .param(
            required(
                "hubToSpoke",
                JSON_PATCH,
                "The operations applied to the hub object; JSON Pointer paths from the object's"
                    + " root (`/spec/ttl`)."))
        .param(required("spokeToHub", JSON_PATCH, "The operations applied to the spoke object."))
        .param(
            optional(
                "losslessOverride",
                BOOLEAN,
                "false",
                "Declares both directions lossless: the engine cannot tell what a patch does."))
        .hubToSpoke(
            "Patches the whole hub object, then copies every `path` the patch names into the"
                + " spoke object (or removes it there when the patch removed it).",
            "Exactly when `losslessOverride: true`.")
        .spokeToHub("The same with `spokeToHub`.", "Exactly when `losslessOverride: true`.")
        .note(
            "Every `path` and `from` of both directions is claimed on each side that declares"
                + " it. A path through an array element, or one neither version declares, is"
                + " rejected at compile time; compiling always warns `UNVERIFIABLE_INVERSE`."
                + " Operations run one after another and, as with every strategy, one whose"
                + " source is absent writes nothing: a `move` or `copy` from a missing field and a"
                + " `remove` or `replace` of one are skipped, and an `add`, `move` or `copy`"
                + " creates the objects missing above its `path` (not an array: an `add` into a"
                + " missing array fails), so objects lacking fields (as server-side apply sends"
                + " them) convert. A `test` of a missing field, a failed `test` and any other"
                + " failing operation fail the conversion. A `path` into an array under an opaque"
                + " field is copied back as the whole array.")
        .schemas("ttl: {type: integer}\n", "ttlSeconds: {type: integer}\n")
        .rule(
            """
            - strategy: JSONPatch
              jsonPatch:
                hubToSpoke: [{op: move, from: /spec/ttl, path: /spec/ttlSeconds}]
                spokeToHub: [{op: move, from: /spec/ttlSeconds, path: /spec/ttl}]
                losslessOverride: true
            """)
        .objects("spec: {ttl: 30}\n", "spec: {ttlSeconds: 30}\n")
        .build();
  }

  static StrategySpec cel() {
    return spec(
            Strategy.CEL,
            "Computes fields with a CEL expression per direction, for arithmetic and logic no"
                + " other strategy describes.")
        .param(required("hubPaths", PATHS, "The hub fields the rule reads and writes."))
        .param(required("spokePaths", PATHS, "The spoke fields the rule reads and writes."))
        .param(
            required(
                "hubToSpoke",
                STRING,
                "An expression over `object` (the hub object) that returns a map from spoke"
                    + " paths to values, nested (`{\"spec\": {\"red\": 1}}`) or flat"
                    + " (`{\"spec.red\": 1}`)."))
        .param(
            required(
                "spokeToHub",
                STRING,
                "An expression over `object` (the spoke object) that returns a map from hub paths"
                    + " to values."))
        .hubToSpoke(
            "Evaluates `hubToSpoke` and writes each of `spokePaths` that the result holds.",
            "Never: the engine cannot prove an expression reversible, so the rule must set"
                + " `acknowledgeLossy: true`.")
        .spokeToHub(
            "Evaluates `spokeToHub` and writes each of `hubPaths` that the result holds.", "Never.")
        .note(
            "Expressions are type-checked at compile time, and every `object.a.b` (or"
                + " `object.?a.?b`) they read must exist in the source schema. Integers arrive as"
                + " CEL `int`, decimals as `double`. Besides the standard library, expressions"
                + " have what Kubernetes' own CEL offers: optional values (`object.?spec.?size"
                + ".orValue(1)`), `cel.bind`, and the strings, lists, sets, math, regex and base64"
                + " extensions; `null` type-checks beside any value, and a destination given"
                + " `null` is left out (written as null only where its schema says `nullable`)."
                + " JSON text is `JSONString`'s job: cel-java has no JSON functions. An"
                + " evaluation may visit at most 1,000,000 expression nodes and"
                + " 10,000 loop iterations in all, and the lists, maps and strings it builds may"
                + " hold 2,000,000 elements and characters together (its result as JSON too); an"
                + " error fails the conversion, so guard optional fields with `has()` or `?.`."
                + " One exception, as every strategy writes nothing for an absent source: an"
                + " expression that fails reading an absent field while none of the paths it"
                + " converts from (`hubPaths` towards the spoke, `spokePaths` back) is present"
                + " writes nothing, so objects lacking fields (as server-side apply sends them)"
                + " convert. An expression that fails on every value it is tried on is an error"
                + " (`RULE_ALWAYS_FAILS`).")
        .schemas("rgb: {type: integer}\n", "red: {type: integer}\ngreen: {type: integer}\n")
        .rule(
            """
            - strategy: CEL
              cel:
                hubPaths: [spec.rgb]
                spokePaths: [spec.red, spec.green]
                hubToSpoke: '{"spec.red": object.spec.rgb / 256, "spec.green": object.spec.rgb % 256}'
                spokeToHub: '{"spec.rgb": object.spec.red * 256 + object.spec.green}'
              acknowledgeLossy: true
              reason: v1 stored two channels; the arithmetic is checked by samples
            """)
        .objects("spec: {rgb: 1000}\n", "spec: {red: 3, green: 232}\n")
        .lossless(false, false)
        .build();
  }
}
