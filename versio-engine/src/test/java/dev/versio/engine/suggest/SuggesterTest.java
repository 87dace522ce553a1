package dev.versio.engine.suggest;

import static dev.versio.engine.Fixtures.target;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class SuggesterTest {
  private final Suggester suggester = new Suggester();

  @Test
  void identicalVersionsNeedNoRule() {
    var props = "{replicas: {type: integer}, image: {type: string}}";

    var suggestion = suggester.suggest(target(props, props), null);

    assertThat(suggestion.hubVersion()).isEqualTo("v2");
    assertThat(suggestion.spokes())
        .singleElement()
        .satisfies(s -> assertThat(s.identical()).isTrue());
  }

  @Test
  void aFieldWithTheSameTypeUnderTheSameParentIsProposedAsARename() {
    var spoke =
        suggester
            .suggest(
                target(
                    "{replicas: {type: integer}, image: {type: string}}",
                    "{size: {type: integer}, image: {type: string}}"),
                null)
            .spokes()
            .getFirst();

    assertThat(spoke.renames())
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.hubPath()).isEqualTo("spec.replicas");
              assertThat(r.spokePath()).isEqualTo("spec.size");
              assertThat(r.reason()).contains("same parent");
            });
    assertThat(spoke.hubOnly()).isEmpty();
    assertThat(spoke.spokeOnly()).isEmpty();
  }

  @Test
  void aFieldMovedUnderAnotherParentKeepingItsNameIsProposedAsARename() {
    var spoke =
        suggester
            .suggest(
                target(
                    "{tls: {type: object, properties: {enabled: {type: boolean}}}}",
                    "{enabled: {type: boolean}}"),
                null)
            .spokes()
            .getFirst();

    assertThat(spoke.renames())
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.hubPath()).isEqualTo("spec.tls.enabled");
              assertThat(r.spokePath()).isEqualTo("spec.enabled");
              assertThat(r.reason()).contains("different place");
            });
  }

  @Test
  void anAmbiguousGuessIsLeftToTheAuthor() {
    var spoke =
        suggester
            .suggest(
                target(
                    "{owner: {type: string}, team: {type: string}}",
                    "{ownerName: {type: string}, teamName: {type: string}}"),
                null)
            .spokes()
            .getFirst();

    assertThat(spoke.renames()).isEmpty();
    assertThat(spoke.hubOnly()).containsExactly("spec.owner", "spec.team");
    assertThat(spoke.spokeOnly()).containsExactly("spec.ownerName", "spec.teamName");
  }

  @Test
  void aChangedTypeInsideArrayItemsIsReportedAtTheItemFieldOnly() {
    var spoke =
        suggester
            .suggest(
                target(
                    "{ports: {type: array, items: {type: object, properties: {port: {type: integer}}}}}",
                    "{ports: {type: array, items: {type: object, properties: {port: {type: string}}}}}"),
                null)
            .spokes()
            .getFirst();

    assertThat(spoke.retyped())
        .singleElement()
        .satisfies(r -> assertThat(r.path()).isEqualTo("spec.ports[].port"));
  }

  @Test
  void arraysWithDifferentItemsAreNotProposedAsARenameButArraysWithTheSameItemsAre() {
    var spoke =
        suggester
            .suggest(
                target(
                    "{listeners: {type: array, items: {type: object, properties: {port: {type: integer}}}},"
                        + " tags: {type: array, items: {type: string}}}",
                    "{backups: {type: array, items: {type: object, properties: {schedule: {type: string}}}},"
                        + " labels: {type: array, items: {type: string}}}"),
                null)
            .spokes()
            .getFirst();

    assertThat(spoke.renames())
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.hubPath()).isEqualTo("spec.tags");
              assertThat(r.spokePath()).isEqualTo("spec.labels");
            });
    assertThat(spoke.hubOnly()).containsExactly("spec.listeners");
    assertThat(spoke.spokeOnly()).containsExactly("spec.backups");
  }

  @Test
  void anUnknownHubVersionNamesTheDeclaredOnes() {
    var props = "{replicas: {type: integer}}";

    assertThatThrownBy(() -> suggester.suggest(target(props, props), "v9"))
        .hasMessageContaining("no version v9")
        .hasMessageContaining("[v2, v1]");
  }
}
