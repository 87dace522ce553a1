package dev.versio.api.crd;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.versio.engine.rule.RuleParser;
import dev.versio.engine.rule.Strategy;
import dev.versio.engine.rule.catalog.ParamSpec;
import dev.versio.engine.rule.catalog.ParamType;
import dev.versio.engine.rule.catalog.StrategyCatalog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.FieldSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The typed rule schema is generated from the engine's catalog, must stay a structural schema the
 * apiserver accepts, and must accept every example the catalog documents.
 */
class RuleSchemaTest {
  static final List<String> CONFIG_CRDS = TypedRules.CONFIG_CRDS;

  private static final YAMLMapper YAML = new YAMLMapper();

  @ParameterizedTest
  @FieldSource("CONFIG_CRDS")
  void theGeneratedConfigCrdsAreStructuralSchemasWithTypedRules(String file) throws IOException {
    var crd = YAML.readTree(Path.of("target/classes/META-INF/fabric8", file).toFile());
    for (var version : crd.path("spec").path("versions")) {
      var schema = version.path("schema").path("openAPIV3Schema");
      assertThat(structuralProblems(schema, "openAPIV3Schema", true)).isEmpty();
      var rules =
          schema.at("/properties/spec/properties/spokes/items/properties/rules/items/properties");
      assertThat(rules.path("fieldRename").path("properties").has("hubPath")).isTrue();
    }
  }

  @Test
  void theStrategiesOfTheSchemaAreTheEnginesRecordsAndBlocks() {
    var rule = RuleSchema.rules().path("items");
    var enumValues = new TreeSet<String>();
    rule.at("/properties/strategy/enum").forEach(v -> enumValues.add(v.asText()));
    var wireNames = new TreeSet<String>();
    var recordNames = new TreeSet<String>();
    for (var s : Strategy.values()) {
      wireNames.add(s.wireName());
      recordNames.add(s.recordType().getSimpleName());
    }
    assertThat(enumValues).hasSize(30).isEqualTo(wireNames).isEqualTo(recordNames);
    var keys = new TreeSet<String>();
    rule.path("properties").fieldNames().forEachRemaining(keys::add);
    var expected = new TreeSet<>(StrategyCatalog.RULE_KEYS.keySet());
    Arrays.stream(Strategy.values()).map(Strategy::paramsKey).forEach(expected::add);
    assertThat(keys).isEqualTo(expected);
    assertThat(rule.path("required")).containsExactly(YAML.getNodeFactory().textNode("strategy"));
  }

  @ParameterizedTest
  @EnumSource(Strategy.class)
  void eachParamsBlockDeclaresTheCatalogsParametersWithTheirTypes(Strategy strategy) {
    var spec = StrategyCatalog.of(strategy);
    var block = RuleSchema.rules().at("/items/properties/" + strategy.paramsKey());
    assertThat(block.path("type").asText()).isEqualTo("object");
    var names = new ArrayList<String>();
    block.path("properties").fieldNames().forEachRemaining(names::add);
    assertThat(names).containsExactlyElementsOf(spec.paramNames());
    var required = new ArrayList<String>();
    block.path("required").forEach(r -> required.add(r.asText()));
    assertThat(required)
        .containsExactlyElementsOf(
            spec.params().stream().filter(ParamSpec::required).map(ParamSpec::name).toList());
    for (var p : spec.params()) {
      var node = block.path("properties").path(p.name());
      assertThat(node.path("description").asText()).as(p.name()).startsWith(p.description());
      if (p.type() == ParamType.CHOICE) {
        var values = new ArrayList<String>();
        node.path("enum").forEach(v -> values.add(v.asText()));
        assertThat(values).as(p.name()).isEqualTo(p.choices());
      }
    }
  }

  @Test
  void aForEachNestsOneMoreForEachAndTheInnermostRulesOfferNone() {
    JsonNode level = RuleSchema.rules();
    for (int depth = 0; depth < RuleParser.MAX_FOREACH_DEPTH; depth++) {
      assertThat(strategies(level)).as("depth %d", depth).contains("ForEach");
      level = level.at("/items/properties/forEach/properties/rules");
      assertThat(level.path("type").asText()).isEqualTo("array");
    }
    assertThat(strategies(level)).hasSize(29).doesNotContain("ForEach");
    assertThat(level.at("/items/properties").has("forEach")).isFalse();
  }

