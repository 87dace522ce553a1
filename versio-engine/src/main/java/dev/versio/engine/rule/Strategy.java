package dev.versio.engine.rule;

import java.util.Arrays;
import java.util.Optional;

/** The 30 conversion strategies, with their wire names and the key of their params block. */
public enum Strategy {
  FIELD_RENAME("FieldRename", Rule.FieldRename.class),
  SCALAR_TO_OBJECT("ScalarToObject", Rule.ScalarToObject.class),
  OBJECT_TO_SCALAR("ObjectToScalar", Rule.ObjectToScalar.class),
  SINGLETON_ARRAY_TO_OBJECT("SingletonArrayToObject", Rule.SingletonArrayToObject.class),
  OBJECT_TO_SINGLETON_ARRAY("ObjectToSingletonArray", Rule.ObjectToSingletonArray.class),
  FIELDS_TO_MAP("FieldsToMap", Rule.FieldsToMap.class),
  MAP_TO_FIELDS("MapToFields", Rule.MapToFields.class),
  TO_ANNOTATION("ToAnnotation", Rule.ToAnnotation.class),
  TO_LABEL("ToLabel", Rule.ToLabel.class),
  FROM_ANNOTATION("FromAnnotation", Rule.FromAnnotation.class),
  FROM_LABEL("FromLabel", Rule.FromLabel.class),
  ENUM_REMAP("EnumRemap", Rule.EnumRemap.class),
  DEFAULT_VALUE("DefaultValue", Rule.DefaultValue.class),
  CONSTANT("Constant", Rule.Constant.class),
  DELETE("Delete", Rule.Delete.class),
  JSON_PATCH("JSONPatch", Rule.JSONPatch.class),
  FOR_EACH("ForEach", Rule.ForEach.class),
  TYPE_COERCE("TypeCoerce", Rule.TypeCoerce.class),
  SCALAR_TO_FIELDS("ScalarToFields", Rule.ScalarToFields.class),
  FIELDS_TO_SCALAR("FieldsToScalar", Rule.FieldsToScalar.class),
  ARRAY_TO_MAP_BY_KEY("ArrayToMapByKey", Rule.ArrayToMapByKey.class),
  MAP_TO_ARRAY_BY_KEY("MapToArrayByKey", Rule.MapToArrayByKey.class),
  NUMERIC_SCALE("NumericScale", Rule.NumericScale.class),
  LIST_JOIN("ListJoin", Rule.ListJoin.class),
  LIST_SPLIT("ListSplit", Rule.ListSplit.class),
  QUANTITY("Quantity", Rule.Quantity.class),
  DURATION("Duration", Rule.Duration.class),
  JSON_STRING("JSONString", Rule.JSONString.class),
  MAP_KEY_RENAME("MapKeyRename", Rule.MapKeyRename.class),
  CEL("CEL", Rule.CEL.class);

  private final String wireName;
  private final Class<? extends Rule> recordType;

  Strategy(String wireName, Class<? extends Rule> recordType) {
    this.wireName = wireName;
    this.recordType = recordType;
  }

  /** The {@code strategy:} value, e.g. {@code FieldRename}. */
  public String wireName() {
    return wireName;
  }

  /**
   * The params block key: the wire name with a lower-case first letter ({@code jsonPatch}, {@code
   * cel}).
   */
  public String paramsKey() {
    return switch (this) {
      case JSON_PATCH -> "jsonPatch";
      case JSON_STRING -> "jsonString";
      case CEL -> "cel";
      default -> Character.toLowerCase(wireName.charAt(0)) + wireName.substring(1);
    };
  }

  /** The record that models this strategy. */
  public Class<? extends Rule> recordType() {
    return recordType;
  }

  public static Optional<Strategy> byWireName(String name) {
    return Arrays.stream(values()).filter(s -> s.wireName.equals(name)).findFirst();
  }

  public static Optional<Strategy> byParamsKey(String key) {
    return Arrays.stream(values()).filter(s -> s.paramsKey().equals(key)).findFirst();
  }
}
