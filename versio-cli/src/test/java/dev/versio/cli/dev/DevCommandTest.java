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
        .contains("crossplane-xr")
        .doesNotContain("mistakes");
  }

  @Test
  void theCrossplaneStoryIsServedFromTheCrdGeneratedFromItsXrd() {
    var story = Story.load(examples(), "crossplane-xr");
    assertThat(story.isXrd()).isTrue();
    assertThat(story.configKind()).isEqualTo("XRDConversionConfig");
    assertThat(story.crdName()).isEqualTo("postgresinstances.db.example.org");
    assertThat(story.versions()).containsExactly("v1alpha1", "v1beta1", "v1");
    assertThat(story.storageVersion()).as("the referenceable version").isEqualTo("v1");
    assertThat(story.toCreate())
        .singleElement()
        .satisfies(
            s -> {
              assertThat(s.version()).isEqualTo("v1");
              assertThat(s.namespace()).isEqualTo("shop");
            });
  }

  @Test
  void aConfigOfTheWrongKindIsNamed(@TempDir Path tmp) throws IOException {
    var story = Files.createDirectories(tmp.resolve("examples/wrong-kind"));
    var source = examples().resolve("field-rename");
    Files.copy(source.resolve("crd.yaml"), story.resolve("crd.yaml"));
    Files.writeString(
        story.resolve("config.yaml"),
        Files.readString(source.resolve("config.yaml"))
            .replace("kind: CRDConversionConfig", "kind: XRDConversionConfig"));
    assertThat(
            run(
                "dev",
                "--examples-dir",
                tmp.resolve("examples").toString(),
                "--story",
                "wrong-kind"))
        .isEqualTo(2);
    assertThat(err.toString()).contains("is a XRDConversionConfig, not a CRDConversionConfig");
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