  @ParameterizedTest
  @EnumSource(Strategy.class)
  void theCatalogsExampleConformsToTheSchemaWithoutAnyKeyPruned(Strategy strategy)
      throws IOException {
    var example = YAML.readTree(StrategyCatalog.of(strategy).example().rule()).get(0);
    assertThat(conformanceProblems(example, RuleSchema.rules().path("items"), "rule")).isEmpty();
  }

  static List<Path> storyConfigs() throws IOException {
    try (var files = Files.walk(repositoryRoot().resolve("examples"))) {
      return files
          .filter(f -> f.getFileName().toString().equals("config.yaml"))
          .filter(f -> !f.toString().contains("mistakes"))
          .sorted()
          .toList();
    }
  }

  @ParameterizedTest
  @MethodSource("storyConfigs")
  void everyExampleStorysRulesConformToTheSchema(Path config) throws IOException {
    var spokes = YAML.readTree(config.toFile()).path("spec").path("spokes");
    assertThat(spokes).isNotEmpty();
    for (var spoke : spokes) {
      for (int i = 0; i < spoke.path("rules").size(); i++) {
        assertThat(
                conformanceProblems(
                    spoke.path("rules").get(i),
                    RuleSchema.rules().path("items"),
                    spoke.path("version").asText() + " rules[" + i + "]"))
            .isEmpty();
      }
    }
  }

  private static Path repositoryRoot() {
    var dir = Path.of("").toAbsolutePath();
    while (dir != null && !Files.isDirectory(dir.resolve("examples"))) {
      dir = dir.getParent();
    }
    return dir == null ? Path.of("..") : dir;
  }

  @Test
  void theConformanceCheckFindsWrongTypesMissingKeysUnknownKeysAndValuesOutsideTheEnum()
      throws IOException {
    var bad =
        YAML.readTree(
            "{strategy: fieldRename, fieldRename: {hubPath: 5, spokePat: b}, acknowledgeLossy: x}");
    assertThat(conformanceProblems(bad, RuleSchema.rules().path("items"), "rule"))
        .containsExactlyInAnyOrder(
            "rule.strategy: fieldRename is not one of the enum",
            "rule.fieldRename.hubPath: expected string",
            "rule.fieldRename: spokePath is required",
            "rule.fieldRename.spokePat: unknown key (the apiserver prunes it)",
            "rule.acknowledgeLossy: expected boolean");
  }

  @Test
  void theStructuralCheckFindsWhatTheApiserverRejects() throws IOException {
    var schema =
        YAML.readTree(
            """
            type: object
            properties:
              untyped: {description: no type}
              list: {type: array}
              both: {type: object, properties: {a: {type: string}}, additionalProperties: {type: string}}
              kept: {type: string, x-kubernetes-preserve-unknown-fields: true}
              either: {type: object, oneOf: [{required: [a]}]}
              missing: {type: object, required: [b]}
            """);
    assertThat(structuralProblems(schema, "s", true))
        .containsExactlyInAnyOrder(
            "s.properties.untyped: no type",
            "s.properties.list: an array without items",
            "s.properties.both: properties and additionalProperties together",
            "s.properties.kept: keeps unknown fields but is a string",
            "s.properties.either: uses oneOf",
            "s.properties.missing: requires undeclared b");
  }

  private static List<String> strategies(JsonNode rules) {
    var names = new ArrayList<String>();
    rules.at("/items/properties/strategy/enum").forEach(v -> names.add(v.asText()));
    return names;
  }

