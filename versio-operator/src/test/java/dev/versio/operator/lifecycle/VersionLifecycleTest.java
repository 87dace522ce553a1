package dev.versio.operator.lifecycle;

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
    assertThat(
            lifecycle
                .next()
                .orElseThrow()
                .describe(java.util.List.of("xcaches.example.com", "caches.example.com")))
        .as("an XRD's objects live in the two CRDs Crossplane generates from it")
        .contains(
            "versio migrate-storage --crd-name xcaches.example.com and versio migrate-storage"
                + " --crd-name caches.example.com");
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

    assertThat(lifecycle.next())
        .contains(new VersionLifecycle.Step.StopServing("v1", null, java.time.Instant.EPOCH));
    assertThat(lifecycle.next().orElseThrow().describe("caches.example.com"))
        .contains("no webhook replica reports");
  }

  @Test
  void aDeprecatedVersionAReviewTouchedWithinTheHourIsStillInUse() throws Exception {
    var now = java.time.Instant.parse("2026-12-04T12:00:00Z");
    var use =
        new dev.versio.api.served.VersionUse(
            java.util.Map.of("v1", now.minusSeconds(240), "v2", now.minusSeconds(5)),
            now.minusSeconds(86_400));
    var lifecycle =
        VersionLifecycle.of(
            crd(
                """
                - {name: v1, served: true, storage: false, deprecated: true}
                - {name: v2, served: true, storage: true}
                """,
                "[v2]"),
            Set.of("v1", "v2"),
            use,
            now);

    var step = (VersionLifecycle.Step.StopServing) lifecycle.next().orElseThrow();
    assertThat(step.inUse()).isTrue();
    assertThat(step.describe("caches.example.com"))
        .contains("a review touched v1 at 2026-12-04T11:56:00Z")
        .contains("a client still reads or writes it");
    assertThat(lifecycle.versions())
        .extracting(VersionLifecycle.Version::lastReviewed)
        .containsExactly(now.minusSeconds(240), now.minusSeconds(5));
  }

  @Test
  void aDeprecatedVersionNoReviewTouchedSinceTheReplicasStartedMayStopBeingServed()
      throws Exception {
    var now = java.time.Instant.parse("2026-12-04T12:00:00Z");
    var since = now.minusSeconds(86_400);
    var lifecycle =
        VersionLifecycle.of(
            crd(
                """
                - {name: v1, served: true, storage: false, deprecated: true}
                - {name: v2, served: true, storage: true}
                """,
                "[v2]"),
            Set.of("v1", "v2"),
            new dev.versio.api.served.VersionUse(java.util.Map.of("v2", now), since),
            now);

    var step = (VersionLifecycle.Step.StopServing) lifecycle.next().orElseThrow();
    assertThat(step.inUse()).isFalse();
    assertThat(step.describe("caches.example.com"))
        .contains("no review touched v1 since 2026-12-03T12:00:00Z")
        .contains("stop serving it (served: false)");
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
