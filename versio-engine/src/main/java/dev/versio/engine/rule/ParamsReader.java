package dev.versio.engine.rule;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import dev.versio.engine.FieldPath;
import dev.versio.engine.diagnostic.DiagnosticCode;
import dev.versio.engine.diagnostic.Diagnostics;
import dev.versio.engine.rule.catalog.ParamSpec;
import dev.versio.engine.rule.catalog.ParamType;
import dev.versio.engine.rule.catalog.StrategySpec;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Reads one params block ({@code fieldRename: {...}}), reporting missing, malformed and unknown
 * keys as diagnostics that name the block and the key. Values that fail to read come back as null
 * (or a default) and {@link #ok()} turns false.
 *
 * <p>The reader is bound to the strategy's {@link StrategySpec}: reading a key the catalog does not
 * declare, or reading it as another type, requiredness or default than declared, is a programming
 * error ({@link IllegalStateException}), and so is {@link #finish() finishing} without having read
 * every declared key. The parser therefore reads exactly the catalog's parameters.
 */
final class ParamsReader {
  private final JsonNode node;
  private final StrategySpec spec;
  private final String block;
  private final Diagnostics diagnostics;
  private final Set<String> read = new LinkedHashSet<>();
  private boolean ok = true;

  ParamsReader(JsonNode node, StrategySpec spec, Diagnostics diagnostics) {
    this.node = node;
    this.spec = spec;
    this.block = spec.strategy().paramsKey();
    this.diagnostics = diagnostics;
    if (!node.isObject()) {
      fail(
          null,
          block
              + " must be an object of parameters, found "
              + node.getNodeType().name().toLowerCase(Locale.ROOT),
          null);
    }
  }

  boolean ok() {
    return ok;
  }

  FieldPath path(String key) {
    declared(key, true, null, ParamType.PATH);
    var text = rawText(key, true);
    return text == null ? null : toPath(key, text);
  }

  /**
   * An optional path: null when absent ({@code defaultValue} is what the catalog says that means).
   */
  FieldPath optionalPath(String key, String defaultValue) {
    declared(key, false, defaultValue, ParamType.PATH);
    var text = rawText(key, false);
    return text == null ? null : toPath(key, text);
  }

  /** Reports a problem with the block as a whole (e.g. two parameters that exclude each other). */
  void problem(String key, String message, String hint) {
    fail(key, message, hint);
  }

  /** An optional list of paths: empty when absent. */
  List<FieldPath> optionalPaths(String key) {
    declared(key, false, "[]", ParamType.PATHS);
    var value = node.get(key);
    if (value == null || value.isNull() || (value.isArray() && value.isEmpty())) {
      return List.of();
    }
    return readPaths(key, value);
  }

  List<FieldPath> paths(String key) {
    declared(key, true, null, ParamType.PATHS);
    return readPaths(key, node.get(key));
  }

  private List<FieldPath> readPaths(String key, JsonNode value) {
    var out = new ArrayList<FieldPath>();
    if (value == null || !value.isArray() || value.isEmpty()) {
      fail(
          key,
          block + "." + key + " must be a non-empty list of dotted paths",
          "e.g. " + key + ": [spec.a, spec.b]");
      return out;
    }
    for (var item : value) {
      if (!item.isTextual()) {
        fail(key, block + "." + key + " must hold strings, found " + item, null);
        continue;
      }
      var p = toPath(key, item.asText());
      if (p != null) {
        out.add(p);
      }
    }
    return out;
  }

  String text(String key, boolean required) {
    declared(key, required, null, ParamType.STRING);
    return rawText(key, required);
  }

  private String rawText(String key, boolean required) {
    var value = node.get(key);
    if (value == null || value.isNull()) {
      if (required) {
        fail(key, block + "." + key + " is required", null);
      }
      return null;
    }
    if (!value.isTextual()) {
      fail(key, block + "." + key + " must be a string, found " + value, null);
      return null;
    }
    return value.asText();
  }

  boolean bool(String key) {
    declared(key, false, "false", ParamType.BOOLEAN);
    var value = node.get(key);
    if (value == null || value.isNull()) {
      return false;
    }
    if (!value.isBoolean()) {
      fail(key, block + "." + key + " must be true or false, found " + value, null);
      return false;
    }
    return value.booleanValue();
  }

  /** Any JSON value; absent or null reads as JSON null unless required. */
  JsonNode json(String key, boolean required) {
    declared(
        key,
        required,
        null,
        ParamType.JSON,
        ParamType.JSON_PATCH,
        ParamType.ENUM_MAPPING,
        ParamType.RULES);
    var value = node.get(key);
    if (value == null) {
      if (required) {
        fail(key, block + "." + key + " is required", null);
      }
      return NullNode.getInstance();
    }
    return value;
  }

  BigDecimal number(String key) {
    declared(key, true, null, ParamType.NUMBER);
    var value = node.get(key);
    if (value == null || !value.isNumber()) {
      fail(key, block + "." + key + " must be a number", null);
      return null;
    }
    return value.decimalValue();
  }

  /** A wire enum value such as {@code Error}/{@code Drop}; {@code JSON} stays upper case. */
  <E extends Enum<E>> E choice(String key, Class<E> type, E fallback) {
    var param =
        declared(
            key,
            fallback == null,
            fallback == null ? null : ParamSpec.wireName(fallback),
            ParamType.CHOICE);
    if (!param.choices().equals(ParamSpec.choices(type))) {
      throw new IllegalStateException(
          block + "." + key + ": the catalog's choices differ from " + type.getSimpleName());
    }
    var value = node.get(key);
    if (value == null || value.isNull()) {
      return fallback;
    }
    var allowed = new ArrayList<String>();
    for (var constant : type.getEnumConstants()) {
      var wire = ParamSpec.wireName(constant);
      allowed.add(wire);
      if (value.isTextual() && value.asText().equals(wire)) {
        return constant;
      }
    }
    fail(
        key,
        block + "." + key + " must be one of " + String.join(", ", allowed) + ", found " + value,
        null);
    return fallback;
  }

  Map<String, String> stringMap(String key, boolean required) {
    declared(key, required, required ? null : "{}", ParamType.STRING_MAP);
    return rawStringMap(key, required);
  }

  private Map<String, String> rawStringMap(String key, boolean required) {
    var value = node.get(key);
    var out = new LinkedHashMap<String, String>();
    if (value == null || value.isNull()) {
      if (required) {
        fail(key, block + "." + key + " is required", null);
      }
      return out;
    }
    if (!value.isObject()) {
      fail(key, block + "." + key + " must be a map of strings", null);
      return out;
    }
    value
        .properties()
        .forEach(
            e -> {
              if (e.getValue().isTextual()) {
                out.put(e.getKey(), e.getValue().asText());
              } else {
                fail(
                    key,
                    block
                        + "."
                        + key
                        + "."
                        + e.getKey()
                        + " must be a string, found "
                        + e.getValue(),
                    null);
              }
            });
    return out;
  }

  Map<String, FieldPath> pathMap(String key) {
    declared(key, true, null, ParamType.PATH_MAP);
    var raw = rawStringMap(key, true);
    var out = new LinkedHashMap<String, FieldPath>();
    if (raw.isEmpty() && ok) {
      fail(key, block + "." + key + " must name at least one field", null);
    }
    raw.forEach(
        (k, v) -> {
          var p = toPath(key + "." + k, v);
          if (p != null) {
            out.put(k, p);
          }
        });
    return out;
  }

  Map<String, JsonNode> jsonMap(String key) {
    declared(key, false, "{}", ParamType.JSON_MAP);
    var value = node.get(key);
    var out = new LinkedHashMap<String, JsonNode>();
    if (value == null || value.isNull()) {
      return out;
    }
    if (!value.isObject()) {
      fail(key, block + "." + key + " must be a map", null);
      return out;
    }
    value.properties().forEach(e -> out.put(e.getKey(), e.getValue()));
    return out;
  }

  /**
   * Reports keys of the block that the strategy does not declare (typos fail closed), suggesting
   * the closest declared one.
   *
   * @throws IllegalStateException if the parser did not read every declared parameter
   */
  void finish() {
    if (!read.equals(new LinkedHashSet<>(spec.paramNames()))) {
      throw new IllegalStateException(
          "the parser of "
              + spec.strategy().wireName()
              + " read "
              + read
              + " but the catalog declares "
              + spec.paramNames());
    }
    if (!node.isObject()) {
      return;
    }
    node.fieldNames()
        .forEachRemaining(
            name -> {
              if (!read.contains(name)) {
                ok = false;
                diagnostics.error(
                    DiagnosticCode.UNKNOWN_PARAM,
                    block + "." + name,
                    block + " has no parameter '" + name + "'",
                    DidYouMean.hint(
                        name, spec.paramNames(), "known parameters of " + block + ": "));
              }
            });
  }

  /**
   * The catalog's declaration of {@code key}, checked against how the parser reads it.
   *
   * @throws IllegalStateException if the catalog declares it otherwise, or not at all
   */
  private ParamSpec declared(
      String key, boolean required, String defaultValue, ParamType type, ParamType... others) {
    var param =
        spec.param(key)
            .orElseThrow(
                () ->
                    new IllegalStateException(
                        "the catalog declares no parameter " + block + "." + key));
    var types = EnumSet.of(type, others);
    if (!types.contains(param.type())
        || param.required() != required
        || !Objects.equals(param.defaultValue(), defaultValue)) {
      throw new IllegalStateException(
          block
              + "."
              + key
              + " is read as "
              + types
              + (required ? " (required" : " (optional, default " + defaultValue)
              + ") but declared as "
              + param);
    }
    read.add(key);
    return param;
  }

  void fail(String key, String message, String hint) {
    ok = false;
    diagnostics.error(
        DiagnosticCode.INVALID_PARAM, key == null ? block : block + "." + key, message, hint);
  }

  private FieldPath toPath(String key, String text) {
    try {
      return FieldPath.parse(text);
    } catch (IllegalArgumentException e) {
      fail(key, block + "." + key + ": " + e.getMessage(), null);
      return null;
    }
  }
}