  /**
   * What the apiserver would reject in a CRD schema that must be structural: a node without a type
   * (unless it keeps unknown fields or is int-or-string), an array without items, properties next
   * to additionalProperties, logic junctors, references, required keys it does not declare, and
   * x-kubernetes-preserve-unknown-fields on a node that is not an object.
   */
  static List<String> structuralProblems(JsonNode node, String at, boolean root) {
    var problems = new ArrayList<String>();
    boolean preserve = node.path("x-kubernetes-preserve-unknown-fields").asBoolean(false);
    boolean intOrString = node.path("x-kubernetes-int-or-string").asBoolean(false);
    var type = node.path("type").asText("");
    if (type.isEmpty() && !preserve && !intOrString) {
      problems.add(at + ": no type");
    }
    if (root && !type.equals("object")) {
      problems.add(at + ": the root must be an object");
    }
    if (preserve && !type.isEmpty() && !type.equals("object")) {
      problems.add(at + ": keeps unknown fields but is a " + type);
    }
    if (node.has("x-kubernetes-preserve-unknown-fields") && !preserve) {
      problems.add(at + ": x-kubernetes-preserve-unknown-fields must be true or absent");
    }
    for (var banned : List.of("$ref", "allOf", "anyOf", "oneOf", "not", "definitions")) {
      if (node.has(banned)) {
        problems.add(at + ": uses " + banned);
      }
    }
    if (type.equals("array") && !node.path("items").isObject()) {
      problems.add(at + ": an array without items");
    }
    if (node.has("properties") && node.has("additionalProperties")) {
      problems.add(at + ": properties and additionalProperties together");
    }
    if (node.has("enum") && !type.equals("string")) {
      problems.add(at + ": an enum on a " + type);
    }
    for (var required : node.path("required")) {
      if (!node.path("properties").has(required.asText())) {
        problems.add(at + ": requires undeclared " + required.asText());
      }
    }
    node.path("properties")
        .properties()
        .forEach(
            e ->
                problems.addAll(
                    structuralProblems(e.getValue(), at + ".properties." + e.getKey(), false)));
    if (node.path("items").isObject()) {
      problems.addAll(structuralProblems(node.path("items"), at + ".items", false));
    }
    if (node.path("additionalProperties").isObject()) {
      problems.addAll(
          structuralProblems(
              node.path("additionalProperties"), at + ".additionalProperties", false));
    }
    return problems;
  }

  /** Where {@code value} breaks {@code schema}: the checks the apiserver makes on rules. */
  static List<String> conformanceProblems(JsonNode value, JsonNode schema, String at) {
    var problems = new ArrayList<String>();
    if (schema.path("x-kubernetes-preserve-unknown-fields").asBoolean(false)
        && !schema.has("type")) {
      return problems;
    }
    var type = schema.path("type").asText();
    boolean fits =
        switch (type) {
          case "object" -> value.isObject();
          case "array" -> value.isArray();
          case "string" -> value.isTextual();
          case "boolean" -> value.isBoolean();
          case "number" -> value.isNumber();
          case "integer" -> value.isIntegralNumber();
          default -> false;
        };
    if (!fits) {
      problems.add(at + ": expected " + type);
      return problems;
    }
    if (schema.has("enum")) {
      var allowed = new TreeSet<String>();
      schema.path("enum").forEach(v -> allowed.add(v.asText()));
      if (!allowed.contains(value.asText())) {
        problems.add(at + ": " + value.asText() + " is not one of the enum");
      }
    }
    if (type.equals("array")) {
      for (int i = 0; i < value.size(); i++) {
        problems.addAll(
            conformanceProblems(value.get(i), schema.path("items"), at + "[" + i + "]"));
      }
    }
    if (type.equals("object")) {
      for (var required : schema.path("required")) {
        if (!value.has(required.asText())) {
          problems.add(at + ": " + required.asText() + " is required");
        }
      }
      Set<String> declared = new TreeSet<>();
      schema.path("properties").fieldNames().forEachRemaining(declared::add);
      value
          .properties()
          .forEach(
              e -> {
                var key = e.getKey();
                if (declared.contains(key)) {
                  problems.addAll(
                      conformanceProblems(
                          e.getValue(), schema.path("properties").path(key), at + "." + key));
                } else if (schema.path("additionalProperties").isObject()) {
                  problems.addAll(
                      conformanceProblems(
                          e.getValue(), schema.path("additionalProperties"), at + "." + key));
                } else if (!schema.path("x-kubernetes-preserve-unknown-fields").asBoolean(false)) {
                  problems.add(at + "." + key + ": unknown key (the apiserver prunes it)");
                }
              });
    }
    return problems;
  }
}
