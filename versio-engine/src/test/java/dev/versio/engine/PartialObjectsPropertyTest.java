package dev.versio.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.versio.engine.json.EngineJson;
import dev.versio.engine.rule.ConversionConfig;
import dev.versio.engine.rule.Rule;
import dev.versio.engine.runtime.ConversionException;
import dev.versio.engine.schema.SchemaNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Server-side apply sends partial objects through conversion: the fields one manager owns, at times
 * without {@code metadata} (kubernetes issues 117260, 117356, 117357). For every example story and
 * every sample, objects that lack random subsets of their fields convert to every other served
 * version without a failure, and every field of the result is what the whole sample's conversion
 * gives there, or what the conversion of an object with no field at all gives there (a default or a
 * constant a rule writes when its source is absent). The seed is printed; rerun one with {@code
 * -Dversio.seed=<seed>}.
 */
class PartialObjectsPropertyTest {
  private static final int SUBSETS_PER_DIRECTION = 200;
  private static final long SEED = Long.getLong("versio.seed", System.nanoTime());
  private static final ObjectMapper JSON = EngineJson.newMapper();

  static Stream<Path> stories() throws IOException {
    System.out.println(
        "PartialObjectsPropertyTest seed: " + SEED + " (rerun with -Dversio.seed=" + SEED + ")");
    return ExampleStories.folders();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("stories")
  void objectsLackingAnySubsetOfTheirFieldsConvertToTheWholeObjectsFields(Path folder)
      throws IOException {
    var story = ExampleStories.load(folder);
    var outcome = check(story, new Random(SEED ^ folder.getFileName().toString().hashCode()));
    assertThat(outcome.problems()).as("%s: partial objects (seed %d)", story, SEED).isEmpty();
    assertThat(outcome.checked()).as("partial objects converted").isGreaterThanOrEqualTo(200);
    assertThat(outcome.incomplete())
        .as("partial objects refused for a rule with only some of its sources")
        .isLessThan(outcome.checked());
  }

  /**
   * The negative control: a CEL rule that, guarded with {@code has()}, writes another value when
   * one of its sources is absent than the whole object gives. The check must catch it.
   */
  @Test
  void aRuleThatWritesAnotherValueForAPartialObjectIsCaught(@TempDir Path folder)
      throws IOException {
    Files.writeString(
        folder.resolve("crd.yaml"),
        """
        apiVersion: apiextensions.k8s.io/v1
        kind: CustomResourceDefinition
        metadata: {name: widgets.example.com}
        spec:
          group: example.com
          names: {kind: Widget, plural: widgets, singular: widget, listKind: WidgetList}
          scope: Namespaced
          versions:
          - name: v1
            served: true
            storage: true
            schema:
              openAPIV3Schema:
                type: object
                properties:
                  spec: {type: object, properties: {a: {type: string}, b: {type: string}}}
          - name: v2
            served: true
            storage: false
            schema:
              openAPIV3Schema:
                type: object
                properties:
                  spec: {type: object, properties: {x: {type: string}, y: {type: string}}}
        """);
    Files.writeString(
        folder.resolve("config.yaml"),
        """
        apiVersion: versio.dev/v1alpha1
        kind: CRDConversionConfig
        metadata: {name: widgets.example.com}
        spec:
          targetCRD: {name: widgets.example.com}
          hubVersion: v1
          spokes:
          - version: v2
            rules:
            - strategy: CEL
              cel:
                hubPaths: [spec.a, spec.b]
                spokePaths: [spec.x, spec.y]
                hubToSpoke: 'has(object.spec.b) ? {"spec.x": object.spec.a, "spec.y": object.spec.b} : {"spec.x": object.spec.a + "!"}'
                spokeToHub: 'has(object.spec.y) ? {"spec.a": object.spec.x, "spec.b": object.spec.y} : {"spec.a": object.spec.x}'
              acknowledgeLossy: true
              reason: the negative control of the partial-object check
        """);
    Files.createDirectories(folder.resolve("samples"));
    Files.writeString(
        folder.resolve("samples/w.v1.yaml"),
        """
        apiVersion: example.com/v1
        kind: Widget
        metadata: {name: w}
        spec: {a: p, b: q}
        """);
    var outcome = check(ExampleStories.load(folder), new Random(SEED));
    assertThat(outcome.problems())
        .as("seed %d", SEED)
        .anySatisfy(p -> assertThat(p).contains("/spec/x is \"p!\", the whole object gives \"p\""));
  }

  /** What checking one story found: problems, objects converted, objects refused as incomplete. */
  private record Outcome(List<String> problems, int checked, int incomplete) {}

  private static Outcome check(ExampleStories.Story story, Random random) {
    var problems = new ArrayList<String>();
    int checked = 0;
    int incomplete = 0;
    for (var sample : story.samples().entrySet()) {
      for (var from : sample.getValue().entrySet()) {
        var whole = from.getValue();
        var bare = bare(whole);
        for (var to : story.versions()) {
          if (to.equals(from.getKey())) {
            continue;
          }
          var aliased = aliasDestinations(story.config(), from.getKey(), to);
          var schema = story.schema(to);
          var wholeOut =
              leaves(story.router().convert(whole.deepCopy(), from.getKey(), to), schema);
          Map<String, JsonNode> bareOut;
          try {
            bareOut = leaves(story.router().convert(bare.deepCopy(), from.getKey(), to), schema);
          } catch (ConversionException e) {
            problems.add(
                "%s %s -> %s failed on an object with no field: %s"
                    .formatted(sample.getKey(), from.getKey(), to, e.getMessage()));
            continue;
          }
          for (int i = 0; i < SUBSETS_PER_DIRECTION && problems.size() < 10; i++) {
            var partial = partial(whole, story.schema(from.getKey()), random);
            JsonNode out;
            try {
              out = story.router().convert(partial.deepCopy(), from.getKey(), to);
            } catch (ConversionException e) {
              if (e.incompleteInput()) {
                incomplete++;
                continue;
              }
              problems.add(
                  "%s %s -> %s failed: %s%n  partial object: %s"
                      .formatted(sample.getKey(), from.getKey(), to, e.getMessage(), partial));
              continue;
            }
            for (var leaf : leaves(out, schema).entrySet()) {
              var path = leaf.getKey();
              if (path.equals("/apiVersion") || aliased.contains(path)) {
                continue;
              }
              if (!sameValue(wholeOut.get(path), leaf.getValue())
                  && !sameValue(bareOut.get(path), leaf.getValue())
                  && !partOfJsonText(leaf.getValue(), wholeOut.get(path))) {
                problems.add(
                    "%s %s -> %s: %s is %s, the whole object gives %s and one with no field %s%n"
                            .formatted(
                                sample.getKey(),
                                from.getKey(),
                                to,
                                path,
                                leaf.getValue(),
                                wholeOut.get(path),
                                bareOut.get(path))
                        + "  partial object: %s%n  converted:      %s".formatted(partial, out));
                break;
              }
            }
            checked++;
          }
        }
      }
    }
    return new Outcome(problems, checked, incomplete);
  }

  /**
   * The hub fields a rename with aliases writes when converting from that spoke to the hub: from a
   * partial object, the alias that is present gives the value, which the whole object's preferred
   * field may override.
   */
  private static Set<String> aliasDestinations(ConversionConfig config, String from, String to) {
    var out = new HashSet<String>();
    if (!to.equals(config.hubVersion())) {
      return out;
    }
    for (var spoke : config.spokes()) {
      if (!spoke.version().equals(from)) {
        continue;
      }
      for (var rule : spoke.rules()) {
        if (rule instanceof Rule.FieldRename rename && !rename.spokeAliases().isEmpty()) {
          out.add("/" + String.join("/", rename.hubPath().segments()));
        }
      }
    }
    return out;
  }

  /**
   * Whether {@code partial} and {@code whole} are JSON texts of objects and every field of the
   * first is in the second with the same value (a stash annotation of a partial object).
   */
  private static boolean partOfJsonText(JsonNode partial, JsonNode whole) {
    if (whole == null || !partial.isTextual() || !whole.isTextual()) {
      return false;
    }
    try {
      var part = JSON.readTree(partial.asText());
      var all = leaves(JSON.readTree(whole.asText()));
      return part.isObject()
          && leaves(part).entrySet().stream()
              .allMatch(e -> sameValue(all.get(e.getKey()), e.getValue()));
    } catch (JsonProcessingException e) {
      return false;
    }
  }

  /** Only what identifies the object's type: no metadata, spec or status. */
  private static ObjectNode bare(JsonNode whole) {
    var bare = EngineJson.nodes().objectNode();
    bare.set("apiVersion", whole.get("apiVersion"));
    bare.set("kind", whole.get("kind"));
    return bare;
  }

  /**
   * A copy of {@code whole} lacking a random subset of the fields server-side apply tracks one by
   * one, each removed at one random rate: the properties of an object, the keys of a map (and of
   * {@code metadata}, {@code labels}, {@code annotations}), the fields of a list-map element except
   * its keys (elements keep their places); an atomic list or a set goes whole or stays whole, as it
   * is one field to a field manager. A declared object or array that goes is now and then left as
   * {@code null}, as the apiserver sends a pruned one. Its apiVersion and kind stay; now and then
   * metadata goes entirely or is left empty, as server-side apply sends it (kubernetes issue
   * 117356).
   */
  private static ObjectNode partial(JsonNode whole, SchemaNode schema, Random random) {
    var copy = (ObjectNode) whole.deepCopy();
    double rate = 0.1 + 0.8 * random.nextDouble();
    prune(copy, schema, List.of("apiVersion", "kind"), random, rate);
    switch (random.nextInt(4)) {
      case 0 -> copy.remove("metadata");
      case 1 -> copy.putObject("metadata");
      default -> {}
    }
    return copy;
  }

  private static void prune(
      JsonNode node, SchemaNode schema, List<String> kept, Random random, double rate) {
    if (node instanceof ObjectNode object) {
      var names = new ArrayList<String>();
      object.fieldNames().forEachRemaining(names::add);
      for (var name : names) {
        if (kept.contains(name)) {
          continue;
        }
        if (random.nextDouble() < rate) {
          if (declaredContainer(schema, name) && random.nextBoolean()) {
            object.putNull(name); // how server-side apply sends a map or list it pruned
          } else {
            object.remove(name);
          }
        } else {
          prune(object.get(name), childSchema(schema, name), List.of(), random, rate);
        }
      }
    } else if (node instanceof ArrayNode array && "map".equals(schema.listType())) {
      var items = schema.items() == null ? SchemaNode.empty() : schema.items();
      array.forEach(element -> prune(element, items, schema.listMapKeys(), random, rate));
    }
  }

  /** Whether the schema declares property {@code name} as an object or array, not nullable. */
  private static boolean declaredContainer(SchemaNode schema, String name) {
    var declared = schema.property(name);
    var type = declared.flatMap(SchemaNode::type).orElse("");
    return (type.equals("object") || type.equals("array")) && !declared.get().nullable();
  }

  /** The schema of property {@code name}: declared, else the map's values, else none. */
  private static SchemaNode childSchema(SchemaNode schema, String name) {
    return schema
        .property(name)
        .orElse(
            schema.additionalProperties() != null
                ? schema.additionalProperties()
                : SchemaNode.empty());
  }

  /**
   * Path of every scalar -> its value (an empty object or array is no field: pruning leaves them
   * behind in the input, and the conversion keeps them). An element of a list-map is named by its
   * keys, e.g. {@code /spec/quotaList/[resource=cpu]/limit}, since a partial list holds fewer
   * elements at other places; other elements by their index.
   */
  private static Map<String, JsonNode> leaves(JsonNode node, SchemaNode schema) {
    var out = new LinkedHashMap<String, JsonNode>();
    leaves(node, schema, "", out);
    return out;
  }

  private static Map<String, JsonNode> leaves(JsonNode node) {
    return leaves(node, SchemaNode.empty());
  }

  private static void leaves(
      JsonNode node, SchemaNode schema, String path, Map<String, JsonNode> out) {
    if (node.isObject()) {
      node.properties()
          .forEach(
              e ->
                  leaves(
                      e.getValue(),
                      childSchema(schema, e.getKey()),
                      path + "/" + e.getKey().replace("~", "~0").replace("/", "~1"),
                      out));
    } else if (node.isArray()) {
      var items = schema.items() == null ? SchemaNode.empty() : schema.items();
      boolean keyed = "map".equals(schema.listType()) && !schema.listMapKeys().isEmpty();
      for (int i = 0; i < node.size(); i++) {
        var element = node.get(i);
        var name = String.valueOf(i);
        if (keyed) {
          var keys = new StringBuilder();
          for (var key : schema.listMapKeys()) {
            keys.append(keys.isEmpty() ? "" : ",").append(key).append('=').append(element.get(key));
          }
          name = "[" + keys + "]";
        }
        leaves(element, items, path + "/" + name, out);
      }
    } else {
      out.put(path, node);
    }
  }

  private static boolean sameValue(JsonNode expected, JsonNode actual) {
    return expected != null && EngineJson.sameValue(expected, actual);
  }
}
