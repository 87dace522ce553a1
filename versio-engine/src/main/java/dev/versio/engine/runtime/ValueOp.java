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
      var n = NumberBounds.decimal(value, "a scaled number");
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
      result = NumberBounds.decimal(result, result.toString(), "a scaled number");
      Tree.set(
          output,
          to,
          integerDestination
              ? EngineJson.integerNode(
                  NumberBounds.int64(
                      Coercion.integral(result, FractionalPolicy.ROUND).toBigIntegerExact(),
                      "an integer field"))
              : Coercion.decimalNode(
                  result.stripTrailingZeros().scale() <= 0 ? result.stripTrailingZeros() : result));
    }
  }

  /** Quantity or duration text → its integer amount (Quantity, Duration). */
  record TextToInteger(FieldPath from, FieldPath to, IntegerText form) implements ValueOp {
    @Override
    public void apply(JsonNode input, ObjectNode output) {
      var value = Tree.get(input, from);
      if (value == null) {
        return;
      }
      if (!value.isTextual()) {
        throw new OpFailure(
            "expected " + form.textName + " at " + from + ", found " + Coercion.kind(value));
      }
      Tree.set(output, to, EngineJson.integerNode(form.parse(value.asText())));
    }
  }

  /** An integer amount → its canonical quantity or duration text (Quantity, Duration). */
  record IntegerToText(FieldPath from, FieldPath to, IntegerText form) implements ValueOp {
    @Override
    public void apply(JsonNode input, ObjectNode output) {
      var value = Tree.get(input, from);
      if (value == null) {
        return;
      }
      if (!value.isIntegralNumber()) {
        throw new OpFailure(
            "expected " + form.integerName + " at " + from + ", found " + Coercion.kind(value));
      }
      Tree.set(output, to, EngineJson.nodes().textNode(form.format(value.bigIntegerValue())));
    }
  }
}
