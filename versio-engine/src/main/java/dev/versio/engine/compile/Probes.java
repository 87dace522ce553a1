package dev.versio.engine.compile;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.versio.engine.json.EngineJson;
import dev.versio.engine.schema.Classification;
import dev.versio.engine.schema.LeafKind;
import dev.versio.engine.schema.SchemaConformance;
import dev.versio.engine.schema.SchemaNode;
import dev.versio.engine.schema.TextLanguage;
import dk.brics.automaton.BasicAutomata;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Values a schema node admits that are likely to expose a loss: spellings a parser normalises
 * ({@code "007"}, {@code " 5"}, {@code "True"}, {@code "1Gi"}), text holding a rule's own
 * separators and keys, several elements where one is expected, unknown keys, extra properties.
 * Every value conforms to the node (type, enum, pattern, lengths, maxItems, required); containers
 * are never empty (an empty container is treated like an absent one, as the reference engine does).
 * Deterministic, so a rejection names the same counterexample every time.
 */
final class Probes {
  private static final JsonNodeFactory NODES = EngineJson.nodes();

  /** In order of how well each shows a loss to a reader: the first that loses data is shown. */
  private static final List<String> TEXT =
      List.of(
          "a", "x y", "a,b", "90m", "1Gi", "007", "True", "1.0", "+5", " 5", "5 ", "1e3", "0x1F",
          "TRUE", "yes", "1000m", "0.5", "1k", "1h30m", "3600s", "1h", "05", "-0", "a b", "a;b",
          "a:b", "A", "-", "0", "1", "10", "1000", "");

  private static final List<Long> INTEGERS =
      List.of(0L, 1L, 7L, -1L, 42L, 1000L, 1024L, 5400L, 65535L, 123456789L);
  private static final List<String> NUMBERS =
      List.of("0.5", "1.5", "0.1", "3", "2.25", "1e-7", "1234.5678", "-2.5");
  private static final int MAX_DEPTH = 4;
  private static final int VARIANTS_PER_FIELD = 8;
  private static final int SINGLE_ELEMENTS = 40;

  private final List<String> literals;
  private final ProbeCache cache;
  // the values of every node already probed, per depth: a deep schema asks for the same element
  // schema again for every combination above it
  private final List<Map<SchemaNode, List<JsonNode>>> seen = new ArrayList<>();

  /**
   * @param literals text the rule itself names (separators, keys, mapped values): values holding
   *     them are tried too
   * @param cache the texts within patterns found by earlier rules of the same compile
   */
  Probes(List<String> literals, ProbeCache cache) {
    this.literals = List.copyOf(literals);
    this.cache = cache;
  }

  /** Probes of one rule alone (tests). */
  Probes(List<String> literals) {
    this(literals, new ProbeCache());
  }

  /** Whether {@link #values} is every value {@code node} admits (an enum, a boolean). */
  static boolean finite(SchemaNode node) {
    return node.construct() == null
        && (!node.enumValues().isEmpty()
            || (Classification.of(node).kind() == LeafKind.BOOLEAN && !node.intOrString()));
  }

  /** The probe values for {@code node}, each conforming to it, without duplicates. */
  List<JsonNode> values(SchemaNode node) {
    return values(node, 0);
  }

  private List<JsonNode> values(SchemaNode node, int depth) {
    while (seen.size() <= depth) {
      seen.add(new IdentityHashMap<>());
    }
    var known = seen.get(depth).get(node);
    if (known == null) {
      known = Collections.unmodifiableList(compute(node, depth));
      seen.get(depth).put(node, known);
    }
    return known;
  }

  private List<JsonNode> compute(SchemaNode node, int depth) {
    var out = new ArrayList<JsonNode>();
    for (var candidate : candidates(node, depth)) {
      if (SchemaConformance.checkValue(candidate, node, "").isEmpty()
          && out.stream().noneMatch(v -> EngineJson.sameValue(v, candidate))) {
        out.add(candidate);
      }
    }
    return out;
  }

  private List<JsonNode> candidates(SchemaNode node, int depth) {
    var out = new ArrayList<JsonNode>();
    if (!node.enumValues().isEmpty()) {
      node.enumValues().forEach(v -> out.add(v.deepCopy()));
      return out;
    }
    if (node.construct() != null) {
      out.add(NODES.textNode("a"));
      out.add(NODES.objectNode().put("a", "b"));
      return out;
    }
    if (node.intOrString()) {
      integers(out);
      texts(out);
      return out;
    }
    switch (Classification.of(node).kind()) {
      case STRING -> {
        texts(out);
        if (node.textBounds() != null) {
          textsWithin(node, out);
        }
      }
      case INTEGER -> {
        integers(out);
        bounds(node, true, out);
      }
      case NUMBER -> {
        NUMBERS.forEach(n -> out.add(NODES.numberNode(new BigDecimal(n))));
        integers(out);
        bounds(node, false, out);
      }
      case BOOLEAN -> {
        out.add(NODES.booleanNode(true));
        out.add(NODES.booleanNode(false));
      }
      case ARRAY -> arrays(node, depth, out);
      case OBJECT -> objects(node, depth, out);
      case UNKNOWN -> {
        texts(out);
        integers(out);
        out.add(NODES.objectNode().put("x", "y"));
      }
    }
    return out;
  }

  private void texts(List<JsonNode> out) {
    TEXT.forEach(t -> out.add(NODES.textNode(t)));
    for (var literal : literals) {
      out.add(NODES.textNode(literal));
      out.add(NODES.textNode("a" + literal + "b"));
      out.add(NODES.textNode(literal + literal));
      out.add(NODES.textNode("a" + literal));
    }
  }

