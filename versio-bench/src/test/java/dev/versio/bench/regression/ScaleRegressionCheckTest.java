package dev.versio.bench.regression;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class ScaleRegressionCheckTest {
  @TempDir Path dir;
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    var command = new CommandLine(new ScaleRegressionCheck());
    command.setOut(new PrintWriter(out));
    command.setErr(new PrintWriter(err));
    return command.execute(args);
  }

  private String file(String fixture) throws IOException {
    var target = dir.resolve(fixture);
    try (InputStream in = getClass().getResourceAsStream("/regression/" + fixture)) {
      Files.write(target, in.readAllBytes());
    }
    return target.toString();
  }

  @Test
  void aRegressionExitsOneAndIsMarkedInTheTable() throws IOException {
    int exit = run(file("regressed-p50.json"), file("baseline.json"));

    assertThat(exit).isEqualTo(1);
    assertThat(out.toString())
        .contains("| listV1 | p50 | 90.0 | 190.0 | 2.11x | REGRESSED |")
        .contains("FAIL: listV1 p50: 90.0 ms -> 190.0 ms (2.11x, threshold 1.50x)")
        .contains("FAIL (1)");
  }

  @Test
  void aLooserThresholdLetsTheSameRunPass() throws IOException {
    assertThat(run(file("regressed-p50.json"), file("baseline.json"), "--threshold", "2.5"))
        .isZero();
    assertThat(out.toString()).endsWith("PASS" + System.lineSeparator());
  }

  @Test
  void aMissingFileExitsTwoNamingIt() {
    assertThat(run(dir.resolve("nope.json").toString())).isEqualTo(2);
    assertThat(err.toString()).contains("nope.json does not exist or is not a file");
  }
}
