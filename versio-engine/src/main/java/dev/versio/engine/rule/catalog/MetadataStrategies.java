package dev.versio.engine.rule.catalog;

import static dev.versio.engine.rule.catalog.ParamSpec.choice;
import static dev.versio.engine.rule.catalog.ParamSpec.optional;
import static dev.versio.engine.rule.catalog.ParamSpec.required;
import static dev.versio.engine.rule.catalog.ParamType.BOOLEAN;
import static dev.versio.engine.rule.catalog.ParamType.STRING;
import static dev.versio.engine.rule.catalog.SpecBuilder.hubPath;
import static dev.versio.engine.rule.catalog.SpecBuilder.spec;
import static dev.versio.engine.rule.catalog.SpecBuilder.spokePath;

import dev.versio.engine.rule.Rule.Serialization;
import dev.versio.engine.rule.Strategy;

/**
 * Strategies that keep a field of one side in an annotation or label of the other. Without {@code
 * restoreOnReverse} ({@code stashOnReverse}) neither round trip keeps the value, so both directions
 * are lossy.
 */
final class MetadataStrategies {
  private MetadataStrategies() {}

  private static final String SERIALIZATION =
      "How the value is written into the %s: `JSON` (sorted keys, exact numbers) or `String`"
          + " (the text itself; the field must hold a string).";

  static final String ELEMENTS_NOTE =
      "Inside a `ForEach` (an array element has no metadata, and the apiserver would prune one"
          + " written there) every element's value is kept in one annotation of the object: a JSON"
          + " map from element to value (`{\"a\":\"eu-1a\"}`), nested one level per `ForEach`."
          + " Elements are named by their `x-kubernetes-list-map-keys` when both versions declare"
          + " the same ones, else by position (with a warning: a client that reorders or removes"
          + " elements at one version would get another element's values back). Labels cannot"
          + " hold such a map, so `ToLabel`/`FromLabel` are refused there.";

  static StrategySpec toAnnotation() {
    return spec(
            Strategy.TO_ANNOTATION, "Keeps a hub-only field in an annotation of the spoke object.")
        .param(hubPath("The hub field the spoke has no place for."))
        .param(required("key", STRING, "The annotation key, e.g. `example.com/notes`."))
        .param(
            choice(
                "serialization",
                Serialization.class,
                Serialization.JSON,
                SERIALIZATION.formatted("annotation")))
        .param(
            optional(
                "restoreOnReverse",
                BOOLEAN,
                "false",
                "Whether spoke→hub reads the annotation back into `hubPath`."))
        .hubToSpoke(
            "Writes the hub value into `metadata.annotations[key]`.",
            "Only with `restoreOnReverse: true` (without it the field never comes back).")
        .spokeToHub(
            "With `restoreOnReverse`, reads the annotation back into `hubPath`; either way the"
                + " annotation is removed.",
            "Only with `restoreOnReverse: true`.")
        .note(ELEMENTS_NOTE)
        .schemas(
            "replicas: {type: integer}\nnotes: {type: string}\n", "replicas: {type: integer}\n")
        .rule(
            """
            - strategy: ToAnnotation
              toAnnotation:
                hubPath: spec.notes
                key: example.com/notes
                restoreOnReverse: true
            """)
        .objects(
            """
            metadata: {name: db}
            spec: {replicas: 3, notes: handle with care}
            """,
            """
            metadata:
              name: db
              annotations: {example.com/notes: '"handle with care"'}
            spec: {replicas: 3}
            """)
        .build();
  }

