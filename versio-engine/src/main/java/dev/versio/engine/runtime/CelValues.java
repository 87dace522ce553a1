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

  static JsonNode toJson(Object value) {
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
        map.forEach((k, v) -> object.set(String.valueOf(k), toJson(v)));
        yield object;
      }
      case List<?> list -> {
        var array = nodes.arrayNode(list.size());
        list.forEach(v -> array.add(toJson(v)));
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
