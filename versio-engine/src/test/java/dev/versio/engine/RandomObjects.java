package dev.versio.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.versio.engine.json.EngineJson;
import dev.versio.engine.schema.Classification;
import dev.versio.engine.schema.SchemaNode;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Random;

/**
 * Random objects valid for a schema, for round-trip property tests. Containers (objects, maps,
 * arrays) are never empty: wrapping strategies treat an empty container like an absent one, as the
 * reference engine does.
 */
final class RandomObjects {
  private static final String ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789-_";
  private final Random random;

  RandomObjects(Random random) {
    this.random = random;
  }

  ObjectNode object(SchemaNode root, String apiVersion) {
    var object = (ObjectNode) value(root.property("spec").map(s -> root).orElse(root), 0);
    object.put("apiVersion", apiVersion);
    object.put("kind", "Widget");
    object.putObject("metadata").put("name", "w-" + random.nextInt(1000));
    return object;
  }

  JsonNode value(SchemaNode node, int depth) {
    var nodes = EngineJson.nodes();
    if (!node.enumValues().isEmpty()) {
      return node.enumValues().get(random.nextInt(node.enumValues().size())).deepCopy();
    }
    if (node.intOrString()) {
      return random.nextBoolean()
          ? nodes.numberNode(random.nextInt(65536))
          : nodes.textNode(word());
    }
    if (node.construct() != null) {
      return nodes.textNode(word());
    }
    var c = Classification.of(node);
    if (node.preserveUnknownFields()) {
      var o = nodes.objectNode();
      o.put(word(), word());
      o.putObject(word()).put(word(), random.nextInt(100));
      return o;
    }
    return switch (c.kind()) {
      case STRING -> nodes.textNode(node.textBounds() == null ? word() : within(node));
      // the apiserver holds 64-bit integers only; one in ten sits at an edge of that range
      case INTEGER ->
          random.nextInt(10) == 0
              ? nodes.numberNode(random.nextBoolean() ? Long.MIN_VALUE : Long.MAX_VALUE)
              : nodes.numberNode(random.nextLong());
      case NUMBER ->
          nodes.numberNode(
              new BigDecimal(BigInteger.valueOf(random.nextLong()), random.nextInt(12)));
      case BOOLEAN -> nodes.booleanNode(random.nextBoolean());
      case ARRAY -> {
        var array = nodes.arrayNode();
        int max = node.maxItems() == null ? 3 : (int) Math.min(3, node.maxItems());
        int n = 1 + random.nextInt(Math.max(1, max));
        for (int i = 0; i < n; i++) {
          array.add(node.items() == null ? nodes.textNode(word()) : value(node.items(), depth + 1));
        }
        yield array;
      }
      case OBJECT -> {
        var o = nodes.objectNode();
        if (c.structured()) {
          var names = node.properties().keySet().stream().toList();
          for (var name : names) {
            if (node.isRequired(name) || random.nextInt(10) < 6) {
              o.set(name, value(node.properties().get(name), depth + 1));
            }
          }
          if (o.isEmpty()) {
            var name = names.get(random.nextInt(names.size()));
            o.set(name, value(node.properties().get(name), depth + 1));
          }
        } else {
          var values =
              node.additionalProperties() == null
                  ? SchemaNode.parse(Fixtures.yaml("{type: string}"))
                  : node.additionalProperties();
          int n = 1 + random.nextInt(3);
          for (int i = 0; i < n; i++) {
            o.set(word(), value(values, depth + 1));
          }
        }
        yield o;
      }
      case UNKNOWN -> nodes.textNode(word());
    };
  }

  private final java.util.Map<SchemaNode, dk.brics.automaton.Automaton> languages =
      new java.util.IdentityHashMap<>();

  /**
   * A random text the node's pattern and lengths admit: a random walk through their automaton,
   * preferring readable characters, checked against the real pattern (the automaton may admit
   * more); else the shortest admitted text.
   */
  private String within(SchemaNode node) {
    var language =
        languages.computeIfAbsent(node, n -> dev.versio.engine.schema.TextLanguage.admitted(n));
    for (int attempt = 0; attempt < 20; attempt++) {
      var state = language.getInitialState();
      var text = new StringBuilder();
      while (text.length() < 12) {
        var transitions =
            state.getTransitions().stream()
                .sorted(java.util.Comparator.comparing(t -> t.getMin()))
                .toList();
        if (transitions.isEmpty() || (state.isAccept() && random.nextInt(4) == 0)) {
          break;
        }
        var t = transitions.get(random.nextInt(transitions.size()));
        var readable = ALPHABET.chars().filter(c -> c >= t.getMin() && c <= t.getMax()).toArray();
        text.append(
            readable.length > 0
                ? (char) readable[random.nextInt(readable.length)]
                : (char) (t.getMin() + random.nextInt(t.getMax() - t.getMin() + 1)));
        state = t.getDest();
      }
      var value = nodesText(text);
      if (state.isAccept()
          && dev.versio.engine.schema.SchemaConformance.checkValue(value, node, "").isEmpty()) {
        return text.toString();
      }
    }
    var shortest = language.getShortestExample(true);
    return shortest == null ? word() : shortest;
  }

  private static JsonNode nodesText(CharSequence text) {
    return EngineJson.nodes().textNode(text.toString());
  }

  private String word() {
    int n = 1 + random.nextInt(8);
    var sb = new StringBuilder();
    sb.append(ALPHABET.charAt(random.nextInt(26)));
    for (int i = 1; i < n; i++) {
      sb.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
    }
    return sb.toString();
  }
}