  static StrategySpec toLabel() {
    return spec(Strategy.TO_LABEL, "Keeps a hub-only field in a label of the spoke object.")
        .param(hubPath("The hub field the spoke has no place for."))
        .param(
            required(
                "key",
                STRING,
                "The label key, a qualified name such as `example.com/env` (checked at compile"
                    + " time)."))
        .param(
            choice(
                "serialization",
                Serialization.class,
                Serialization.JSON,
                SERIALIZATION.formatted("label")))
        .param(
            optional(
                "restoreOnReverse",
                BOOLEAN,
                "false",
                "Whether spoke→hub reads the label back into `hubPath`."))
        .hubToSpoke(
            "Writes the hub value into `metadata.labels[key]`; a value that is not a valid"
                + " label value fails the conversion.",
            "Only with `restoreOnReverse: true` (without it the field never comes back).")
        .spokeToHub(
            "With `restoreOnReverse`, reads the label back into `hubPath`; either way the label"
                + " is removed.",
            "Only with `restoreOnReverse: true`.")
        .note(
            "JSON text of a string has quotes, which label values cannot hold: use"
                + " `serialization: String` for strings.")
        .schemas("replicas: {type: integer}\nenv: {type: string}\n", "replicas: {type: integer}\n")
        .rule(
            """
            - strategy: ToLabel
              toLabel:
                hubPath: spec.env
                key: example.com/env
                serialization: String
                restoreOnReverse: true
            """)
        .objects(
            """
            metadata: {name: db}
            spec: {replicas: 3, env: prod}
            """,
            """
            metadata:
              name: db
              labels: {example.com/env: prod}
            spec: {replicas: 3}
            """)
        .build();
  }

  static StrategySpec fromAnnotation() {
    return spec(
            Strategy.FROM_ANNOTATION,
            "Fills a spoke-only field from an annotation of the hub object (the mirror of"
                + " `ToAnnotation`).")
        .param(spokePath("The spoke field the hub has no place for."))
        .param(required("key", STRING, "The annotation key, e.g. `example.com/legacy-comment`."))
        .param(
            choice(
                "serialization",
                Serialization.class,
                Serialization.JSON,
                SERIALIZATION.formatted("annotation")))
        .param(
            optional(
                "stashOnReverse",
                BOOLEAN,
                "false",
                "Whether spoke→hub writes the field into the annotation."))
        .hubToSpoke(
            "Reads `metadata.annotations[key]` into `spokePath` and removes the annotation.",
            "Only with `stashOnReverse: true` (without it the annotation never comes back).")
        .spokeToHub(
            "With `stashOnReverse`, writes the spoke value into the annotation; otherwise removes"
                + " the annotation.",
            "Only with `stashOnReverse: true`.")
        .note(ELEMENTS_NOTE)
        .schemas(
            "replicas: {type: integer}\n",
            "replicas: {type: integer}\nlegacyComment: {type: string}\n")
        .rule(
            """
            - strategy: FromAnnotation
              fromAnnotation:
                spokePath: spec.legacyComment
                key: example.com/legacy-comment
                stashOnReverse: true
            """)
        .objects(
            """
            metadata:
              name: db
              annotations: {example.com/legacy-comment: '"migrated from v1"'}
            spec: {replicas: 3}
            """,
            """
            metadata: {name: db}
            spec: {replicas: 3, legacyComment: migrated from v1}
            """)
        .build();
  }

  static StrategySpec fromLabel() {
    return spec(
            Strategy.FROM_LABEL,
            "Fills a spoke-only field from a label of the hub object (the mirror of `ToLabel`).")
        .param(spokePath("The spoke field the hub has no place for."))
        .param(
            required(
                "key",
                STRING,
                "The label key, a qualified name such as `example.com/zone` (checked at compile"
                    + " time)."))
        .param(
            choice(
                "serialization",
                Serialization.class,
                Serialization.STRING,
                "How the value is written into the label; only `String` is accepted (label values"
                    + " cannot hold JSON quotes)."))
        .param(
            optional(
                "stashOnReverse",
                BOOLEAN,
                "false",
                "Whether spoke→hub writes the field into the label."))
        .hubToSpoke(
            "Reads `metadata.labels[key]` into `spokePath` and removes the label.",
            "Only with `stashOnReverse: true` (without it the label never comes back).")
        .spokeToHub(
            "With `stashOnReverse`, writes the spoke value into the label; otherwise removes the"
                + " label.",
            "Only with `stashOnReverse: true`.")
        .schemas("replicas: {type: integer}\n", "replicas: {type: integer}\nzone: {type: string}\n")
        .rule(
            """
            - strategy: FromLabel
              fromLabel:
                spokePath: spec.zone
                key: example.com/zone
                stashOnReverse: true
            """)
        .objects(
            """
            metadata:
              name: db
              labels: {example.com/zone: eu-1}
            spec: {replicas: 3}
            """,
            """
            metadata: {name: db}
            spec: {replicas: 3, zone: eu-1}
            """)
        .build();
  }
}
