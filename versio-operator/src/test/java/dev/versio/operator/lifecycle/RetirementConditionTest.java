package dev.versio.operator.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.versio.api.served.VersionUse;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RetirementConditionTest {
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
  private static final Instant NOW = Instant.parse("2026-12-05T12:00:00Z");
  private static final Instant SINCE = NOW.minus(Duration.ofDays(2));

  private static JsonNode crd(String versions, String stored) throws Exception {
    return YAML.readTree(
        "spec:\n  versions:\n" + versions.indent(2) + "status:\n  storedVersions: " + stored);
  }

  private static RetirementCondition.Result of(JsonNode crd, VersionUse use, Instant now) {
    return RetirementCondition.of(VersionLifecycle.of(crd, Set.of("v1", "v2"), use, now), now)
        .orElseThrow();
  }

  @Test
  void aVersionStillListedInStoredVersionsWaitsForTheStorageMigration() throws Exception {
    var result =
        of(
            crd(
                """
                - {name: v1, served: true, storage: false, deprecated: true}
                - {name: v2, served: true, storage: true}
                """,
                "[v1, v2]"),
            new VersionUse(Map.of(), SINCE),
            NOW);

    assertThat(result.check().ok()).isFalse();
    assertThat(result.check().reason()).isEqualTo(RetirementCondition.STORED);
    assertThat(result.check().message())
        .isEqualTo(
            "Not yet: v1: objects may still be stored at it (status.storedVersions lists it);"
                + " re-store them at v2 first (condition StorageMigrated).");
    assertThat(result.recheckIn()).isEmpty();
  }

  @Test
  void aDeprecatedVersionAReviewTouchedWithinTheHourIsHeldAndLookedAtAgainWhenThatAgesOut()
      throws Exception {
    var lastRead = NOW.minus(Duration.ofMinutes(20));
    var result =
        of(
            crd(
                """
                - {name: v1, served: true, storage: false, deprecated: true}
                - {name: v2, served: true, storage: true}
                """,
                "[v2]"),
            new VersionUse(Map.of("v1", lastRead), SINCE),
            NOW);

    assertThat(result.check().ok()).isFalse();
    assertThat(result.check().reason()).isEqualTo(RetirementCondition.IN_USE);
    assertThat(result.check().message()).contains("v1: a review touched it within the last hour");
    assertThat(result.recheckIn()).contains(Duration.ofMinutes(40).plusSeconds(1));

    var later =
        of(
            crd(
                """
                - {name: v1, served: true, storage: false, deprecated: true}
                - {name: v2, served: true, storage: true}
                """,
                "[v2]"),
            new VersionUse(Map.of("v1", lastRead), SINCE),
            NOW.plus(Duration.ofMinutes(41)));
    assertThat(later.check().ok()).as("an hour after the last review").isTrue();
    assertThat(later.check().reason()).isEqualTo(RetirementCondition.READY);
    assertThat(later.check().message())
        .isEqualTo(
            "Can stop being served now: v1 (deprecated, nothing stored at it, no review touched it"
                + " after "
                + lastRead
                + "): set served: false.");
    assertThat(later.recheckIn())
        .as("looked at again, in case a client comes back")
        .contains(RetirementCondition.RECHECK);
  }

  @Test
  void aStoppableVersionsMessageDoesNotChangeAsTimePasses() throws Exception {
    var crd =
        crd(
            """
            - {name: v1, served: true, storage: false, deprecated: true}
            - {name: v2, served: true, storage: true}
            """,
            "[v2]");
    var use = new VersionUse(Map.of("v2", NOW), SINCE);

    var now = of(crd, use, NOW);
    var inAnHour = of(crd, use, NOW.plus(Duration.ofHours(1)));

    assertThat(now.check().message())
        .as("no status write per look")
        .isEqualTo(inAnHour.check().message())
        .contains("no review touched it since " + SINCE);
  }

  @Test
  void replicasThatHaveWatchedForLessThanAnHourCannotTellAVersionIsUnused() throws Exception {
    var crd =
        crd(
            """
            - {name: v1, served: true, storage: false, deprecated: true}
            - {name: v2, served: true, storage: true}
            """,
            "[v2]");
    var rolledOut = NOW.minus(Duration.ofMinutes(10));

    var result = of(crd, new VersionUse(Map.of(), rolledOut), NOW);

    assertThat(result.check().ok()).isFalse();
    assertThat(result.check().reason()).isEqualTo(RetirementCondition.USE_UNKNOWN);
    assertThat(result.check().message())
        .contains("have seen every review of it only since " + rolledOut);
    assertThat(result.recheckIn()).contains(Duration.ofMinutes(50).plusSeconds(1));
    assertThat(
            of(crd, new VersionUse(Map.of(), rolledOut), NOW.plus(Duration.ofMinutes(51)))
                .check()
                .ok())
        .as("an hour of reports without a review")
        .isTrue();
  }

  @Test
  void aServingReplicaThatReportsNothingLeavesUseUnknownButARecentReviewStillShowsUse()
      throws Exception {
    var crd =
        crd(
            """
            - {name: v1, served: true, storage: false, deprecated: true}
            - {name: v2, served: true, storage: true}
            """,
            "[v2]");

    var unknown = of(crd, new VersionUse(Map.of(), SINCE, false), NOW);
    var used = of(crd, new VersionUse(Map.of("v1", NOW.minusSeconds(60)), SINCE, false), NOW);

    assertThat(unknown.check().ok()).isFalse();
    assertThat(unknown.check().reason()).isEqualTo(RetirementCondition.USE_UNKNOWN);
    assertThat(unknown.check().message()).contains("reports nothing of its reviews");
    assertThat(used.check().reason()).isEqualTo(RetirementCondition.IN_USE);
  }

  @Test
  void withoutReportsFromTheReplicasWhetherAClientUsesAVersionIsUnknown() throws Exception {
    var result =
        of(
            crd(
                """
                - {name: v1, served: true, storage: false, deprecated: true}
                - {name: v2, served: true, storage: true}
                """,
                "[v2]"),
            null,
            NOW);

    assertThat(result.check().ok()).isFalse();
    assertThat(result.check().reason()).isEqualTo(RetirementCondition.USE_UNKNOWN);
  }

  @Test
  void everyVersionOnItsWayOutIsListedRemovableStoppableAndHeldTogether() throws Exception {
    var result =
        RetirementCondition.of(
                VersionLifecycle.of(
                    crd(
                        """
                        - {name: v0, served: false, storage: false}
                        - {name: v1, served: true, storage: false, deprecated: true}
                        - {name: v2, served: false, storage: false}
                        - {name: v3, served: true, storage: true}
                        """,
                        "[v2, v3]"),
                    Set.of("v0", "v1", "v2", "v3"),
                    new VersionUse(Map.of(), SINCE),
                    NOW),
                NOW)
            .orElseThrow();

    assertThat(result.check().ok()).isTrue();
    assertThat(result.check().message())
        .isEqualTo(
            "Can be removed now: v0 (neither served nor stored): remove it from spec.versions,"
                + " then its spoke from the config."
                + " Can stop being served now: v1 (deprecated, nothing stored at it, no review"
                + " touched it since "
                + SINCE
                + "): set served: false."
                + " Not yet: v2: objects may still be stored at it (status.storedVersions lists"
                + " it); re-store them at v3 first (condition StorageMigrated).");
  }

  @Test
  void noConditionWhileNoVersionIsOnItsWayOut() throws Exception {
    var lifecycle =
        VersionLifecycle.of(
            crd(
                """
                - {name: v1, served: true, storage: false}
                - {name: v2, served: true, storage: true}
                """,
                "[v2]"),
            Set.of("v1", "v2"),
            new VersionUse(Map.of("v1", NOW), SINCE),
            NOW);

    assertThat(RetirementCondition.of(lifecycle, NOW)).isEmpty();
  }
}
