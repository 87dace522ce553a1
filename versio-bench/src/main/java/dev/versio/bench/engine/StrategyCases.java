package dev.versio.bench.engine;

import java.util.Map;

/**
 * One small case per strategy (29, and a rename under {@code when}): the per-strategy benchmark
 * converts each, the fleet generator composes several into one target.
 */
public final class StrategyCases {
  private StrategyCases() {}

  /**
   * One strategy's smallest target: the hub's and the spoke's {@code spec} properties (YAML maps),
   * the spoke's rules (a YAML list, paths under {@code spec.}, annotation and label key {@code
   * bench/a}), and a hub {@code spec} (a YAML map; the strategies that read an annotation or a
   * label read {@code bench/a} of the object's metadata).
   */
  public record Case(String hub, String spoke, String rules, String spec) {
    public Case {
      java.util.Objects.requireNonNull(hub, "hub");
      java.util.Objects.requireNonNull(spoke, "spoke");
      java.util.Objects.requireNonNull(rules, "rules");
      java.util.Objects.requireNonNull(spec, "spec");
    }
  }

  /** By name: the 30 strategies, and {@code FieldRename+when}. */
  public static final Map<String, Case> CASES =
      Map.ofEntries(
          Map.entry(
              "TypeCoerce",
              new Case(
                  "{p: {type: integer}}",
                  "{p: {type: string}}",
                  "[{strategy: TypeCoerce, typeCoerce: {path: spec.p}, acknowledgeLossy: true}]",
                  "{p: 8080}")),
          Map.entry(
              "ScalarToFields",
              new Case(
                  "{i: {type: string}}",
                  "{r: {type: string}, t: {type: string}}",
                  "[{strategy: ScalarToFields, scalarToFields: {hubPath: spec.i, pattern: '^(?P<r>[^:]+):(?P<t>.+)$', spokeFields: {r: spec.r, t: spec.t}, joinTemplate: '{{.r}}:{{.t}}', losslessOverride: true}}]",
                  "{i: 'nginx:1.27'}")),
          Map.entry(
              "FieldsToScalar",
              new Case(
                  "{h: {type: string}, p: {type: integer}}",
                  "{a: {type: string}}",
                  "[{strategy: FieldsToScalar, fieldsToScalar: {hubFields: {h: spec.h, p: spec.p}, pattern: '^(?P<h>[^:]+):(?P<p>[0-9]+)$', spokePath: spec.a, joinTemplate: '{{.h}}:{{.p}}', losslessOverride: true}}]",
                  "{h: db, p: 5432}")),
          Map.entry(
              "ArrayToMapByKey",
              new Case(
                  "{r: {type: array, items: {type: object, properties: {name: {type: string}, port: {type: integer}}}}}",
                  "{m: {type: object, additionalProperties: {type: object, properties: {port: {type: integer}}}}}",
                  "[{strategy: ArrayToMapByKey, arrayToMapByKey: {hubPath: spec.r, spokePath: spec.m, keyField: name}, acknowledgeLossy: true}]",
                  "{r: [{name: a, port: 1}, {name: b, port: 2}]}")),
          Map.entry(
              "MapToArrayByKey",
              new Case(
                  "{m: {type: object, additionalProperties: {type: object, properties: {port: {type: integer}}}}}",
                  "{r: {type: array, items: {type: object, properties: {name: {type: string}, port: {type: integer}}}}}",
                  "[{strategy: MapToArrayByKey, mapToArrayByKey: {hubPath: spec.m, spokePath: spec.r, keyField: name}, acknowledgeLossy: true}]",
                  "{m: {a: {port: 1}, b: {port: 2}}}")),
          Map.entry(
              "NumericScale",
              new Case(
                  "{ms: {type: number}}",
                  "{s: {type: number}}",
                  "[{strategy: NumericScale, numericScale: {hubPath: spec.ms, spokePath: spec.s, factor: 1000}}]",
                  "{ms: 1500}")),
          Map.entry(
              "ListJoin",
              new Case(
                  "{l: {type: array, items: {type: integer}}}",
                  "{s: {type: string}}",
                  "[{strategy: ListJoin, listJoin: {hubPath: spec.l, spokePath: spec.s, separator: ','}, acknowledgeLossy: true}]",
                  "{l: [80, 443]}")),
          Map.entry(
              "ListSplit",
              new Case(
                  "{s: {type: string}}",
                  "{l: {type: array, items: {type: string}}}",
                  "[{strategy: ListSplit, listSplit: {hubPath: spec.s, spokePath: spec.l, separator: ' '}, acknowledgeLossy: true}]",
                  "{s: 'read write'}")),
          Map.entry(
              "Quantity",
              new Case(
                  "{q: {type: string}}",
                  "{m: {type: integer}}",
                  "[{strategy: Quantity, quantity: {hubPath: spec.q, spokePath: spec.m}, acknowledgeLossy: true}]",
                  "{q: 1500m}")),
          Map.entry(
              "Duration",
              new Case(
                  "{d: {type: string}}",
                  "{s: {type: integer}}",
                  "[{strategy: Duration, duration: {hubPath: spec.d, spokePath: spec.s}, acknowledgeLossy: true}]",
                  "{d: 1h30m}")),
          Map.entry(
              "JSONString",
              new Case(
                  "{v: {type: object, properties: {mode: {type: string}, n: {type: integer}}}}",
                  "{t: {type: string}}",
                  "[{strategy: JSONString, jsonString: {hubPath: spec.v, spokePath: spec.t}, acknowledgeLossy: true}]",
                  "{v: {mode: fast, n: 3}}")),
          Map.entry(
              "MapKeyRename",
              new Case(
                  "{m: {type: object, additionalProperties: {type: string}}}",
                  "{m: {type: object, additionalProperties: {type: string}}}",
                  "[{strategy: MapKeyRename, mapKeyRename: {hubPath: spec.m, spokePath: spec.m, renames: {component: role}}}]",
                  "{m: {component: db, app: x}}")),
          Map.entry(
              "JSONPatch",
              new Case(
                  "{ttl: {type: integer}}",
                  "{ttlSeconds: {type: integer}}",
                  "[{strategy: JSONPatch, jsonPatch: {hubToSpoke: [{op: move, from: /spec/ttl, path: /spec/ttlSeconds}], spokeToHub: [{op: move, from: /spec/ttlSeconds, path: /spec/ttl}], losslessOverride: true}}]",
                  "{ttl: 30}")),
          Map.entry(
              "CEL",
              new Case(
                  "{rgb: {type: integer}}",
                  "{red: {type: integer}, green: {type: integer}}",
                  "[{strategy: CEL, cel: {hubPaths: [spec.rgb], spokePaths: [spec.red, spec.green], hubToSpoke: '{\"spec.red\": object.spec.rgb / 256, \"spec.green\": object.spec.rgb % 256}', spokeToHub: '{\"spec.rgb\": object.spec.red * 256 + object.spec.green}'}, acknowledgeLossy: true}]",
                  "{rgb: 2561}")),
          Map.entry(
              "FieldRename",
              new Case(
                  "{a: {type: string}}",
                  "{b: {type: string}}",
                  "[{strategy: FieldRename, fieldRename: {hubPath: spec.a, spokePath: spec.b}}]",
                  "{a: x}")),
          Map.entry(
              "ScalarToObject",
              new Case(
                  "{a: {type: string}}",
                  "{b: {type: object, properties: {v: {type: string}}}}",
                  "[{strategy: ScalarToObject, scalarToObject: {hubPath: spec.a, spokePath: spec.b, key: v}}]",
                  "{a: x}")),
          Map.entry(
              "ObjectToScalar",
              new Case(
                  "{a: {type: object, properties: {v: {type: string}}}}",
                  "{b: {type: string}}",
                  "[{strategy: ObjectToScalar, objectToScalar: {hubPath: spec.a, spokePath: spec.b, key: v}}]",
                  "{a: {v: x}}")),
          Map.entry(
              "SingletonArrayToObject",
              new Case(
                  "{a: {type: array, maxItems: 1, items: {type: object, properties: {v: {type: string}}}}}",
                  "{b: {type: object, properties: {v: {type: string}}}}",
                  "[{strategy: SingletonArrayToObject, singletonArrayToObject: {hubPath: spec.a, spokePath: spec.b}}]",
                  "{a: [{v: x}]}")),
          Map.entry(
              "ObjectToSingletonArray",
              new Case(
                  "{a: {type: object, properties: {v: {type: string}}}}",
                  "{b: {type: array, maxItems: 1, items: {type: object, properties: {v: {type: string}}}}}",
                  "[{strategy: ObjectToSingletonArray, objectToSingletonArray: {hubPath: spec.a, spokePath: spec.b}}]",
                  "{a: {v: x}}")),
          Map.entry(
              "FieldsToMap",
              new Case(
                  "{a: {type: string}, b: {type: string}}",
                  "{m: {type: object, additionalProperties: {type: string}}}",
                  "[{strategy: FieldsToMap, fieldsToMap: {hubPaths: [spec.a, spec.b], spokeMapPath: spec.m}}]",
                  "{a: x, b: y}")),
          Map.entry(
              "MapToFields",
              new Case(
                  "{m: {type: object, additionalProperties: {type: string}}}",
                  "{a: {type: string}, b: {type: string}}",
                  "[{strategy: MapToFields, mapToFields: {hubMapPath: spec.m, spokePaths: [spec.a, spec.b]}}]",
                  "{m: {a: x, b: y}}")),
          Map.entry(
              "ToAnnotation",
              new Case(
                  "{a: {type: string}}",
                  "{}",
                  "[{strategy: ToAnnotation, toAnnotation: {hubPath: spec.a, key: bench/a, restoreOnReverse: true}}]",
                  "{a: x}")),
          Map.entry(
              "ToLabel",
              new Case(
                  "{a: {type: string}}",
                  "{}",
                  "[{strategy: ToLabel, toLabel: {hubPath: spec.a, key: bench/a, serialization: String, restoreOnReverse: true}}]",
                  "{a: x}")),
          Map.entry(
              "FromAnnotation",
              new Case(
                  "{}",
                  "{a: {type: string}}",
                  "[{strategy: FromAnnotation, fromAnnotation: {spokePath: spec.a, key: bench/a, stashOnReverse: true}}]",
                  "{}")),
          Map.entry(
              "FromLabel",
              new Case(
                  "{}",
                  "{a: {type: string}}",
                  "[{strategy: FromLabel, fromLabel: {spokePath: spec.a, key: bench/a, stashOnReverse: true}}]",
                  "{}")),
          Map.entry(
              "EnumRemap",
              new Case(
                  "{t: {type: string, enum: [A, B]}}",
                  "{t: {type: string, enum: [a, b]}}",
                  "[{strategy: EnumRemap, enumRemap: {path: spec.t, mapping: [{hub: A, spoke: a}, {hub: B, spoke: b}]}}]",
                  "{t: A}")),
          Map.entry(
              "DefaultValue",
              new Case(
                  "{}",
                  "{d: {type: integer}}",
                  "[{strategy: DefaultValue, defaultValue: {path: spec.d, existsOn: Spoke, default: 1}, acknowledgeLossy: true}]",
                  "{}")),
          Map.entry(
              "Constant",
              new Case(
                  "{}",
                  "{d: {type: integer}}",
                  "[{strategy: Constant, constant: {path: spec.d, existsOn: Spoke, value: 1}, acknowledgeLossy: true}]",
                  "{}")),
          Map.entry(
              "Delete",
              new Case(
                  "{d: {type: integer}}",
                  "{}",
                  "[{strategy: Delete, delete: {path: spec.d, existsOn: Hub}, acknowledgeLossy: true}]",
                  "{d: 1}")),
          Map.entry(
              "ForEach",
              new Case(
                  "{l: {type: array, items: {type: object, properties: {a: {type: string}}}}}",
                  "{l: {type: array, items: {type: object, properties: {b: {type: string}}}}}",
                  "[{strategy: ForEach, forEach: {hubItemsPath: spec.l, spokeItemsPath: spec.l, rules: [{strategy: FieldRename, fieldRename: {hubPath: a, spokePath: b}}]}}]",
                  "{l: [{a: x}, {a: y}]}")),
          Map.entry(
              "FieldRename+when",
              new Case(
                  "{p: {type: string}, a: {type: string}}",
                  "{p: {type: string}, b: {type: string}}",
                  "[{strategy: FieldRename, fieldRename: {hubPath: spec.a, spokePath: spec.b}, when: {path: spec.p, equals: 'on'}, acknowledgeLossy: true}]",
                  "{p: 'on', a: x}")));
}
