package dev.versio.operator.config;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.versio.api.config.CRDConversionConfig;
import dev.versio.api.config.ConversionConfigSpec;
import dev.versio.api.config.XRDConversionConfig;
import dev.versio.engine.json.EngineJson;
import dev.versio.operator.config.ConfigAnalyzer.Result;
import dev.versio.operator.status.Analysis;
import dev.versio.testkit.stories.ExampleStory;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class ConfigAnalyzerTest {
  private static final YAMLMapper YAML = EngineJson.configure(YAMLMapper.builder()).build();
  private final ConfigAnalyzer analyzer = new ConfigAnalyzer();

  /** An example file (e.g. {@code field-rename/crd.yaml}) as a tree. */
  private static ObjectNode example(String file) {
    try {
      return (ObjectNode)
          YAML.readTree(ExampleStory.repositoryRoot().resolve("examples").resolve(file).toFile());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static ConversionConfigSpec crdConfig(JsonNode config) {
    try {
      return YAML.treeToValue(config, CRDConversionConfig.class).getSpec();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static TargetView target(JsonNode object) {
    return TargetView.of(
        Serialization.unmarshal(object.toString(), GenericKubernetesResource.class));
  }

  private Result analyze(JsonNode config, JsonNode crd) {
    return analyzer.analyze(crdConfig(config), target(crd), false);
  }

  private Analysis analyzed(JsonNode config, JsonNode crd) {
    var result = analyze(config, crd);
    assertThat(result).isInstanceOf(Result.Analyzed.class);
    return ((Result.Analyzed) result).analysis();
  }

  private static ObjectNode storyConfig() {
    return example("field-rename/config.yaml");
  }

  private static ObjectNode storyCrd() {
    return example("field-rename/crd.yaml");
  }

  @Test
  void theFieldRenameStoryAnalysesLosslessWithoutErrors() {
    var analysis = analyzed(storyConfig(), storyCrd());

    assertThat(analysis.errors()).isEmpty();
    assertThat(analysis.hasErrors()).isFalse();
    assertThat(analysis.overallLossless()).isTrue();
    assertThat(analysis.spokes()).hasSize(1);
    var spoke = analysis.spokes().getFirst();
    assertThat(spoke.version).isEqualTo("v1");
    assertThat(spoke.hubToSpokeLossless).isTrue();
    assertThat(spoke.spokeToHubLossless).isTrue();
    assertThat(spoke.fieldsUncoveredHub).isEmpty();
    assertThat(spoke.fieldsUncoveredSpoke).isEmpty();
    assertThat(spoke.errors).isEmpty();
  }

  @Test
  void theCrossplaneStoryAnalysesAgainstItsXrd() throws IOException {
    var config = example("crossplane-xr/config.yaml");
    var spec = YAML.treeToValue(config, XRDConversionConfig.class).getSpec();

    var result = analyzer.analyze(spec, target(example("crossplane-xr/xrd.yaml")), true);

    assertThat(result).isInstanceOf(Result.Analyzed.class);
    assertThat(((Result.Analyzed) result).analysis().errors()).isEmpty();
  }

  @Test
  void theSchemaHashIsAStableSha256OfTheInputs() {
    var first = analyzed(storyConfig(), storyCrd()).schemaHash();
    var again = analyzed(storyConfig(), storyCrd()).schemaHash();
    var fresh =
        ((Result.Analyzed)
                new ConfigAnalyzer().analyze(crdConfig(storyConfig()), target(storyCrd()), false))
            .analysis()
            .schemaHash();

    assertThat(first).matches(Pattern.compile("sha256:[A-Za-z0-9_-]{43}"));
    assertThat(again).isEqualTo(first);
    assertThat(fresh).isEqualTo(first);
  }

  @Test
  void theSchemaHashDoesNotDependOnTheOrderOfKeys() {
    var reordered = storyConfig();
    var rule = (ObjectNode) reordered.at("/spec/spokes/0/rules/0");
    var strategy = rule.remove("strategy");
    rule.set("strategy", strategy);

    assertThat(analyzed(reordered, storyCrd()).schemaHash())
        .isEqualTo(analyzed(storyConfig(), storyCrd()).schemaHash());
  }

  @Test
  void theSchemaHashChangesWhenTheConfigChanges() {
    var changed = storyConfig();
    ((ObjectNode) changed.get("spec")).put("driftPolicy", "FailClosed");

    assertThat(analyzed(changed, storyCrd()).schemaHash())
        .isNotEqualTo(analyzed(storyConfig(), storyCrd()).schemaHash());
  }

  @Test
  void theSchemaHashChangesWhenTheTargetsVersionsChange() {
    var drifted = storyCrd();
    ((ObjectNode) drifted.at("/spec/versions/1/schema/openAPIV3Schema/properties/spec/properties"))
        .putObject("region")
        .put("type", "string");

    var before = analyzed(storyConfig(), storyCrd()).schemaHash();
    var after = analyze(storyConfig(), drifted);

    assertThat(after).isInstanceOf(Result.Analyzed.class);
    assertThat(((Result.Analyzed) after).analysis().schemaHash()).isNotEqualTo(before);
  }

  @Test
  void theSchemaHashIgnoresWhatIsNotAVersion() {
    var relabelled = storyCrd();
    ((ObjectNode) relabelled.get("metadata")).putObject("labels").put("team", "cache");
    relabelled.putObject("status").putArray("conditions").addObject().put("type", "Established");

    assertThat(analyzed(storyConfig(), relabelled).schemaHash())
        .isEqualTo(analyzed(storyConfig(), storyCrd()).schemaHash());
  }

  @Test
  void aRuleWithAnUnknownStrategyIsUnparseableNamingIt() {
    var config = storyConfig();
    ((ObjectNode) config.at("/spec/spokes/0/rules/0")).put("strategy", "Teleport");

    var result = analyze(config, storyCrd());

    assertThat(result).isInstanceOf(Result.Unparseable.class);
    assertThat(((Result.Unparseable) result).message())
        .startsWith("invalid rules: 1 error(s): ")
        .contains("UNKNOWN_STRATEGY")
        .contains("unknown strategy 'Teleport'");
  }

  @Test
  void aFieldAddedToTheHubThatNoRuleCoversIsAnError() {
    var drifted = storyCrd();
    ((ObjectNode) drifted.at("/spec/versions/1/schema/openAPIV3Schema/properties/spec/properties"))
        .putObject("region")
        .put("type", "string");

    var analysis = analyzed(storyConfig(), drifted);

    assertThat(analysis.hasErrors()).isTrue();
    assertThat(analysis.errors()).anyMatch(e -> e.contains("spec.region"));
  }

  static Stream<String> mistakes() throws IOException {
    try (var files = Files.list(ExampleStory.repositoryRoot().resolve("examples/mistakes"))) {
      return files
          .map(f -> f.getFileName().toString())
          .filter(n -> n.endsWith(".yaml") && !n.equals("crd.yaml"))
          .sorted()
          .toList()
          .stream();
    }
  }

  @ParameterizedTest
  @MethodSource("mistakes")
  void everyDocumentedMistakeGivesErrorsWithItsCode(String file) throws IOException {
    var text = Files.readString(ExampleStory.repositoryRoot().resolve("examples/mistakes/" + file));
    var expect = Pattern.compile("# expect: (\\w+)").matcher(text);
    assertThat(expect.find()).as("%s names the code it expects", file).isTrue();

    var result = analyze(example("mistakes/" + file), example("mistakes/crd.yaml"));

    List<String> errors =
        switch (result) {
          case Result.Unparseable u -> List.of(u.message());
          case Result.Analyzed a -> a.analysis().errors();
          case Result.Crashed c -> throw new AssertionError("crashed: " + c.message());
        };
    assertThat(errors).isNotEmpty().anyMatch(e -> e.contains(expect.group(1)));
  }
}
