package dev.versio.engine.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.versio.engine.FieldPath;
import dev.versio.engine.json.EngineJson;
import dev.versio.engine.rule.Rule.FractionalPolicy;
import dev.versio.engine.schema.LeafKind;
import java.math.BigDecimal;
import java.math.MathContext;

/** Ops that change one scalar value: type coercion, scaling, quantities and durations. */
public sealed interface ValueOp extends Op {

  /** Coerces the value at {@code path} to {@code kind} (TypeCoerce). */
  record Coerce(FieldPath path, LeafKind kind, FractionalPolicy policy) implements ValueOp {
    @Override
    public void apply(JsonNode input, ObjectNode output) {
      var value = Tree.get(input, path);
      if (value != null) {
        Tree.set(output, path, Coercion.to(kind, value, policy));
      }
    }
  }

  /**
   * Multiplies ({@code multiply}) or divides by {@code factor}; an integer destination is rounded
   * half away from zero (NumericScale).
   */
  record Scale(
      FieldPath from, FieldPath to, BigDecimal factor, boolean multiply, boolean integerDestination)
      implements ValueOp {
    @Override
    public void apply(JsonNode input, ObjectNode output) {
      var value = Tree.get(input, from);
      if (value == null) {
        return;
      }
      if (!value.isNumber()) {
        throw new OpFailure("expected a number at " + from + ", found " + Coercion.kind(value));
      }
      var n = value.decimalValue();
      BigDecimal result;
      if (multiply) {
        result = n.multiply(factor);
      } else {
        try {
          result = n.divide(factor);
        } catch (ArithmeticException nonTerminating) {
          result = n.divide(factor, MathContext.DECIMAL128);
        }
      }
      Tree.set(
          output,
          to,
          integerDestination
              ? Coercion.decimalNode(Coercion.integral(result, FractionalPolicy.ROUND))
              : Coercion.decimalNode(
                  result.stripTrailingZeros().scale() <= 0 ? result.stripTrailingZeros() : result));
    }
  }

  /** Kubernetes quantity text → integer milli-units (Quantity). */
  record QuantityToMilli(FieldPath from, FieldPath to) implements ValueOp {
    @Override
    public void apply(JsonNode input, ObjectNode output) {
      var value = Tree.get(input, from);
      if (value == null) {
        return;
      }
      if (!value.isTextual()) {
        throw new OpFailure(
            "expected a quantity string at " + from + ", found " + Coercion.kind(value));
      }
      Tree.set(output, to, EngineJson.nodes().numberNode(Quantities.parseMilli(value.asText())));
    }
  }

  /** Integer milli-units → canonical Kubernetes quantity text (Quantity). */
  record MilliToQuantity(FieldPath from, FieldPath to) implements ValueOp {
    @Override
    public void apply(JsonNode input, ObjectNode output) {
      var value = Tree.get(input, from);
      if (value == null) {
        return;
      }
      if (!value.isIntegralNumber()) {
        throw new OpFailure("expected an integer of milli-units at " + from + ", found " + value);
      }
      Tree.set(
          output, to, EngineJson.nodes().textNode(Quantities.formatMilli(value.bigIntegerValue())));
    }
  }

  /** Go duration text → integer seconds (Duration). */
  record DurationToSeconds(FieldPath from, FieldPath to) implements ValueOp {
    @Override
    public void apply(JsonNode input, ObjectNode output) {
      var value = Tree.get(input, from);
      if (value == null) {
        return;
      }
      if (!value.isTextual()) {
        throw new OpFailure(
            "expected a duration string at " + from + ", found " + Coercion.kind(value));
      }
      Tree.set(output, to, EngineJson.nodes().numberNode(Durations.parseSeconds(value.asText())));
    }
  }

  /** Integer seconds → Go duration text (Duration). */
  record SecondsToDuration(FieldPath from, FieldPath to) implements ValueOp {
    @Override
    public void apply(JsonNode input, ObjectNode output) {
      var value = Tree.get(input, from);
      if (value == null) {
        return;
      }
      if (!value.isIntegralNumber()) {
        throw new OpFailure("expected whole seconds at " + from + ", found " + value);
      }
      Tree.set(
          output,
          to,
          EngineJson.nodes().textNode(Durations.formatSeconds(value.bigIntegerValue())));
    }
  }
}
