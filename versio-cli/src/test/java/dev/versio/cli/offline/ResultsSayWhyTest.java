package dev.versio.cli.offline;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.versio.cli.VersioCommand;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.xml.sax.InputSource;

/** Every result says why: which rule is lossy where, which path a finding is at, what failed. */
class ResultsSayWhyTest {
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();
  @TempDir Path tmp;

  private final Path examples = OfflineCommandsTest.examples();

  private int run(String... args) {
    var cli = VersioCommand.commandLine();
    cli.setOut(new PrintWriter(out));
    cli.setErr(new PrintWriter(err));
    return cli.execute(args);
  }

  private String flat() {
    return InputErrorsTest.flat(out);
  }

  @Test
  void analyzeNamesEachLossyRuleWithItsPathsAndDirectionInTableAndJson() throws IOException {
    var story = examples.resolve("kitchen-sink");
    String config = story.resolve("config.yaml").toString();
    String crd = story.resolve("crd.yaml").toString();

    assertThat(run("analyze", "-c", config, "--crd", crd)).isZero();
    assertThat(flat())
        .contains(
            "LOSSY [v3] rules[9] Duration spec.grace, spec.graceSeconds: loses data hub->spoke")
        .contains("LOSSY [v1] rules[12] Delete spec.experimental: loses data hub->spoke");

    out.getBuffer().setLength(0);
    assertThat(run("analyze", "-c", config, "--crd", crd, "-o", "json")).isZero();
    var v3 = new ObjectMapper().readTree(out.toString()).path("spokes").get(1);
    assertThat(v3.path("version").asText()).isEqualTo("v3");
    var duration =
        v3.path("lossyRules")
            .valueStream()
            .filter(r -> r.path("strategy").asText().equals("Duration"))
            .findFirst()
            .orElseThrow();
    assertThat(duration.path("rule").asText()).isEqualTo("rules[9]");
    assertThat(duration.path("hubPaths").get(0).asText()).isEqualTo("spec.grace");
    assertThat(duration.path("lossyDirections").get(0).asText()).isEqualTo("hub->spoke");
    assertThat(duration.path("acknowledged").asBoolean()).isTrue();
  }

  @Test
  void aConfigWithStructuralErrorsSaysWhyTheSchemaWasNotCheckedWhenOneWasGiven()
      throws IOException {
    var story = examples.resolve("field-rename");
    var config =
        Files.writeString(
            tmp.resolve("config.yaml"),
            Files.readString(story.resolve("config.yaml"))
                .replaceFirst("strategy: FieldRename", "strategy: fieldRename"));
    String crd = story.resolve("crd.yaml").toString();
    assertThat(run("validate", "-c", config.toString(), "--crd", crd)).isEqualTo(1);
    assertThat(flat())
        .contains("schema validated: no (the config has structural errors; fix them first)")
        .doesNotContain("no --crd/--xrd given");
    out.getBuffer().setLength(0);
    assertThat(run("validate", "-c", config.toString())).isEqualTo(1);
    assertThat(flat()).contains("schema validated: no (no --crd/--xrd given)");
  }

  @Test
  void tableDiagnosticsCarryThePathThatJsonHas() {
    var mistakes = examples.resolve("mistakes");
    assertThat(
            run(
                "validate",
                "-c",
                mistakes.resolve("typo-in-path.yaml").toString(),
                "--crd",
                mistakes.resolve("crd.yaml").toString()))
        .isEqualTo(1);
    assertThat(flat()).contains("ERROR [v1] rules[0] spec.replica: rule (FieldRename)");
  }

  @Test
  void validateSaysInTheTableWhatJsonSaysAboutTheSchemaCheck() throws IOException {
    var config = examples.resolve("field-rename").resolve("config.yaml").toString();
    assertThat(run("validate", "-c", config)).isZero();
    assertThat(out.toString()).contains("schema validated: no (no --crd/--xrd given)");

    out.getBuffer().setLength(0);
    assertThat(run("validate", "-c", config, "-o", "yaml")).isZero();
    var yaml = new YAMLMapper().readTree(out.toString());
    assertThat(yaml.path("schemaValidated").asBoolean()).isFalse();
    assertThat(yaml.path("result").asText()).isEqualTo("structure-ok");
  }

