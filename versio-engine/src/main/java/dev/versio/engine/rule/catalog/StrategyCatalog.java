package dev.versio.engine.rule.catalog;

import dev.versio.engine.rule.Strategy;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SequencedMap;

/**
 * The engine's declared definition of every strategy. The rule parser reads exactly the parameters
 * declared here (it refuses to read any other), and the strategy reference and the typed rule
 * schema of the CRDs are generated from it, so none of them can drift from the code.
 */
public final class StrategyCatalog {
  private static final Map<Strategy, StrategySpec> SPECS = build();

  private StrategyCatalog() {}

  /** The keys of a rule besides its params block, with what each means. */
  public static final SequencedMap<String, String> RULE_KEYS = ruleKeys();

  /** The keys of a rule's {@code when}, with what each means. */
  public static final SequencedMap<String, String> WHEN_KEYS = whenKeys();

  /** The definition of {@code strategy}. */
  public static StrategySpec of(Strategy strategy) {
    return SPECS.get(strategy);
  }

  /** Every definition, in the order of {@link Strategy}. */
  public static List<StrategySpec> all() {
    return Arrays.stream(Strategy.values()).map(SPECS::get).toList();
  }

  private static Map<Strategy, StrategySpec> build() {
    var specs = new EnumMap<Strategy, StrategySpec>(Strategy.class);
    for (var s : Strategy.values()) {
      var spec = define(s);
      if (spec.strategy() != s) {
        throw new IllegalStateException(s + " is defined as " + spec.strategy());
      }
      specs.put(s, spec);
    }
    return specs;
  }

  private static StrategySpec define(Strategy s) {
    return switch (s) {
      case FIELD_RENAME -> ShapeStrategies.fieldRename();
      case SCALAR_TO_OBJECT -> ShapeStrategies.scalarToObject();
      case OBJECT_TO_SCALAR -> ShapeStrategies.objectToScalar();
      case SINGLETON_ARRAY_TO_OBJECT -> ShapeStrategies.singletonArrayToObject();
      case OBJECT_TO_SINGLETON_ARRAY -> ShapeStrategies.objectToSingletonArray();
      case FIELDS_TO_MAP -> ShapeStrategies.fieldsToMap();
      case MAP_TO_FIELDS -> ShapeStrategies.mapToFields();
      case TO_ANNOTATION -> MetadataStrategies.toAnnotation();
      case TO_LABEL -> MetadataStrategies.toLabel();
      case FROM_ANNOTATION -> MetadataStrategies.fromAnnotation();
      case FROM_LABEL -> MetadataStrategies.fromLabel();
      case ENUM_REMAP -> ValueStrategies.enumRemap();
      case DEFAULT_VALUE -> ValueStrategies.defaultValue();
      case CONSTANT -> ValueStrategies.constant();
      case DELETE -> ValueStrategies.delete();
      case JSON_PATCH -> ScriptStrategies.jsonPatch();
      case FOR_EACH -> CollectionStrategies.forEach();
      case TYPE_COERCE -> ScalarStrategies.typeCoerce();
      case SCALAR_TO_FIELDS -> TextStrategies.scalarToFields();
      case FIELDS_TO_SCALAR -> TextStrategies.fieldsToScalar();
      case ARRAY_TO_MAP_BY_KEY -> CollectionStrategies.arrayToMapByKey();
      case MAP_TO_ARRAY_BY_KEY -> CollectionStrategies.mapToArrayByKey();
      case NUMERIC_SCALE -> ScalarStrategies.numericScale();
      case LIST_JOIN -> CollectionStrategies.listJoin();
      case LIST_SPLIT -> CollectionStrategies.listSplit();
      case QUANTITY -> ScalarStrategies.quantity();
      case DURATION -> ScalarStrategies.duration();
      case JSON_STRING -> TextStrategies.jsonString();
      case MAP_KEY_RENAME -> CollectionStrategies.mapKeyRename();
      case CEL -> ScriptStrategies.cel();
    };
  }

  private static SequencedMap<String, String> ruleKeys() {
    var keys = new LinkedHashMap<String, String>();
    keys.put("strategy", "The strategy, spelled exactly as listed, e.g. `FieldRename`.");
    keys.put(
        "acknowledgeLossy",
        "Accepts that the rule loses data in a lossy direction; required for such a rule, and"
            + " it never changes the verdict.");
    keys.put("reason", "Free text: why the rule exists or why its loss is acceptable.");
    keys.put(
        "when",
        "Applies the rule only to objects whose `when.path` equals `when.equals`; on the other"
            + " objects the fields it reads are dropped, so a direction in which it reads a field"
            + " is lossy and needs `acknowledgeLossy`.");
    return Collections.unmodifiableSequencedMap(keys);
  }

  private static SequencedMap<String, String> whenKeys() {
    var keys = new LinkedHashMap<String, String>();
    keys.put("path", "A dotted path that both versions declare.");
    keys.put(
        "equals",
        "The value to compare with; numbers compare by value, and `\"1\"` never equals `1`.");
    return Collections.unmodifiableSequencedMap(keys);
  }
}
