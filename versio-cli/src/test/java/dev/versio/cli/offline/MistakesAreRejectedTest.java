package dev.versio.cli.offline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.versio.cli.VersioCommand;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every config under {@code examples/mistakes/} is rejected with the diagnostic its comment
 * expects.
 */
class MistakesAreRejectedTest {

  static Stream<Path> mistakes() throws IOException {
    var folder = OfflineCommandsTest.examples().resolve("mistakes");
    try (var list = Files.list(folder)) {
      var files =
          list.filter(
                  p ->
                      p.toString().endsWith(".yaml")
                          && !p.getFileName().toString().equals("crd.yaml"))
              .sorted()
              .toList();
      assertThat(files).hasSizeGreaterThanOrEqualTo(5);
      return files.stream();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("mistakes")
  void theConfigIsRejectedWithTheExpectedDiagnostic(Path file) throws IOException {
    var expected =
        Files.readAllLines(file).stream()
            .filter(l -> l.startsWith("# expect: "))
            .findFirst()
            .map(l -> l.substring("# expect: ".length()).trim())
            .orElseThrow(() -> new AssertionError(file + " has no '# expect:' line"));
    var out = new StringWriter();
    var cli = VersioCommand.commandLine();
    cli.setOut(new PrintWriter(out));
    cli.setErr(new PrintWriter(new StringWriter()));
    int code =
        cli.execute(
            "validate",
            "-c",
            file.toString(),
            "--crd",
            file.resolveSibling("crd.yaml").toString(),
            "-o",
            "json");
    assertThat(code).as("exit code of versio validate on %s", file.getFileName()).isEqualTo(1);
    assertThat(out.toString())
        .as("diagnostics of %s", file.getFileName())
        .contains("\"code\" : \"" + expected + "\"");
  }
}
