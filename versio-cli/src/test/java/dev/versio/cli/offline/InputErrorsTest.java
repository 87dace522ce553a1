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

/** How the CLI reads its inputs and says what is wrong with them. */
class InputErrorsTest {
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

  private Path write(String name, String text) throws IOException {
    var file = tmp.resolve(name);
    Files.writeString(file, text);
    return file;
  }

  private String config() throws IOException {
    return Files.readString(story.resolve("config.yaml"));
  }

  @Test
  void aKeyGivenTwiceInYamlNamesBothLines() throws IOException {
    var file =
        write(
            "dup.yaml",
            "apiVersion: versio.dev/v1alpha1\nkind: CRDConversionConfig\nmetadata: {name: a}\n"
                + "spec:\n  hubVersion: v2\n  spokes: []\n  hubVersion: v1\n");

    assertThat(run("validate", "-c", file.toString())).isEqualTo(2);
    assertThat(err.toString())
        .contains(
            file
                + ":7:3: key 'hubVersion' appears twice in one mapping (first on line 5); keep one"
                + " of them");
  }

  @Test
  void aKeyGivenTwiceInJsonNamesBothLines() throws IOException {
    var file =
        write(
            "dup.json",
            "{\"apiVersion\": \"versio.dev/v1alpha1\",\n \"kind\": \"a\",\n \"kind\": \"b\"}");

    assertThat(run("validate", "-c", file.toString())).isEqualTo(2);
    assertThat(err.toString())
        .contains(file + ":3:2: key 'kind' appears twice in one mapping (first on line 2)");
  }

  @Test
  void aConfigKindInTheWrongCaseIsAnErrorThatSuggestsTheRightOne() throws IOException {
    var file =
        write(
            "kind.yaml",
            config().replace("kind: CRDConversionConfig", "kind: crdconversionconfig"));

    assertThat(run("validate", "-c", file.toString())).isEqualTo(2);
    assertThat(err.toString())
        .contains("kind is 'crdconversionconfig'; did you mean 'CRDConversionConfig'?");
  }

  @Test
  void aConfigWithAnotherApiVersionIsAnErrorThatNamesTheRightOne() throws IOException {
    var file = write("api.yaml", config().replace("versio.dev/v1alpha1", "versio.dev/v1"));

    assertThat(run("validate", "-c", file.toString())).isEqualTo(2);
    assertThat(err.toString())
        .contains(
            "apiVersion is 'versio.dev/v1'; a CRDConversionConfig has apiVersion:"
                + " versio.dev/v1alpha1");
  }

  @Test
  void aYamlDocumentOverTheLimitNamesTheLimitAndTheFlagThatRaisesIt() throws IOException {
    var sample =
        write(
            "big.yaml",
            "apiVersion: example.com/v1\nkind: Cache\nmetadata: {name: a}\n"
                + "spec: {engine: \""
                + "x".repeat(3000)
                + "\"}\n");
    String[] args = {
      "test",
      "-c",
      story.resolve("config.yaml").toString(),
      "--crd",
      story.resolve("crd.yaml").toString(),
      "-s",
      sample.toString(),
      "--max-yaml-size",
      "2Ki"
    };

    assertThat(run(args)).isEqualTo(2);
    assertThat(err.toString())
        .contains("big.yaml holds a YAML document larger than 2Ki characters")
        .contains("--max-yaml-size");

    args[args.length - 1] = "8Ki";
    err.getBuffer().setLength(0);
    assertThat(run(args)).as("%s", err).isZero();
  }

  @Test
  void aBadSizeIsAUsageErrorThatSaysWhatASizeLooksLike() {
    assertThat(
            run(
                "validate",
                "-c",
                story.resolve("config.yaml").toString(),
                "--max-yaml-size",
                "lots"))
        .isEqualTo(2);
    assertThat(err.toString())
        .contains("'lots' is not a size between 1 and 2Gi such as 64Mi or 512Ki");
  }

  @Test
  void aJsonSampleFileIsReadAsJsonWithEveryValueIntact() throws IOException {
    var sample =
        write(
            "one.json",
            "{\"apiVersion\": \"example.com/v1\", \"kind\": \"Cache\", \"metadata\": {\"name\": \"j\"},"
                + " \"spec\": {\"size\": 3, \"memoryMiB\": 512, \"engine\": \"redis\"}}");

    assertThat(
            run(
                "convert",
                "-c",
                story.resolve("config.yaml").toString(),
                "--crd",
                story.resolve("crd.yaml").toString(),
                "-f",
                sample.toString(),
                "--to",
                "v2",
                "-o",
                "json"))
        .as("%s", err)
        .isZero();
    var converted = new ObjectMapper().readTree(out.toString());
    assertThat(converted.path("spec").path("replicas").asInt()).isEqualTo(3);
    assertThat(converted.path("spec").path("memoryMiB").asInt()).isEqualTo(512);
  }

