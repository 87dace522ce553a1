package dev.versio.cli.dev;

import static org.assertj.core.api.Assertions.assertThat;

import dev.versio.cli.VersioCommand;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DevCommandTest {
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    var cli = VersioCommand.commandLine();
    cli.setOut(new PrintWriter(out));
    cli.setErr(new PrintWriter(err));
    return cli.execute(args);
  }

  private static Path examples() {
    return Story.findExamples(Path.of(""), null).orElseThrow();
  }

  @Test
  void anUnknownStoryIsASetupErrorThatListsTheStories() {
    assertThat(run("dev", "--story", "no-such-story")).isEqualTo(2);
    assertThat(err.toString())
        .contains("versio dev: there is no story 'no-such-story'")
        .contains("field-rename")
        .contains("kitchen-sink")
        .doesNotContain("crossplane-xr");
  }

  @Test
  void anXrdStoryIsRefusedWithTheWayToCheckItOffline() {
    assertThat(run("dev", "--story", "crossplane-xr")).isEqualTo(2);
    assertThat(err.toString())
        .contains("Crossplane XRD")
        .contains("--story field-rename")
        .contains("versio test -c ");
  }

  @Test
  void aMissingExamplesFolderIsNamed(@TempDir Path tmp) {
    assertThat(run("dev", "--examples-dir", tmp.resolve("nothing").toString())).isEqualTo(2);
    assertThat(err.toString()).contains("--examples-dir").contains("is not a folder");
  }

  @Test
  void theExamplesFolderIsFoundAboveTheWorkingDirectory(@TempDir Path tmp) throws IOException {
    var deep = Files.createDirectories(tmp.resolve("a/b/c"));
    Files.createDirectories(tmp.resolve("a/examples"));
    assertThat(Story.findExamples(deep, null)).contains(tmp.resolve("a/examples"));
    assertThat(Story.findExamples(tmp, deep)).contains(tmp.resolve("a/examples"));
  }

  @Test
  void theFieldRenameStoryCreatesItsSampleAtTheStorageVersion() {
    var story = Story.load(examples(), "field-rename");
    assertThat(story.crdName()).isEqualTo("caches.example.com");
    assertThat(story.versions()).containsExactly("v1", "v2");
    assertThat(story.storageVersion()).isEqualTo("v2");
    assertThat(story.toCreate())
        .singleElement()
        .satisfies(
            s -> {
              assertThat(s.version()).isEqualTo("v2");
              assertThat(s.objectName()).isEqualTo("small");
              assertThat(s.namespace()).isEqualTo("default");
            });
    assertThat(story.resourceAt("v1")).isEqualTo("caches.v1.example.com");
  }

  @Test
  void everyCrdStoryLoads() {
    for (var name : Story.storiesIn(examples())) {
      var story = Story.load(examples(), name);
      assertThat(story.toCreate()).as(name).isNotEmpty();
      assertThat(story.versions()).as(name).contains(story.storageVersion());
    }
  }

  @Test
  void aZeroTimeoutIsAUsageError() {
    assertThat(run("dev", "--timeout", "0s")).isEqualTo(2);
    assertThat(err.toString()).contains("--timeout");
  }
}
