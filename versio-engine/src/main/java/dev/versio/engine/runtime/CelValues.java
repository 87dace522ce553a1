package dev.versio.engine.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.common.primitives.UnsignedLong;
import dev.cel.common.values.NullValue;
import dev.versio.engine.json.EngineJson;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * JSON ⇄ CEL values: objects become maps, arrays lists, integers that fit {@code int} (64-bit) CEL
 * ints, other numbers doubles. CEL has no decimals; that is why the {@code cel} strategy is always
 * lossy and must be acknowledged.
 */
final class CelValues {
  private CelValues() {}

  static Object toCel(JsonNode node) {
    return switch (node.getNodeType()) {
      case OBJECT -> {
        var map = new LinkedHashMap<String, Object>();
        for (var e : node.properties()) {
          map.put(e.getKey(), toCel(e.getValue()));
        }
        yield map;
      }
      case ARRAY -> {
        var list = new ArrayList<Object>(node.size());
        node.forEach(e -> list.add(toCel(e)));
        yield list;
      }
      case STRING -> node.asText();
      case BOOLEAN -> node.booleanValue();
      case NUMBER -> {
        if (node.isIntegralNumber()) {
          yield node.canConvertToLong() ? (Object) node.longValue() : node.doubleValue();
        }
        yield node.doubleValue();
      }
      case NULL, MISSING -> NullValue.NULL_VALUE;
      default -> node.asText();
    };
  }

  /**
   * {@code value} as JSON, refusing one of more than {@code limit} nodes and characters: a result
   * that shares one list many times over would otherwise be copied out in full each time.
   */
  static JsonNode toJson(Object value, long limit) {
    return toJson(value, new long[] {limit}, limit);
  }

  private static void charge(long[] remaining, long cost, long limit) {
    remaining[0] -= cost;
    if (remaining[0] < 0) {
      throw new OpFailure(
          "the expression's result exceeds its size limit of "
              + limit
              + " elements and characters as JSON");
    }
  }

  static JsonNode toJson(Object value) {
    return toJson(value, Long.MAX_VALUE);
  }

  private static JsonNode toJson(Object value, long[] remaining, long limit) {
    charge(remaining, value instanceof String s ? 1 + s.length() : 1, limit);
    var nodes = EngineJson.nodes();
    return switch (value) {
      case null -> nodes.nullNode();
      case NullValue n -> nodes.nullNode();

      case String s -> nodes.textNode(s);
      case Boolean b -> nodes.booleanNode(b);
      case Long l -> EngineJson.integerNode(l);
      case Integer i -> EngineJson.integerNode(i);
      case UnsignedLong u -> EngineJson.integerNode(u.bigIntegerValue());
      case Double d -> {
        if (d.isNaN() || d.isInfinite()) {
          throw new OpFailure("the expression produced " + d + ", which JSON cannot hold");
        }
        yield Coercion.decimalNode(BigDecimal.valueOf(d));
      }
      case Map<?, ?> map -> {
        var object = nodes.objectNode();
        map.forEach(
            (k, v) -> {
              var key = String.valueOf(k);
              charge(remaining, key.length(), limit);
              object.set(key, toJson(v, remaining, limit));
            });
        yield object;
      }
      case List<?> list -> {
        var array = nodes.arrayNode(list.size());
        list.forEach(v -> array.add(toJson(v, remaining, limit)));
        yield array;
      }
      default ->
          throw new OpFailure(
              "the expression produced a "
                  + value.getClass().getSimpleName()
                  + ", which JSON cannot hold");
    };
  }
}
