package dev.versio.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The contract of {@code docs/cli.md}, checked through the packaged launcher as CI runs it: every
 * command's JSON (and a report's YAML) has exactly the top-level fields its table documents, and
 * every documented nested field; {@code -} reads standard input.
 */
public class CliContractIT {
  private static final Path EXAMPLES = Path.of("..", "examples");
  private static final Path DOCS = Path.of("..", "docs", "cli.md");

  private record Run(int exit, String out, String err) {}

  private static Run versio(Path dir, Path stdin, String... args) throws Exception {
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
    var builder =
        new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
    if (stdin != null) {
      builder.redirectInput(stdin.toFile());
    }
    var process = builder.start();
    assertThat(process.waitFor(60, TimeUnit.SECONDS))
        .as("versio %s finished", List.of(args))
        .isTrue();
    return new Run(
        process.exitValue(),
        Files.readString(out, StandardCharsets.UTF_8),
        Files.readString(err, StandardCharsets.UTF_8));
  }

  /** The documented fields of each command: heading {@code versio X -o json}, then a table. */
  public static Map<String, List<String>> documentedFields() throws Exception {
    var fields = new LinkedHashMap<String, List<String>>();
    var heading = Pattern.compile("^#### `versio ([a-z-]+) -o json`");
    var row = Pattern.compile("^\\| `([A-Za-z.\\[\\]]+)` \\|");
    String command = null;
    for (var line : Files.readAllLines(DOCS)) {
      var h = heading.matcher(line);
      if (h.find()) {
        command = h.group(1);
        fields.put(command, new ArrayList<>());
        continue;
      }
      if (line.startsWith("#")) {
        command = null;
      }
      var r = row.matcher(line);
      if (command != null && r.find()) {
        fields.get(command).add(r.group(1));
      }
    }
    return fields;
  }

  public static void assertDocumented(String command, JsonNode report, List<String> fields) {
    Set<String> topLevel = new LinkedHashSet<>();
    for (var field : fields) {
      topLevel.add(field.split("[.\\[]")[0]);
      assertThat(resolves(report, field))
          .as("%s -o json has the documented field %s:%n%s", command, field, report)
          .isTrue();
    }
    var actual = new LinkedHashSet<String>();
    report.fieldNames().forEachRemaining(actual::add);
    assertThat(actual)
        .as("%s -o json top-level fields, as documented", command)
        .isEqualTo(topLevel);
  }

  /** {@code a.b}, {@code a[].b}: present (for a list, in its first item). */
  private static boolean resolves(JsonNode node, String field) {
    var current = node;
    for (var part : field.split("\\.")) {
      var list = part.endsWith("[]");
      var name = list ? part.substring(0, part.length() - 2) : part;
      if (!current.has(name)) {
        return false;
      }
      current = current.get(name);
      if (list) {
        if (!current.isArray() || current.isEmpty()) {
          return false; // the inputs below are chosen so every documented list has an item
        }
        current = current.get(0);
      }
    }
    return true;
  }

  @Test
  void everyReportHasTheFieldsDocsCliMdDocumentsInJsonAndInYaml(@TempDir Path dir)
      throws Exception {
    var documented = documentedFields();
    var kitchen = EXAMPLES.resolve("kitchen-sink");
    var rename = EXAMPLES.resolve("field-rename");
    var mistakes = EXAMPLES.resolve("mistakes");
    var changed = dir.resolve("changed.yaml");
    Files.writeString(
        changed,
        Files.readString(rename.resolve("config.yaml"))
            .replace("hubPath: spec.replicas", "hubPath: spec.replica"));
    var sample = dir.resolve("samples.yaml");
    Files.writeString(
        sample,
        Files.readString(kitchen.resolve("samples").resolve("full.v1.yaml"))
            + "\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: not-a-gadget}\n---\n"
            + Files.readString(kitchen.resolve("samples").resolve("full.v2.yaml"))
                .replace("phase: Ready", "phase: Ready\n  extra: pruned"));
    var commands = new LinkedHashMap<String, List<String>>();
    commands.put(
        "validate",
        List.of(
            "validate",
            "-c",
            mistakes.resolve("unacknowledged-loss.yaml").toString(),
            "--crd",
            mistakes.resolve("crd.yaml").toString()));
    commands.put(
        "analyze",
        List.of(
            "analyze",
            "-c",
            kitchen.resolve("config.yaml").toString(),
            "--crd",
            kitchen.resolve("crd.yaml").toString()));
    commands.put(
        "test",
        List.of(
            "test",
            "-c",
            kitchen.resolve("config.yaml").toString(),
            "--crd",
            kitchen.resolve("crd.yaml").toString(),
            "-s",
            sample.toString(),
            "--strict"));
    commands.put("suggest", List.of("suggest", "--crd", rename.resolve("crd.yaml").toString()));
    commands.put("generate", List.of("generate", "--crd", rename.resolve("crd.yaml").toString()));
    commands.put(
        "diff",
        List.of(
            "diff",
            rename.resolve("config.yaml").toString(),
            changed.toString(),
            "--crd",
            rename.resolve("crd.yaml").toString()));
    assertThat(documented.keySet())
        .as("docs/cli.md documents the JSON of these commands")
        .containsAll(commands.keySet());

    for (var entry : commands.entrySet()) {
      // suggest and generate print a document: their YAML is the commented draft config itself
      var drafts = Set.of("suggest", "generate");
      for (var format :
          drafts.contains(entry.getKey()) ? List.of("json") : List.of("json", "yaml")) {
        var args = new ArrayList<>(entry.getValue());
        args.addAll(List.of("-o", format));
        var run = versio(dir, null, args.toArray(String[]::new));
        assertThat(run.exit()).as("%s: %s", args, run.err()).isBetween(0, 1);
        var report =
            format.equals("json")
                ? new ObjectMapper().readTree(run.out())
                : new YAMLMapper().readTree(run.out());
        assertDocumented(
            entry.getKey() + " (" + format + ")", report, documented.get(entry.getKey()));
      }
    }
  }

  @Test
  void aDashReadsTheConfigFromStandardInput(@TempDir Path dir) throws Exception {
    var rename = EXAMPLES.resolve("field-rename");
    var run =
        versio(
            dir,
            rename.resolve("config.yaml"),
            "validate",
            "-c",
            "-",
            "--crd",
            rename.resolve("crd.yaml").toString());

    assertThat(run.exit()).as(run.err()).isZero();
    assertThat(run.out()).contains("VALID");
  }

  @Test
  void aDashReadsSamplesFromStandardInputAndLabelsThem(@TempDir Path dir) throws Exception {
    var rename = EXAMPLES.resolve("field-rename");
    var run =
        versio(
            dir,
            rename.resolve("samples").resolve("small.v1.yaml"),
            "test",
            "-c",
            rename.resolve("config.yaml").toString(),
            "--crd",
            rename.resolve("crd.yaml").toString(),
            "-s",
            "-");

    assertThat(run.exit()).as(run.err()).isZero();
    assertThat(run.out()).contains("<stdin>:small").contains("2 pass");
  }
}