  /**
   * For a pattern or length: the shortest admitted text holding each probe text, so that the probes
   * still reach values the schema allows (e.g. {@code "00"} for {@code ^[0-9]+$}).
   */
  private void textsWithin(SchemaNode node, List<JsonNode> out) {
    cache
        .textsWithin(node.textBounds(), literals, () -> findTextsWithin(node))
        .forEach(t -> out.add(NODES.textNode(t)));
  }

  private List<String> findTextsWithin(SchemaNode node) {
    var found = new ArrayList<String>();
    var admitted = TextLanguage.admitted(node);
    var any = BasicAutomata.makeAnyString();
    var holding = new ArrayList<String>(TEXT);
    holding.addAll(literals);
    for (var text : holding) {
      var example =
          admitted
              .intersection(any.concatenate(BasicAutomata.makeString(text)).concatenate(any))
              .getShortestExample(true);
      if (example != null) {
        found.add(example);
      }
    }
    return found;
  }

  /**
   * The values at and just inside a declared {@code minimum} and {@code maximum}, so that a field
   * whose range excludes every usual probe (e.g. a port under {@code minimum: 1024}) is still
   * probed, and with values that sit on the edge a scaling rule may cross.
   */
  private static void bounds(SchemaNode node, boolean integer, List<JsonNode> out) {
    var range = node.numberRange();
    if (range == null) {
      return;
    }
    var step = integer ? BigDecimal.ONE : new BigDecimal("0.5");
    for (var edge : new BigDecimal[] {range.minimum(), range.maximum()}) {
      if (edge == null) {
        continue;
      }
      for (var candidate : new BigDecimal[] {edge, edge.add(step), edge.subtract(step)}) {
        if (integer && candidate.stripTrailingZeros().scale() > 0) {
          continue;
        }
        out.add(
            integer
                ? EngineJson.integerNode(candidate.toBigIntegerExact())
                : NODES.numberNode(candidate));
      }
    }
  }

  private static void integers(List<JsonNode> out) {
    INTEGERS.forEach(i -> out.add(EngineJson.integerNode(i)));
  }

  private void arrays(SchemaNode node, int depth, List<JsonNode> out) {
    var items = node.items() == null ? SchemaNode.empty() : node.items();
    var elements = depth >= MAX_DEPTH ? first(values(items, depth + 1)) : values(items, depth + 1);
    for (int i = 0; i < Math.min(elements.size(), SINGLE_ELEMENTS); i++) {
      out.add(array(elements.get(i)));
    }
    if (elements.size() >= 2) {
      out.add(array(elements.get(0), elements.get(1)));
      out.add(array(elements.get(1), elements.get(0)));
    }
    if (!elements.isEmpty()) {
      out.add(array(elements.get(0), elements.get(0)));
    }
  }

  private void objects(SchemaNode node, int depth, List<JsonNode> out) {
    if (!node.properties().isEmpty()) {
      var choices = new ArrayList<List<JsonNode>>();
      for (var property : node.properties().values()) {
        var values = values(property, depth + 1);
        choices.add(depth >= MAX_DEPTH ? first(values) : values);
      }
      var names = new ArrayList<>(node.properties().keySet());
      var full = NODES.objectNode();
      for (int i = 0; i < names.size(); i++) {
        if (!choices.get(i).isEmpty()) {
          full.set(names.get(i), choices.get(i).getFirst().deepCopy());
        }
      }
      out.add(full);
      for (int i = 0; i < names.size(); i++) {
        var values = choices.get(i);
        int shown = Math.min(values.size(), VARIANTS_PER_FIELD + 1);
        for (int v = 1; v < shown; v++) {
          out.add(full.deepCopy().set(names.get(i), values.get(v).deepCopy()));
        }
        // an array field also shows that it may hold more than one element (its single-element
        // probes come first and may fill the variants): a singleton unwrapped inside needs it
        var name = names.get(i);
        values.stream()
            .skip(shown)
            .filter(v -> v.isArray() && v.size() > 1)
            .findFirst()
            .ifPresent(v -> out.add(full.deepCopy().set(name, v.deepCopy())));
        if (!node.isRequired(names.get(i)) && names.size() > 1) {
          var without = full.deepCopy();
          without.remove(names.get(i));
          out.add(without);
        }
      }
      if (node.preserveUnknownFields()) {
        out.add(full.deepCopy().put("zz-unknown", "a"));
      }
      return;
    }
    if (node.additionalProperties() != null) {
      var values = values(node.additionalProperties(), depth + 1);
      var keys = new ArrayList<String>(List.of("zz", "a"));
      keys.addAll(literals);
      for (int i = 0; i < Math.min(values.size(), VARIANTS_PER_FIELD); i++) {
        out.add(NODES.objectNode().set("zz", values.get(i).deepCopy()));
      }
      for (var key : keys) {
        if (!values.isEmpty()) {
          out.add(NODES.objectNode().set(key, values.getFirst().deepCopy()));
        }
      }
      if (values.size() >= 2) {
        var two = NODES.objectNode();
        two.set("a", values.get(0).deepCopy());
        two.set("b", values.get(1).deepCopy());
        out.add(two);
      }
      return;
    }
    out.add(NODES.objectNode().put("x", "y"));
    out.add(NODES.objectNode().put("x", 1));
  }

  private static ArrayNode array(JsonNode... elements) {
    var array = NODES.arrayNode();
    for (var e : elements) {
      array.add(e.deepCopy());
    }
    return array;
  }

  private static List<JsonNode> first(List<JsonNode> values) {
    return values.isEmpty() ? values : List.of(values.getFirst());
  }
}
