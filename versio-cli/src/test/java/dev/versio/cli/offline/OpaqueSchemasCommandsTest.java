package dev.versio.cli.offline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.versio.cli.VersioCommand;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A CRD that keeps unknown fields at spec, as some large projects ship theirs. */
class OpaqueSchemasCommandsTest {
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();
  @TempDir Path tmp;
  private Path crd;
  private Path config;

  private int run(String... args) {
    out.getBuffer().setLength(0);
    var cli = VersioCommand.commandLine();
    cli.setOut(new PrintWriter(out));
    cli.setErr(new PrintWriter(err));
    return cli.execute(args);
  }

  @BeforeEach
  void files() throws IOException {
    var version =
        """
          - name: %s
            served: true
            storage: %s
            schema:
              openAPIV3Schema:
                type: object
                properties:
                  apiVersion: {type: string}
                  kind: {type: string}
                  metadata: {type: object}
                  spec: {type: object, x-kubernetes-preserve-unknown-fields: true}
        """;
    crd =
        Files.writeString(
            tmp.resolve("crd.yaml"),
            """
            apiVersion: apiextensions.k8s.io/v1
            kind: CustomResourceDefinition
            metadata: {name: pipelines.example.com}
            spec:
              group: example.com
              scope: Namespaced
              names: {kind: Pipeline, plural: pipelines, singular: pipeline, listKind: PipelineList}
              versions:
            """
                + version.formatted("v1beta1", "false")
                + version.formatted("v1", "true"));
    config =
        Files.writeString(
            tmp.resolve("config.yaml"),
            """
            apiVersion: versio.dev/v1alpha1
            kind: CRDConversionConfig
            metadata: {name: pipelines.example.com}
            spec:
              targetCRD: {name: pipelines.example.com}
              hubVersion: v1
              spokes:
              - version: v1beta1
                rules:
                - strategy: FieldRename
                  fieldRename: {hubPath: spec.timeouts.pipeline, spokePath: spec.timeout}
            """);
  }

  private Path sample(String name, String spec) throws IOException {
    return Files.writeString(
        tmp.resolve(name),
        "apiVersion: example.com/v1beta1\nkind: Pipeline\nmetadata: {name: p}\nspec: "
            + spec
            + "\n");
  }

  @Test
  void analyzeCallsTheVerdictNotVerifiableAndNamesTheOpaqueField() {
    assertThat(run("analyze", "-c", config.toString(), "--crd", crd.toString())).isZero();
    assertThat(InputErrorsTest.flat(out))
        .contains("v1beta1 unverified unverified")
        .contains("overall lossless: not verifiable")
        .contains("OPAQUE: spec keeps unknown fields");
  }

  @Test
  void testFailsARuleInsideTheOpaqueFieldThatNoSampleExercisesAndPassesOnceOneDoes()
      throws IOException {
    var without = sample("without.yaml", "{tasks: [{name: a}]}");
    assertThat(
            run("test", "-c", config.toString(), "--crd", crd.toString(), "-s", without.toString()))
        .isEqualTo(1);
    assertThat(InputErrorsTest.flat(out))
        .contains("FAILED: 1 rule(s) convert fields the schemas leave opaque")
        .contains("v1beta1 rules[0] FieldRename");

    var with = sample("with.yaml", "{timeout: 1h, tasks: [{name: a}]}");
    assertThat(run("test", "-c", config.toString(), "--crd", crd.toString(), "-s", with.toString()))
        .isZero();
  }

  @Test
  void convertMovesTheFieldInsideTheOpaqueSpecAndKeepsTheRest() throws IOException {
    var with = sample("with.yaml", "{timeout: 1h, tasks: [{name: a}]}");
    assertThat(
            run(
                "convert",
                "-c",
                config.toString(),
                "--crd",
                crd.toString(),
                "-f",
                with.toString(),
                "--to",
                "v1",
                "-o",
                "json"))
        .isZero();
    assertThat(out.toString().replaceAll("\\s", ""))
        .contains("\"spec\":{\"timeouts\":{\"pipeline\":\"1h\"},\"tasks\":[{\"name\":\"a\"}]}");
  }

  @Test
  void suggestSaysTheSchemasCannotShowWhatChangedInsideTheOpaqueField() {
    assertThat(run("suggest", "--crd", crd.toString())).isZero();
    assertThat(InputErrorsTest.flat(out))
        .contains("# review: spec keeps unknown fields (x-kubernetes-preserve-unknown-fields)")
        .doesNotContain("identical to the hub: nothing to convert");
  }
}
