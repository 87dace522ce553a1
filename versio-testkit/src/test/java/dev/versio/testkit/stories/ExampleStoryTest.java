package dev.versio.testkit.stories;

import static org.assertj.core.api.Assertions.assertThat;

import dev.versio.engine.schema.ResourceSchemas;
import org.junit.jupiter.api.Test;

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
}
