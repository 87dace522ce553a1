package dev.versio.cli.offline;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.versio.cli.VersioCommand;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code versio test} judges a round trip by what the apiserver would accept: rejected objects
 * fail, and every change is named with the rule behind it (the pruned way back is held by the
 * engine's SchemaPruningTest and the round-trip properties).
 */
class TestSeesWhatTheClusterStoresTest {
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();
  @TempDir Path tmp;

  private final Path crd = OfflineCommandsTest.examples().resolve("field-rename/crd.yaml");

  private int run(String... args) {
    var cli = VersioCommand.commandLine();
    cli.setOut(new PrintWriter(out));
    cli.setErr(new PrintWriter(err));
    return cli.execute(args);
  }

  /** The field-rename story's config with one more rule for spec.memoryMiB. */
  private Path config(String memoryRule) throws IOException {
    return Files.writeString(
        tmp.resolve("config.yaml"),
        """
        apiVersion: versio.dev/v1alpha1
        kind: CRDConversionConfig
        metadata: {name: caches.example.com}
        spec:
          targetCRD: {name: caches.example.com}
          hubVersion: v2
          spokes:
          - version: v1
            rules:
            - strategy: FieldRename
              fieldRename: {hubPath: spec.replicas, spokePath: spec.size}
            - strategy: FieldRename
              fieldRename: {hubPath: status.state, spokePath: status.phase}
        %s
        """
            .formatted(memoryRule.indent(4)));
  }

  private Path sample() throws IOException {
    return Files.writeString(
        tmp.resolve("c.v2.yaml"),
        """
        apiVersion: example.com/v2
        kind: Cache
        metadata: {name: c}
        spec: {replicas: 3, memoryMiB: 512, engine: redis}
        """);
  }

  private String test(Path config) throws IOException {
    out.getBuffer().setLength(0);
    run("test", "-c", config.toString(), "--crd", crd.toString(), "-s", sample().toString());
    return InputErrorsTest.flat(out);
  }

  @Test
  void aConvertedObjectTheApiserverWouldRejectFailsItsPathWithoutStrict() throws IOException {
    var config =
        config(
            """
            - strategy: CEL
              acknowledgeLossy: true
              reason: memory is text at v1
              cel:
                hubPaths: [spec.memoryMiB]
                spokePaths: [spec.memoryMiB]
                hubToSpoke: '{"spec.memoryMiB": string(object.spec.memoryMiB)}'
                spokeToHub: '{"spec.memoryMiB": int(object.spec.memoryMiB)}'
            """);
    assertThat(test(config))
        .contains("c.v2.yaml:c v2->v1 FAIL")
        .contains(
            "the apiserver would reject it at v1: spec.memoryMiB: must be an integer, found the"
                + " string \"512\"");
    assertThat(
            run(
                "test",
                "-c",
                config.toString(),
                "--crd",
                crd.toString(),
                "-s",
                sample().toString()))
        .isEqualTo(1);
  }

  @Test
  void everyChangedFieldIsNamedWithItsRuleAndAFieldThatAppearsIsAddedNotLost() throws IOException {
    var config =
        config(
            """
            - strategy: CEL
              acknowledgeLossy: true
              reason: v1 always has a memory size
              cel:
                hubPaths: [spec.memoryMiB]
                spokePaths: [spec.memoryMiB]
                hubToSpoke: '{"spec.memoryMiB": object.spec.memoryMiB}'
                spokeToHub: '{"spec.memoryMiB": has(object.spec.memoryMiB) ? object.spec.memoryMiB : 64}'
            """);
    Files.writeString(
        tmp.resolve("c.v1.yaml"),
        """
        apiVersion: example.com/v1
        kind: Cache
        metadata: {name: c}
        spec: {size: 3, engine: redis}
        """);
    out.getBuffer().setLength(0);
    run(
        "test",
        "-c",
        config.toString(),
        "--crd",
        crd.toString(),
        "-s",
        tmp.resolve("c.v1.yaml").toString(),
        "-o",
        "json");
    var path =
        new ObjectMapper()
            .readTree(out.toString())
            .path("paths")
            .valueStream()
            .filter(p -> p.path("to").asText().equals("v2"))
            .findFirst()
            .orElseThrow();
    assertThat(path.path("result").asText()).isEqualTo("loss");
    var change = path.path("changes").get(0);
    assertThat(change.path("path").asText()).isEqualTo("spec.memoryMiB");
    assertThat(change.path("change").asText()).isEqualTo("added");
    assertThat(change.path("rule").asText()).isEqualTo("v1 rules[2] CEL, acknowledged");
    assertThat(path.path("unacknowledgedLoss")).isEmpty();
  }
}
