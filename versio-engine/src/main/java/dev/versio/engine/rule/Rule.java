package dev.versio.engine.rule;

import com.fasterxml.jackson.databind.JsonNode;
import dev.versio.engine.FieldPath;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One conversion rule of a spoke: a strategy with its params, plus the common options ({@code
 * acknowledgeLossy}, {@code reason}, {@code when}). One record per strategy, named after its wire
 * name. Paths are relative to the object (or to one array element inside {@link ForEach}).
 */
public sealed interface Rule {
  RuleOptions options();

  /** The strategy this record models. */
  default Strategy strategy() {
    for (var s : Strategy.values()) {
      if (s.recordType() == getClass()) {
        return s;
      }
    }
    throw new IllegalStateException("no strategy for " + getClass());
  }

  /** What to do with a value the other side has no place for. */
  enum OnUnknown {
    ERROR,
    DROP
  }

  /** How a field is written into an annotation or label. */
  enum Serialization {
    JSON,
    STRING
  }

  /** Which side declares a field that exists on one side only. */
  enum ExistsOn {
    HUB,
    SPOKE
  }

  /** What TypeCoerce does with a fractional number going into an integer. */
  enum FractionalPolicy {
    ERROR,
    TRUNCATE,
    ROUND
  }

  /**
   * Moves a field; {@code spokeAliases} are older spoke names of the same field, read (after {@code
   * spokePath}) when the spoke object does not set it.
   */
  record FieldRename(
      FieldPath hubPath, FieldPath spokePath, List<FieldPath> spokeAliases, RuleOptions options)
      implements Rule {
    public FieldRename {
      Objects.requireNonNull(hubPath, "hubPath");
      Objects.requireNonNull(spokePath, "spokePath");
      spokeAliases = List.copyOf(spokeAliases);
    }

    public FieldRename(FieldPath hubPath, FieldPath spokePath, RuleOptions options) {
      this(hubPath, spokePath, List.of(), options);
    }
  }

  record ScalarToObject(
      FieldPath hubPath,
      FieldPath spokePath,
      String key,
      Map<String, JsonNode> defaultsForOtherKeys,
      RuleOptions options)
      implements Rule {
    public ScalarToObject {
      defaultsForOtherKeys = Map.copyOf(defaultsForOtherKeys);
    }
  }

  record ObjectToScalar(
      FieldPath hubPath,
      FieldPath spokePath,
      String key,
      Map<String, JsonNode> defaultsForOtherKeys,
      RuleOptions options)
      implements Rule {
    public ObjectToScalar {
      defaultsForOtherKeys = Map.copyOf(defaultsForOtherKeys);
    }
  }

  /**
   * A hub array of one element as a spoke object; {@code nested} converts the singleton arrays
   * inside the element too.
   */
  record SingletonArrayToObject(
      FieldPath hubPath, FieldPath spokePath, boolean nested, RuleOptions options)
      implements Rule {}

  /**
   * A hub object as a spoke array of one element; {@code nested} converts the singleton arrays
   * inside the object too.
   */
  record ObjectToSingletonArray(
      FieldPath hubPath, FieldPath spokePath, boolean nested, RuleOptions options)
      implements Rule {}

  /**
   * Several hub fields gathered into one spoke map; {@code keyNames} maps a hub path text to its
   * key.
   */
  record FieldsToMap(
      List<FieldPath> hubPaths,
      FieldPath spokeMapPath,
      Map<String, String> keyNames,
      OnUnknown onUnknownSpokeKey,
      RuleOptions options)
      implements Rule {
    public FieldsToMap {
      hubPaths = List.copyOf(hubPaths);
      keyNames = Map.copyOf(keyNames);
    }
  }

  /**
   * One hub map spread into several spoke fields; {@code keyNames} maps a spoke path text to its
   * key.
   */
  record MapToFields(
      FieldPath hubMapPath,
      List<FieldPath> spokePaths,
      Map<String, String> keyNames,
      OnUnknown onUnknownHubKey,
      RuleOptions options)
      implements Rule {
    public MapToFields {
      spokePaths = List.copyOf(spokePaths);
      keyNames = Map.copyOf(keyNames);
    }
  }

  record ToAnnotation(
      FieldPath hubPath,
      String key,
      Serialization serialization,
      boolean restoreOnReverse,
      RuleOptions options)
      implements Rule {}

  record ToLabel(
      FieldPath hubPath,
      String key,
      Serialization serialization,
      boolean restoreOnReverse,
      RuleOptions options)
      implements Rule {}

  record FromAnnotation(
      FieldPath spokePath,
      String key,
      Serialization serialization,
      boolean stashOnReverse,
      RuleOptions options)
      implements Rule {}

  record FromLabel(
      FieldPath spokePath,
      String key,
      Serialization serialization,
      boolean stashOnReverse,
      RuleOptions options)
      implements Rule {}

