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

/** versio diff compares what the two plans do with the same objects, not only verdict labels. */
class DiffByBehaviourTest {
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();
  @TempDir Path tmp;
  private final Path examples = OfflineCommandsTest.examples();

  private int diff(Path story, String changed) {
    out.getBuffer().setLength(0);
    var cli = VersioCommand.commandLine();
    cli.setOut(new PrintWriter(out));
    cli.setErr(new PrintWriter(err));
    return cli.execute(
        "diff",
        story.resolve("config.yaml").toString(),
        changed,
        "--crd",
        story.resolve("crd.yaml").toString());
  }

  private String changed(Path story, String from, String to) throws IOException {
    var text = Files.readString(story.resolve("config.yaml"));
    assertThat(text).contains(from);
    return Files.writeString(tmp.resolve("changed.yaml"), text.replace(from, to)).toString();
  }

  private String flat() {
    return InputErrorsTest.flat(out);
  }

  @Test
  void aChangedCelExpressionIsADifferenceThatNamesTheFieldItWritesOtherwise() throws IOException {
    var story = examples.resolve("kitchen-sink");
    assertThat(diff(story, changed(story, "object.spec.rgb / 256", "object.spec.rgb / 255")))
        .isEqualTo(1);
    assertThat(flat())
        .contains("spoke v3: changed (WORSE)")
        .contains("behaviour hub->spoke:")
        .contains("convert differently, at spec.red")
        .contains("the round trip now loses spec.rgb (kept before)");
  }

  @Test
  void replacingADurationWithADeleteIsWorseBecauseTheValueNoLongerCrosses() throws IOException {
    var story = examples.resolve("kitchen-sink");
    var changed =
        changed(
            story,
            """
                - strategy: Duration
                  duration: {hubPath: spec.grace, spokePath: spec.graceSeconds}
            """,
            """
                - strategy: Delete
                  delete: {path: spec.graceSeconds, existsOn: Spoke}
                  acknowledgeLossy: true
                - strategy: Delete
                  delete: {path: spec.grace, existsOn: Hub}
            """);
    assertThat(diff(story, changed)).isEqualTo(1);
    assertThat(flat())
        .contains("spoke v3: changed (WORSE)")
        .contains("no longer writes spec.graceSeconds (written before)")
        .contains("no longer writes spec.grace (written before)");
  }

  @Test
  void aRuleChangedInsideAForEachIsADifference() throws IOException {
    var story = examples.resolve("foreach-reshape");
    var changed =
        changed(
            story,
            """
                        - strategy: FieldRename
                          fieldRename: {hubPath: effect, spokePath: effectName}
            """,
            """
                        - strategy: CEL
                          acknowledgeLossy: true
                          cel:
                            hubPaths: [effect]
                            spokePaths: [effectName]
                            hubToSpoke: '{"effectName": object.effect == "NoSchedule" ? "NoExecute" : "NoSchedule"}'
                            spokeToHub: '{"effect": object.effectName == "NoSchedule" ? "NoExecute" : "NoSchedule"}'
            """);
    assertThat(diff(story, changed)).as("%s%s", out, err).isEqualTo(1);
    assertThat(flat())
        .contains("behaviour hub->spoke:")
        .contains("spec.nodePools[0].taints[0].effectName");
  }

  @Test
  void theSameConfigHasNoDifference() {
    var story = examples.resolve("kitchen-sink");
    assertThat(diff(story, story.resolve("config.yaml").toString())).isZero();
    assertThat(flat()).contains("no difference").doesNotContain("behaviour");
  }
}