  @Test
  void testWritesAJsonAndAJunitReportAlsoWhenTheConfigDoesNotCompile() throws Exception {
    var mistakes = examples.resolve("mistakes");
    String[] args = {
      "test",
      "-c",
      mistakes.resolve("typo-in-path.yaml").toString(),
      "--crd",
      mistakes.resolve("crd.yaml").toString(),
      "-s",
      examples.resolve("field-rename").resolve("samples").toString(),
      "-o",
      "json"
    };
    assertThat(run(args)).isEqualTo(2);
    var report = new ObjectMapper().readTree(out.toString());
    assertThat(report.path("tested").asBoolean()).isFalse();
    assertThat(report.path("configErrors").findValuesAsText("path")).contains("spec.replica");

    out.getBuffer().setLength(0);
    args[args.length - 1] = "junit";
    assertThat(run(args)).isEqualTo(2);
    var xml =
        DocumentBuilderFactory.newInstance()
            .newDocumentBuilder()
            .parse(new InputSource(new StringReader(out.toString())));
    var error = (org.w3c.dom.Element) xml.getElementsByTagName("error").item(0);
    assertThat(error.getAttribute("type")).isEqualTo("NotTested");
    assertThat(error.getTextContent()).contains("spec.replica");
  }

  @Test
  void testWritesAReportThatSaysWhyWhenAnInputCannotBeRead() throws IOException {
    var story = examples.resolve("field-rename");
    assertThat(
            run(
                "test",
                "-c",
                story.resolve("config.yaml").toString(),
                "--crd",
                story.resolve("crd.yaml").toString(),
                "-s",
                tmp.resolve("missing").toString(),
                "-o",
                "json"))
        .isEqualTo(2);
    var report = new ObjectMapper().readTree(out.toString());
    assertThat(report.path("tested").asBoolean()).isFalse();
    assertThat(report.path("error").asText()).contains("missing does not exist");
  }

  @Test
  void aBadOutputFormatIsAOneLineUsageErrorInEveryCommand() {
    var config = examples.resolve("field-rename").resolve("config.yaml").toString();
    for (var command : new String[] {"validate", "convert", "test"}) {
      err.getBuffer().setLength(0);
      assertThat(run(command, "-c", config, "-o", "xml")).isEqualTo(2);
      assertThat(err.toString())
          .as(command)
          .contains("Invalid value for option '--output'")
          .contains("but was 'xml'")
          .contains("See 'versio " + command + " --help'.");
    }
  }

  @Test
  void everyTableAndEveryHelpFitsOneHundredColumns() {
    var kitchen = examples.resolve("kitchen-sink");
    var mistakes = examples.resolve("mistakes");
    String config = kitchen.resolve("config.yaml").toString();
    String crd = kitchen.resolve("crd.yaml").toString();
    var runs =
        new java.util.ArrayList<String[]>(
            java.util.List.of(
                new String[] {"analyze", "-c", config, "--crd", crd},
                new String[] {
                  "validate",
                  "-c",
                  mistakes.resolve("uncovered-field.yaml").toString(),
                  "--crd",
                  mistakes.resolve("crd.yaml").toString()
                },
                new String[] {
                  "test", "-c", config, "--crd", crd, "-s", kitchen.resolve("samples").toString()
                },
                new String[] {"suggest", "--crd", crd},
                new String[] {"--help"}));
    for (var command :
        java.util.List.of(
            "validate",
            "analyze",
            "test",
            "convert",
            "suggest",
            "diff",
            "generate",
            "migrate-storage",
            "status",
            "completion",
            "webhook-server",
            "operator",
            "dev")) {
      runs.add(new String[] {command, "--help"});
    }
    for (var args : runs) {
      out.getBuffer().setLength(0);
      run(args);
      assertThat(out.toString().lines().filter(l -> l.length() > 100))
          .as("lines over 100 columns in versio %s", String.join(" ", args))
          .isEmpty();
    }
  }

  @Test
  void anUnreachableClusterIsSaidPlainlyWithItsAddress() throws IOException {
    var kubeconfig = tmp.resolve("kubeconfig");
    Files.writeString(
        kubeconfig,
        """
        apiVersion: v1
        kind: Config
        clusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]
        users: [{name: u, user: {token: t}}]
        contexts: [{name: x, context: {cluster: c, user: u}}]
        current-context: x
        """);
    assertThat(
            run(
                "migrate-storage",
                "--crd-name",
                "widgets.example.com",
                "--kubeconfig",
                kubeconfig.toString()))
        .isEqualTo(2);
    assertThat(err.toString())
        .contains("cannot reach the cluster at https://127.0.0.1:1/: connection refused")
        .doesNotContain("Operation:");
  }
}
