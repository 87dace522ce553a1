package dev.versio.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.versio.engine.compile.CompileResult;
import dev.versio.engine.compile.Compiler;
import dev.versio.engine.json.EngineJson;
import dev.versio.engine.route.Router;
import dev.versio.engine.rule.ConfigParser;
import dev.versio.engine.schema.ResourceSchemas;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Golden test over {@code examples/<story>/}: the config compiles against the story's CRD, and
 * every sample converted from any version to any other equals {@code expected/<sample>.<from>-to-
 * <to>.yaml} when the story has such a file (lossy stories), or else the sample at that version.
 * Run with {@code -Dversio.golden.update=true} to (re)write the expected files, then review them.
 */
class ExampleStoriesTest {

  static Stream<Path> stories() throws IOException {
    var examples = examplesFolder();
    try (var list = Files.list(examples)) {
      var stories = list.filter(p -> Files.exists(p.resolve("config.yaml"))).sorted().toList();
      assertThat(stories).as("example stories under %s", examples).hasSizeGreaterThanOrEqualTo(3);
      return stories.stream();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("stories")
  void everySampleConvertsToEveryOtherVersionExactly(Path story) throws IOException {
    var xrd = Files.exists(story.resolve("xrd.yaml"));
    var crd = read(story.resolve(xrd ? "xrd.yaml" : "crd.yaml"));
    var target = xrd ? ResourceSchemas.xrd(crd) : ResourceSchemas.crd(crd);
    var spec = read(story.resolve("config.yaml")).path("spec");
    var parsed = new ConfigParser().parse(spec);
    if (!(parsed instanceof ConfigParser.Result.Parsed ok)) {
      fail(
          "config of %s is invalid:%n%s",
          story, Fixtures.lines(((ConfigParser.Result.Invalid) parsed).diagnostics()));
      return;
    }
    var result = new Compiler().compile(ok.config(), target);
    if (!(result instanceof CompileResult.Compiled compiled)) {
      fail(
          "config of %s is rejected:%n%s",
          story, Fixtures.lines(((CompileResult.Rejected) result).diagnostics()));
      return;
    }
    var router = new Router(compiled.config(), ResourceSchemas.group(crd));
    var samples = samples(story);
    var versions = target.versions().stream().filter(v -> v.served()).map(v -> v.name()).toList();
    var goldenFolder = story.resolve("expected");
    boolean update = Boolean.getBoolean("versio.golden.update") && Files.isDirectory(goldenFolder);
    int pairs = 0;
    for (var sample : samples.entrySet()) {
      for (var from : sample.getValue().entrySet()) {
        for (var to : versions) {
          if (from.getKey().equals(to)) {
            continue;
          }
          var converted = router.convert(from.getValue(), from.getKey(), to);
          var expectedFile =
              goldenFolder.resolve(sample.getKey() + "." + from.getKey() + "-to-" + to + ".yaml");
          if (update) {
            GOLDEN_WRITER.writeValue(expectedFile.toFile(), converted);
          }
          JsonNode expected;
          if (Files.exists(expectedFile)) {
            expected = read(expectedFile);
          } else if (sample.getValue().containsKey(to)) {
            expected = sample.getValue().get(to);
          } else {
            fail(
                "%s: no expectation for sample %s from %s to %s: add samples/%s.%s.yaml or %s",
                story.getFileName(),
                sample.getKey(),
                from.getKey(),
                to,
                sample.getKey(),
                to,
                expectedFile);
            return;
          }
          assertThat(EngineJson.sameValue(converted, expected))
              .as(
                  "%s: sample %s converted %s -> %s%n got:      %s%n expected: %s",
                  story.getFileName(), sample.getKey(), from.getKey(), to, converted, expected)
              .isTrue();
          pairs++;
        }
      }
    }
    assertThat(pairs).as("conversion pairs checked").isGreaterThanOrEqualTo(2);
  }

  private static final ObjectMapper GOLDEN_WRITER =
      new YAMLMapper()
          .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
          .enable(YAMLGenerator.Feature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS)
          .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER);

  /** sample name -> version -> object. */
  private static Map<String, Map<String, JsonNode>> samples(Path story) throws IOException {
    var out = new TreeMap<String, Map<String, JsonNode>>();
    List<Path> files;
    try (var list = Files.list(story.resolve("samples"))) {
      files = new ArrayList<>(list.filter(p -> p.toString().endsWith(".yaml")).sorted().toList());
    }
    for (var file : files) {
      var parts = file.getFileName().toString().split("\\.");
      out.computeIfAbsent(parts[0], k -> new TreeMap<>()).put(parts[1], read(file));
    }
    return out;
  }

  private static JsonNode read(Path file) throws IOException {
    return Fixtures.YAML.readTree(file.toFile());
  }

  private static Path examplesFolder() {
    var dir = Path.of("").toAbsolutePath();
    while (dir != null && !Files.isDirectory(dir.resolve("examples"))) {
      dir = dir.getParent();
    }
    if (dir == null) {
      throw new IllegalStateException("no examples/ folder above " + Path.of("").toAbsolutePath());
    }
    return dir.resolve("examples");
  }
}
