package dev.versio.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.versio.engine.json.EngineJson;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.AutoComplete;

/**
 * Every command's output arrives whole when {@code versio} runs as the process a user or CI runs
 * (the packaged launcher): nothing is cut at a buffer boundary, whatever the size.
 */
class CompleteOutputIT {
  private static final Path STORY = Path.of("..", "examples", "field-rename");
  private static final Path KITCHEN_SINK = Path.of("..", "examples", "kitchen-sink");

  private record Run(int exit, byte[] out, String err) {
    String text() {
      return new String(out, StandardCharsets.UTF_8);
    }
  }

  private static Run versio(Path dir, String... args) throws Exception {
    var command =
        new ArrayList<>(
            List.of(
                ProcessHandle.current().info().command().orElseThrow(),
                "--sun-misc-unsafe-memory-access=allow",
                "-cp",
                "target/versio-cli.jar:target/lib/*",
                "dev.versio.cli.VersioCommand"));
    command.addAll(List.of(args));
    var out = dir.resolve("out-" + System.nanoTime());
    var err = dir.resolve("err-" + System.nanoTime());
    var process =
        new ProcessBuilder(command)
            .redirectOutput(out.toFile())
            .redirectError(err.toFile())
            .start();
    assertThat(process.waitFor(60, TimeUnit.SECONDS))
        .as("versio %s finished", List.of(args))
        .isTrue();
    return new Run(process.exitValue(), Files.readAllBytes(out), Files.readString(err));
  }

  @Test
  void convertPrintsALargeObjectWholeAsYamlAndAsJson(@TempDir Path dir) throws Exception {
    var engine = "r".repeat(20_000);
    var object = dir.resolve("big.v1.yaml");
    Files.writeString(
        object,
        "apiVersion: example.com/v1\nkind: Cache\nmetadata: {name: big}\nspec: {size: 3, engine: \""
            + engine
            + "\"}\n");
    for (var format : List.of("yaml", "json")) {
      var run =
          versio(
              dir,
              "convert",
              "-c",
              STORY.resolve("config.yaml").toString(),
              "--crd",
              STORY.resolve("crd.yaml").toString(),
              "-f",
              object.toString(),
              "--to",
              "v2",
              "-o",
              format);

      assertThat(run.exit()).as(run.err()).isZero();
      JsonNode converted = new YAMLMapper().readTree(run.out());
      assertThat(converted.path("apiVersion").asText()).isEqualTo("example.com/v2");
      assertThat(converted.path("spec").path("replicas").asInt()).isEqualTo(3);
      assertThat(converted.path("spec").path("engine").asText()).isEqualTo(engine);
    }
  }

  @Test
  void completionPrintsTheWholeScriptAndItIsValidBash(@TempDir Path dir) throws Exception {
    var run = versio(dir, "completion", "bash");

    assertThat(run.exit()).as(run.err()).isZero();
    var expected = AutoComplete.bash("versio", VersioCommand.commandLine());
    assertThat(run.text()).isEqualTo(expected);
    assertThat(run.out().length).isGreaterThan(16_384);
    var script = dir.resolve("versio.bash");
    Files.write(script, run.out());
    var bash =
        new ProcessBuilder("bash", "-n", script.toString()).redirectErrorStream(true).start();
    assertThat(bash.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(bash.exitValue())
        .as(new String(bash.getInputStream().readAllBytes(), StandardCharsets.UTF_8))
        .isZero();
  }

  @Test
  void everyOfflineReportIsCompleteJson(@TempDir Path dir) throws Exception {
    var config = KITCHEN_SINK.resolve("config.yaml").toString();
    var crd = KITCHEN_SINK.resolve("crd.yaml").toString();
    var commands =
        List.of(
            List.of("validate", "-c", config, "--crd", crd, "-o", "json"),
            List.of("analyze", "-c", config, "--crd", crd, "-o", "json"),
            List.of(
                "test",
                "--config",
                config,
                "--crd",
                crd,
                "--samples",
                KITCHEN_SINK.resolve("samples").toString(),
                "-o",
                "json"));
    for (var command : commands) {
      var run = versio(dir, command.toArray(String[]::new));

      assertThat(run.exit()).as("%s: %s", command, run.err()).isZero();
      assertThat(EngineJson.newMapper().readTree(run.out()))
          .as("%s prints one complete JSON document", command)
          .isNotNull();
    }
  }
}
