package dev.versio.engine.schema;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.util.Optional;

/**
 * What a numeric schema allows beyond its type: {@code minimum} and {@code maximum}, each possibly
 * exclusive ({@code exclusiveMinimum: true}, the OpenAPI 3.0 form a CRD uses). The apiserver
 * rejects a value outside them, so probes and conformance checks keep to them.
 *
 * @param minimum the lower bound, or null
 * @param exclusiveMinimum whether the lower bound itself is refused
 * @param maximum the upper bound, or null
 * @param exclusiveMaximum whether the upper bound itself is refused
 */
public record NumberRange(
    BigDecimal minimum, boolean exclusiveMinimum, BigDecimal maximum, boolean exclusiveMaximum) {

  /** The range a schema node declares, or null when it declares neither bound (the usual case). */
  static NumberRange parse(JsonNode node) {
    var min = node.get("minimum");
    var max = node.get("maximum");
    boolean hasMin = min != null && min.isNumber();
    boolean hasMax = max != null && max.isNumber();
    if (!hasMin && !hasMax) {
      return null;
    }
    return new NumberRange(
        hasMin ? min.decimalValue() : null,
        node.path("exclusiveMinimum").asBoolean(false),
        hasMax ? max.decimalValue() : null,
        node.path("exclusiveMaximum").asBoolean(false));
  }

  /** Why {@code value} (a number) breaks this range, or empty when it keeps it. */
  public Optional<String> violation(JsonNode value) {
    if (!value.isNumber()) {
      return Optional.empty();
    }
    var v = value.decimalValue();
    if (minimum != null) {
      int c = v.compareTo(minimum);
      if (c < 0 || (c == 0 && exclusiveMinimum)) {
        return Optional.of(
            "is below the minimum "
                + minimum.toPlainString()
                + (exclusiveMinimum ? " (exclusive)" : ""));
      }
    }
    if (maximum != null) {
      int c = v.compareTo(maximum);
      if (c > 0 || (c == 0 && exclusiveMaximum)) {
        return Optional.of(
            "is above the maximum "
                + maximum.toPlainString()
                + (exclusiveMaximum ? " (exclusive)" : ""));
      }
    }
    return Optional.empty();
  }
}
