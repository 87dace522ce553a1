package dev.versio.cli.live;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.util.Set;
import org.junit.jupiter.api.Test;

class VersionLifecycleTest {
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  private static JsonNode crd(String versions, String stored) throws Exception {
    return YAML.readTree(
        "spec:\n  versions:\n" + versions.indent(2) + "status:\n  storedVersions: " + stored);
  }

  @Test
  void afterAStoragePromotionTheNextStepIsReStoringWhileTheOldVersionKeepsItsSpoke()
      throws Exception {
    var lifecycle =
        VersionLifecycle.of(
            crd(
                """
                - {name: v1, served: true, storage: false, deprecated: true}
                - {name: v2, served: true, storage: true}
                """,
                "[v1, v2]"),
            Set.of("v1", "v2"));

    assertThat(lifecycle.next())
        .contains(new VersionLifecycle.Step.Restore("v2", java.util.List.of("v1")));
    assertThat(lifecycle.next().orElseThrow().describe("caches.example.com"))
        .contains("versio migrate-storage --crd-name caches.example.com")
        .contains("versio.dev/migrate-storage=")
        .contains("v1 must keep its spoke");
    assertThat(lifecycle.versions())
        .extracting(VersionLifecycle.Version::stored)
        .containsExactly(true, true);
  }

  @Test
  void aDeprecatedVersionNothingIsStoredAtMayStopBeingServed() throws Exception {
    var lifecycle =
        VersionLifecycle.of(
            crd(
                """
                - {name: v1, served: true, storage: false, deprecated: true}
                - {name: v2, served: true, storage: true}
                """,
                "[v2]"),
            Set.of("v1", "v2"));

    assertThat(lifecycle.next()).contains(new VersionLifecycle.Step.StopServing("v1"));
  }

  @Test
  void aVersionNeitherServedNorStoredIsRemovedThenItsSpoke() throws Exception {
    var lifecycle =
        VersionLifecycle.of(
            crd(
                """
                - {name: v1, served: false, storage: false}
                - {name: v2, served: true, storage: true}
                """,
                "[v2]"),
            Set.of("v1", "v2"));

    assertThat(lifecycle.next()).contains(new VersionLifecycle.Step.Remove("v1", true));
    assertThat(lifecycle.next().orElseThrow().describe("caches.example.com"))
        .isEqualTo(
            "v1 is neither served nor stored: remove it from spec.versions, then its spoke from the"
                + " config");
  }

  @Test
  void aVersionNoLongerServedButStillStoredIsReStoredBeforeAnythingElse() throws Exception {
    var lifecycle =
        VersionLifecycle.of(
            crd(
                """
                - {name: v1, served: false, storage: false}
                - {name: v2, served: true, storage: true}
                - {name: v0, served: false, storage: false}
                """,
                "[v1, v2]"),
            Set.of("v1", "v2"));

    assertThat(lifecycle.next())
        .as("removing v0 can wait; v1's objects cannot be dropped")
        .contains(new VersionLifecycle.Step.Restore("v2", java.util.List.of("v1")));
  }

  @Test
  void servedVersionsThatAreNotDeprecatedHaveNoStep() throws Exception {
    var lifecycle =
        VersionLifecycle.of(
            crd(
                """
                - {name: v1, served: true, storage: false}
                - {name: v2, served: true, storage: true}
                """,
                "[v2]"),
            Set.of("v1", "v2"));

    assertThat(lifecycle.next()).isEmpty();
  }
}
