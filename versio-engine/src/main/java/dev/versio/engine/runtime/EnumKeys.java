package dev.versio.engine.runtime;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Typed lookup keys for enum values: {@code "2"} (a string) and {@code 2} (a number) differ, while
 * {@code 2} and {@code 2.0} are the same number.
 */
public final class EnumKeys {
  private EnumKeys() {}

  public static String of(JsonNode value) {
    if (value.isTextual()) {
      return "s:" + value.asText();
    }
    if (value.isBoolean()) {
      return "b:" + value.asBoolean();
    }
    if (value.isNumber()) {
      var n = value.decimalValue();
      // beyond the bounds no enum value can match; the short scientific form keeps the key small
      return "n:"
          + (NumberBounds.inRange(n)
              ? n.stripTrailingZeros().toPlainString()
              : n.stripTrailingZeros().toString());
    }
    if (value.isNull()) {
      return "null";
    }
    return "j:" + value;
  }

  static String display(String key) {
    return switch (key.charAt(0)) {
      case 's' -> "\"" + key.substring(2) + "\"";
      case 'b', 'n', 'j' -> key.substring(2);
      default -> key;
    };
  }
}
