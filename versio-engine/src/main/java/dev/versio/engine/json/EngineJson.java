package dev.versio.engine.json;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.MapperBuilder;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.BigIntegerNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.LongNode;
import java.math.BigInteger;

/**
 * The JSON settings the engine relies on: numbers are exact (integers as int, long or, beyond 64
 * bits, BigInteger — the smallest that holds them; decimals as BigDecimal with their written
 * scale), so nothing takes a float64 round trip.
 */
public final class EngineJson {
  private EngineJson() {}

  // withExactBigDecimals is deprecated in favour of a mapper feature, but node factories made
  // outside a mapper (EngineJson.nodes()) still need it to keep 1.50 as 1.50.
  /** A new mapper with exact number handling; callers may add formats (e.g. YAML) on top. */
  public static ObjectMapper newMapper() {
    return configure(JsonMapper.builder()).build();
  }

  /** Applies the engine's number settings to any Jackson mapper builder (JSON or YAML). */
  @SuppressWarnings("deprecation")
  public static <M extends ObjectMapper, B extends MapperBuilder<M, B>> B configure(B builder) {
    return builder
        .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
        // integers as the smallest node that holds them: an int or long node is a fraction of a
        // BigInteger's memory, and a review of many numbers is parsed into one node each
        .disable(DeserializationFeature.USE_BIG_INTEGER_FOR_INTS)
        .nodeFactory(JsonNodeFactory.withExactBigDecimals(true));
  }

  /**
   * An integer node as the parser makes it for the same digits (int, long, else BigInteger), so
   * that values the engine writes equal values it reads.
   */
  public static JsonNode integerNode(BigInteger value) {
    if (value.bitLength() < 32) {
      return IntNode.valueOf(value.intValue());
    }
    if (value.bitLength() < 64) {
      return LongNode.valueOf(value.longValue());
    }
    return BigIntegerNode.valueOf(value);
  }

  /** {@link #integerNode(BigInteger)} of a long. */
  public static JsonNode integerNode(long value) {
    return value == (int) value ? IntNode.valueOf((int) value) : LongNode.valueOf(value);
  }

  /** Node factory for values the engine creates. */
  @SuppressWarnings("deprecation")
  public static JsonNodeFactory nodes() {
    return JsonNodeFactory.withExactBigDecimals(true);
  }

  /** Whether two JSON values are equal, comparing numbers by value (2 == 2.0, "2" != 2). */
  public static boolean sameValue(JsonNode a, JsonNode b) {
    if (a == null || b == null) {
      return a == b;
    }
    if (a.isNumber() && b.isNumber()) {
      return a.decimalValue().compareTo(b.decimalValue()) == 0;
    }
    return NumericAwareComparator.equal(a, b);
  }
}