  /** One pair of an {@link EnumRemap} mapping. */
  /**
   * One pair of an {@link EnumRemap}.
   *
   * @param preferred when several hub values share this pair's spoke value, spoke→hub writes this
   *     pair's hub value
   */
  record EnumMapping(JsonNode hub, JsonNode spoke, boolean preferred) {
    public EnumMapping {
      Objects.requireNonNull(hub, "hub");
      Objects.requireNonNull(spoke, "spoke");
    }

    public EnumMapping(JsonNode hub, JsonNode spoke) {
      this(hub, spoke, false);
    }
  }

  /**
   * Maps enum values between the versions; {@code hubPath} and {@code spokePath} differ when the
   * field also moved (one rule for a move combined with an enum change).
   */
  record EnumRemap(
      FieldPath hubPath,
      FieldPath spokePath,
      List<EnumMapping> mapping,
      OnUnknown onUnmappedHubValue,
      OnUnknown onUnmappedSpokeValue,
      RuleOptions options)
      implements Rule {
    public EnumRemap {
      mapping = List.copyOf(mapping);
    }

    /** The same field on both sides. */
    public EnumRemap(
        FieldPath path,
        List<EnumMapping> mapping,
        OnUnknown onUnmappedHubValue,
        OnUnknown onUnmappedSpokeValue,
        RuleOptions options) {
      this(path, path, mapping, onUnmappedHubValue, onUnmappedSpokeValue, options);
    }
  }

  record DefaultValue(FieldPath path, ExistsOn existsOn, JsonNode defaultValue, RuleOptions options)
      implements Rule {}

  record Constant(FieldPath path, ExistsOn existsOn, JsonNode value, RuleOptions options)
      implements Rule {}

  record Delete(FieldPath path, ExistsOn existsOn, RuleOptions options) implements Rule {}

  /** RFC 6902 patches per direction (JSON arrays of operations). */
  /**
   * A value on one side and the same value written as JSON text in a string on the other; which
   * side is the string comes from the schemas.
   */
  record JSONString(FieldPath hubPath, FieldPath spokePath, RuleOptions options) implements Rule {}

  record JSONPatch(
      JsonNode hubToSpoke, JsonNode spokeToHub, boolean losslessOverride, RuleOptions options)
      implements Rule {}

  record ForEach(
      FieldPath hubItemsPath, FieldPath spokeItemsPath, List<Rule> rules, RuleOptions options)
      implements Rule {
    public ForEach {
      rules = List.copyOf(rules);
    }
  }

  record TypeCoerce(FieldPath path, FractionalPolicy onFractionalInteger, RuleOptions options)
      implements Rule {}

  record ScalarToFields(
      FieldPath hubPath,
      String pattern,
      Map<String, FieldPath> spokeFields,
      String joinTemplate,
      boolean losslessOverride,
      RuleOptions options)
      implements Rule {
    public ScalarToFields {
      spokeFields = Map.copyOf(spokeFields);
    }
  }

  record FieldsToScalar(
      Map<String, FieldPath> hubFields,
      String pattern,
      FieldPath spokePath,
      String joinTemplate,
      boolean losslessOverride,
      RuleOptions options)
      implements Rule {
    public FieldsToScalar {
      hubFields = Map.copyOf(hubFields);
    }
  }

  record ArrayToMapByKey(
      FieldPath hubPath, FieldPath spokePath, String keyField, RuleOptions options)
      implements Rule {}

  record MapToArrayByKey(
      FieldPath hubPath, FieldPath spokePath, String keyField, RuleOptions options)
      implements Rule {}

  /** {@code hub = spoke × factor}. */
  record NumericScale(
      FieldPath hubPath, FieldPath spokePath, BigDecimal factor, RuleOptions options)
      implements Rule {}

  record ListJoin(FieldPath hubPath, FieldPath spokePath, String separator, RuleOptions options)
      implements Rule {}

  record ListSplit(FieldPath hubPath, FieldPath spokePath, String separator, RuleOptions options)
      implements Rule {}

  record Quantity(FieldPath hubPath, FieldPath spokePath, RuleOptions options) implements Rule {}

  record Duration(FieldPath hubPath, FieldPath spokePath, RuleOptions options) implements Rule {}

  record MapKeyRename(
      FieldPath hubPath, FieldPath spokePath, Map<String, String> renames, RuleOptions options)
      implements Rule {
    public MapKeyRename {
      renames = Map.copyOf(renames);
    }
  }

  record CEL(
      List<FieldPath> hubPaths,
      List<FieldPath> spokePaths,
      String hubToSpoke,
      String spokeToHub,
      RuleOptions options)
      implements Rule {
    public CEL {
      hubPaths = List.copyOf(hubPaths);
      spokePaths = List.copyOf(spokePaths);
    }
  }
}
