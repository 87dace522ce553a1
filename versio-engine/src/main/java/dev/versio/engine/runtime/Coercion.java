package dev.versio.engine.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import dev.versio.engine.json.EngineJson;
import dev.versio.engine.rule.Rule.FractionalPolicy;
import dev.versio.engine.schema.LeafKind;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Locale;
import java.util.Set;

/**
 * Scalar coercion between string, integer, number and boolean, exactly: integers of any size print
 * and parse without loss, decimals keep their written digits, nothing goes through a double.
 */
public final class Coercion {
  /** The spellings Go's {@code strconv.ParseBool} accepts. */
  private static final Set<String> TRUE = Set.of("1", "t", "T", "TRUE", "true", "True");

  private static final Set<String> FALSE = Set.of("0", "f", "F", "FALSE", "false", "False");

  private Coercion() {}

  /** Whether {@code kind} is a scalar kind coercion handles. */
  public static boolean coercible(LeafKind kind) {
    return kind.isScalar();
  }

  /** Converts {@code value} to {@code kind}; {@code policy} decides fractional → integer. */
  public static JsonNode to(LeafKind kind, JsonNode value, FractionalPolicy policy) {
    return switch (kind) {
      case STRING -> EngineJson.nodes().textNode(text(value));
      case INTEGER ->
          EngineJson.integerNode(
              NumberBounds.int64(
                  integral(number(value), policy).toBigIntegerExact(), "an integer field"));
      case NUMBER -> decimalNode(number(value));
      case BOOLEAN -> EngineJson.nodes().booleanNode(bool(value));
      default -> throw new OpFailure("cannot coerce to " + kind.wireName());
    };
  }

  /** The text of a scalar: strings unchanged, booleans as true/false, numbers exactly as held. */
  public static String text(JsonNode value) {
    if (value.isTextual()) {
      return value.asText();
    }
    if (value.isBoolean()) {
      return Boolean.toString(value.booleanValue());
    }
    if (value.isIntegralNumber()) {
      return value.bigIntegerValue().toString();
    }
    if (value.isNumber()) {
      return NumberBounds.decimal(value, "a string").toPlainString();
    }
    throw new OpFailure("cannot turn " + kind(value) + " into a string");
  }

  /**
   * A number from a number, a numeric string (trimmed) or a boolean (1/0), within {@link
   * NumberBounds}.
   */
  public static BigDecimal number(JsonNode value) {
    if (value.isNumber()) {
      return NumberBounds.decimal(value, "a number");
    }
    if (value.isBoolean()) {
      return value.booleanValue() ? BigDecimal.ONE : BigDecimal.ZERO;
    }
    if (value.isTextual()) {
      var text = NumberBounds.text(value.asText(), "a number").trim().replace("_", "");
      var n = NumberBounds.parse(text, "a number");
      if (n == null) {
        throw new OpFailure(NumberBounds.quote(value.asText()) + " is not a number");
      }
      return n;
    }
    throw new OpFailure("cannot turn " + kind(value) + " into a number");
  }

  /**
   * A whole number; a fractional one fails (ERROR), is cut (TRUNCATE) or rounded half away from
   * zero (ROUND).
   */
  public static BigDecimal integral(BigDecimal n, FractionalPolicy policy) {
    var stripped = n.stripTrailingZeros();
    if (stripped.scale() <= 0) {
      return stripped.setScale(0, RoundingMode.UNNECESSARY);
    }
    return switch (policy) {
      case ERROR ->
          throw new OpFailure(
              NumberBounds.quote(n.toPlainString())
                  + " has a fractional part but the destination is an integer"
                  + " (set onFractionalInteger: Truncate or Round to accept that loss)");
      case TRUNCATE -> n.setScale(0, RoundingMode.DOWN);
      case ROUND -> n.setScale(0, RoundingMode.HALF_UP);
    };
  }

  /** A boolean from a boolean or one of Go's ParseBool spellings; numbers are refused. */
  public static boolean bool(JsonNode value) {
    if (value.isBoolean()) {
      return value.booleanValue();
    }
    if (value.isTextual()) {
      var text = value.asText().trim();
      if (TRUE.contains(text)) {
        return true;
      }
      if (FALSE.contains(text)) {
        return false;
      }
      throw new OpFailure(
          NumberBounds.quote(value.asText()) + " is not a boolean (use true/false, t/f, 1/0)");
    }
    throw new OpFailure("cannot turn " + kind(value) + " into a boolean");
  }

  /** A JSON number for a decimal: integral values become integer nodes. */
  public static JsonNode decimalNode(BigDecimal n) {
    if (n.scale() <= 0) {
      return EngineJson.integerNode(n.toBigIntegerExact());
    }
    return EngineJson.nodes().numberNode(n);
  }

  static String kind(JsonNode value) {
    return value.getNodeType().name().toLowerCase(Locale.ROOT);
  }
}
