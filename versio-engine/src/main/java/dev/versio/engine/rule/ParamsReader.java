package dev.versio.engine.rule;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import dev.versio.engine.FieldPath;
import dev.versio.engine.diagnostic.DiagnosticCode;
import dev.versio.engine.diagnostic.Diagnostics;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Reads one params block ({@code fieldRename: {...}}), reporting missing, malformed and unknown
 * keys as diagnostics that name the block and the key. Values that fail to read come back as null
 * (or a default) and {@link #ok()} turns false.
 */
final class ParamsReader {
  private final JsonNode node;
  private final String block;
  private final Diagnostics diagnostics;
  private final Set<String> known = new LinkedHashSet<>();
  private boolean ok = true;

  ParamsReader(JsonNode node, String block, Diagnostics diagnostics) {
    this.node = node;
    this.block = block;
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
    var text = text(key, true);
    return text == null ? null : toPath(key, text);
  }

  List<FieldPath> paths(String key) {
    known.add(key);
    var value = node.get(key);
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
    known.add(key);
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
    known.add(key);
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
    known.add(key);
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
    known.add(key);
    var value = node.get(key);
    if (value == null || !value.isNumber()) {
      fail(key, block + "." + key + " must be a number", null);
      return null;
    }
    return value.decimalValue();
  }

  /** A wire enum value such as {@code Error}/{@code Drop}; {@code JSON} stays upper case. */
  <E extends Enum<E>> E choice(String key, Class<E> type, E fallback) {
    known.add(key);
    var value = node.get(key);
    if (value == null || value.isNull()) {
      return fallback;
    }
    var allowed = new ArrayList<String>();
    for (var constant : type.getEnumConstants()) {
      var wire = wireName(constant);
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
    known.add(key);
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
    var raw = stringMap(key, true);
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
    known.add(key);
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

  /** Reports keys of the block that no strategy parameter uses (typos fail closed). */
  void rejectUnknownKeys() {
    if (!node.isObject()) {
      return;
    }
    node.fieldNames()
        .forEachRemaining(
            name -> {
              if (!known.contains(name)) {
                ok = false;
                diagnostics.error(
                    DiagnosticCode.UNKNOWN_PARAM,
                    null,
                    block + " has no parameter '" + name + "'",
                    "known parameters of " + block + ": " + String.join(", ", known));
              }
            });
  }

  void fail(String key, String message, String hint) {
    ok = false;
    diagnostics.error(DiagnosticCode.INVALID_PARAM, null, message, hint);
  }

  private FieldPath toPath(String key, String text) {
    try {
      return FieldPath.parse(text);
    } catch (IllegalArgumentException e) {
      fail(key, block + "." + key + ": " + e.getMessage(), null);
      return null;
    }
  }

  static String wireName(Enum<?> constant) {
    var name = constant.name();
    if (name.equals("JSON")) {
      return name;
    }
    return name.charAt(0) + name.substring(1).toLowerCase(Locale.ROOT);
  }
}
