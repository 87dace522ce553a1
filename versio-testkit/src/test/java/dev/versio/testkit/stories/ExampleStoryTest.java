package dev.versio.testkit.stories;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.versio.engine.schema.ResourceSchemas;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The stories under {@code examples/} as the round trip reads them. */
class ExampleStoryTest {
  @Test
  void everyStoryUnderExamplesIsListedByNameWithItsSamples() {
    assertThat(ExampleStory.all())
        .extracting(ExampleStory::name)
        .contains("crossplane-xr", "field-rename", "kitchen-sink")
        .doesNotContain("mistakes")
        .isSorted();
    assertThat(ExampleStory.all()).allSatisfy(s -> assertThat(s.samples()).isNotEmpty());
  }

  @Test
  void anXrdStoryIsServedFromTheCrdCrossplaneWouldGenerate() {
    var story = ExampleStory.all().stream().filter(ExampleStory::isXrd).findFirst().orElseThrow();
    var crd = story.crd();
    assertThat(crd.path("kind").asText()).isEqualTo("CustomResourceDefinition");
    assertThat(story.crdName()).isEqualTo(story.xrd().path("metadata").path("name").asText());
    assertThat(story.schemas().versions())
        .extracting(v -> v.name() + ":" + v.storage())
        .containsExactlyElementsOf(
            ResourceSchemas.crd(crd).versions().stream()
                .map(v -> v.name() + ":" + v.storage())
                .toList());
  }

  @Test
  void everyStoryUnderExamplesHasAnExpectationForEveryPairItChecks() {
    assertThat(ExampleStory.all())
        .allSatisfy(s -> assertThat(s.readBacks()).as("read-backs of %s", s).isNotEmpty());
  }

  @Test
  void aStoryWithoutAnExpectationForAPairFailsNamingTheFileToAdd(@TempDir Path dir)
      throws IOException {
    var source = ExampleStory.repositoryRoot().resolve("examples/field-rename");
    Files.copy(source.resolve("crd.yaml"), dir.resolve("crd.yaml"));
    Files.copy(source.resolve("config.yaml"), dir.resolve("config.yaml"));
    Files.createDirectory(dir.resolve("samples"));
    Files.copy(source.resolve("samples/small.v1.yaml"), dir.resolve("samples/small.v1.yaml"));

    assertThatThrownBy(() -> new ExampleStory(dir).readBacks())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("small from v1 to v2")
        .hasMessageContaining("add samples/small.v2.yaml or expected/small.v1-to-v2.yaml");
  }
}
