package dev.versio.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.versio.engine.json.EngineJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
    return ExampleStories.folders();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("stories")
  void everySampleConvertsToEveryOtherVersionExactly(Path story) throws IOException {
    var loaded = ExampleStories.load(story);
    var router = loaded.router();
    var samples = loaded.samples();
    var versions = loaded.versions();
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

  private static JsonNode read(Path file) throws IOException {
    return ExampleStories.read(file);
  }
}