  @Test
  void aKubectlListIsReadAsItsItemsAndEveryDocumentNotTestedIsReportedWithTheReason()
      throws IOException {
    var list =
        write(
            "list.yaml",
            """
            apiVersion: v1
            kind: List
            items:
            - {apiVersion: example.com/v1, kind: Cache, metadata: {name: a},
               spec: {size: 1, memoryMiB: 1, engine: redis}, status: {phase: Ready}}
            - {apiVersion: v1, kind: ConfigMap, metadata: {name: b}}
            ---
            - a list, not an object
            ---
            kind: Cache
            metadata: {name: c}
            """);

    assertThat(
            run(
                "test",
                "-c",
                story.resolve("config.yaml").toString(),
                "--crd",
                story.resolve("crd.yaml").toString(),
                "-s",
                list.toString(),
                "-o",
                "json"))
        .as("%s", err)
        .isZero();
    var report = new ObjectMapper().readTree(out.toString());
    assertThat(report.path("summary").path("paths").asInt()).isEqualTo(2);
    assertThat(report.path("paths").get(0).path("name").asText()).isEqualTo("a");
    assertThat(report.path("skipped").findValuesAsText("reason"))
        .containsExactly(
            "it is an array, not an object",
            "it has no apiVersion",
            "it is a ConfigMap of group core, not a Cache of group example.com");
    assertThat(report.path("skipped").get(2).path("item").asText()).isEqualTo("items[1]");
  }

  @Test
  void aSampleTheApiserverWouldRejectOrPruneIsAFindingWithItsPathThatFailsUnderStrict()
      throws IOException {
    var sample =
        write(
            "bad.v1.yaml",
            """
            apiVersion: example.com/v1
            kind: Cache
            metadata: {name: bad}
            spec: {size: "three", memoryMiB: 1, engine: redis, colour: blue}
            status: {phase: Ready}
            """);
    String[] args = {
      "test",
      "-c",
      story.resolve("config.yaml").toString(),
      "--crd",
      story.resolve("crd.yaml").toString(),
      "-s",
      sample.toString()
    };

    assertThat(run(args)).as("without --strict the findings are reported only").isZero();
    assertThat(flat(out))
        .contains("bad.v1.yaml:bad spec.size: must be an integer, found the string \"three\"")
        .contains("spec.colour: not in the schema; the apiserver prunes it");

    out.getBuffer().setLength(0);
    assertThat(run(append(args, "--strict"))).isEqualTo(1);
    assertThat(flat(out)).contains("FAILED (--strict):").contains("schema finding(s)");

    out.getBuffer().setLength(0);
    assertThat(run(append(args, "-o", "json"))).isZero();
    var findings = new ObjectMapper().readTree(out.toString()).path("schemaFindings");
    assertThat(findings.findValuesAsText("path")).contains("spec.size", "spec.colour");
    assertThat(findings.findValuesAsText("problem")).contains("WRONG_TYPE", "PRUNED");
  }

  @Test
  void aKeyWithoutAValueIsNullNotAnEmptyString() throws IOException {
    var file =
        write(
            "empty.yaml",
            config()
                .replaceFirst("rules:\\n(    - .*\\n(      .*\\n)*)+", "rules:\n    # none yet\n"));
    assertThat(file).content().contains("rules:\n    # none yet\n");

    assertThat(run("validate", "-c", file.toString())).as("%s", out).isZero();
  }

  @Test
  void onlyOneInputCanComeFromStandardInput() {
    assertThat(run("validate", "-c", "-", "--crd", "-")).isEqualTo(2);
    assertThat(err.toString()).contains("both read standard input (-)");
  }

  /** The output with line wrapping undone. */
  static String flat(StringWriter writer) {
    return writer.toString().replaceAll("\\s+", " ");
  }

  private static String[] append(String[] args, String... more) {
    var all = new String[args.length + more.length];
    System.arraycopy(args, 0, all, 0, args.length);
    System.arraycopy(more, 0, all, args.length, more.length);
    return all;
  }
}
