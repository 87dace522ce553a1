package dev.versio.cli.offline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.versio.cli.VersioCommand;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Anchors, aliases and merge keys read the way kubectl reads them. */
class YamlAliasesTest {
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();
  @TempDir Path tmp;
  private final Path story = OfflineCommandsTest.examples().resolve("field-rename");

  private int run(String... args) {
    var cli = VersioCommand.commandLine();
    cli.setOut(new PrintWriter(out));
    cli.setErr(new PrintWriter(err));
    return cli.execute(args);
  }

  @Test
  void aConfigThatRepeatsARuleThroughAnAnchorIsReadAsIfWrittenOut() throws IOException {
    var config =
        Files.writeString(
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
                - &rename
                  strategy: FieldRename
                  fieldRename: {hubPath: spec.replicas, spokePath: spec.size}
                - <<: *rename
                  fieldRename: {hubPath: status.state, spokePath: status.phase}
            """);
    assertThat(
            run("validate", "-c", config.toString(), "--crd", story.resolve("crd.yaml").toString()))
        .as("%s%s", out, err)
        .isZero();
    assertThat(out.toString()).contains("VALID");
  }

  @Test
  void aliasesThatExpandBeyondTheCapAreRefusedWithTheReason() throws IOException {
    var bomb = new StringBuilder("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
    for (int i = 1; i <= 8; i++) {
      bomb.append("a").append(i).append(": &a").append(i).append(" [");
      for (int j = 0; j < 10; j++) {
        bomb.append(j == 0 ? "" : ", ").append("*a").append(i - 1);
      }
      bomb.append("]\n");
    }
    var config = Files.writeString(tmp.resolve("bomb.yaml"), bomb.toString());
    assertThat(run("validate", "-c", config.toString())).isEqualTo(2);
    assertThat(err.toString())
        .contains("bomb.yaml")
        .containsAnyOf("expand to more than 1000000 nodes", "aliases");
  }
}
