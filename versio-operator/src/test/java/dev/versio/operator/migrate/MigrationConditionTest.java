package dev.versio.operator.migrate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.versio.api.config.StorageMigrationSpec;
import dev.versio.api.config.StorageMigrationStatus;
import dev.versio.operator.migrate.MigrationDecision.Phases;
import java.util.List;
import org.junit.jupiter.api.Test;

class MigrationConditionTest {
  private static final StorageTarget PROMOTED = Targets.widgets("v1", "v2");
  private static final StorageTarget CLEAN = Targets.widgets("v2");

  @Test
  void aTargetThatOnlyEverStoredItsStorageVersionHasNoCondition() {
    assertThat(MigrationCondition.of(MigrationTarget.of(CLEAN), null, null, true)).isEmpty();
  }

  @Test
  void aPromotedTargetOfAManualConfigSaysWhichVersionIsStuckAndHowToMigrate() {
    var check = MigrationCondition.of(MigrationTarget.of(PROMOTED), null, null, true).orElseThrow();
    assertThat(check.ok()).isFalse();
    assertThat(check.reason()).isEqualTo("MigrationNeeded");
    assertThat(check.message())
        .contains("[v1, v2]")
        .contains("stored at v1")
        .contains("versio.dev/migrate-storage=")
        .contains("policy: Automatic");
  }

  @Test
  void aRunningMigrationShowsItsProgressAndASucceededOneSaysWhatItDid() {
    var running = new StorageMigrationStatus();
    running.phase = Phases.RUNNING;
    running.message = "re-storing at v2: 500 of about 1200 objects";
    var check =
        MigrationCondition.of(MigrationTarget.of(PROMOTED), running, null, true).orElseThrow();
    assertThat(check.ok()).isFalse();
    assertThat(check.message()).isEqualTo(running.message);

    var done = new StorageMigrationStatus();
    done.phase = Phases.SUCCEEDED;
    done.message = "1200 objects re-stored at v2";
    check = MigrationCondition.of(MigrationTarget.of(CLEAN), done, null, true).orElseThrow();
    assertThat(check.ok()).isTrue();
    assertThat(check.message()).contains("lists only v2").contains("1200 objects re-stored");
  }

  @Test
  void aFailedRunKeepsTheConditionFalseWithItsCause() {
    var failed = new StorageMigrationStatus();
    failed.phase = Phases.FAILED;
    failed.message = "1 object(s) could not be rewritten (first: ns/w1: denied)";
    var automatic = new StorageMigrationSpec();
    automatic.policy = "Automatic";
    var check =
        MigrationCondition.of(MigrationTarget.of(PROMOTED), failed, automatic, true).orElseThrow();
    assertThat(check.reason()).isEqualTo("Failed");
    assertThat(check.message()).contains("ns/w1: denied");
  }

  @Test
  void anXrdWhoseGeneratedCrdLacksTheConversionSaysWhyNoMigrationStarts() {
    var claims = Targets.claims("v1", "v2");
    var target =
        new MigrationTarget(
            List.of(PROMOTED, claims), "crd/widgetclaims.example.com does not carry it yet");
    var automatic = new StorageMigrationSpec();
    automatic.policy = "Automatic";

    var check = MigrationCondition.of(target, null, automatic, true).orElseThrow();

    assertThat(check.ok()).isFalse();
    assertThat(check.reason()).isEqualTo("MigrationNeeded");
    assertThat(check.message())
        .contains(
            "[v1, v2] on crd/widgets.example.com and [v1, v2] on crd/widgetclaims.example.com")
        .contains("No migration starts yet: crd/widgetclaims.example.com does not carry it yet")
        .doesNotContain("starts now");
  }

  @Test
  void anXrdWhoseGeneratedCrdsBothListOnlyTheStorageVersionNamesThemBoth() {
    var claims = Targets.claims("v2");
    var done = new StorageMigrationStatus();
    done.phase = Phases.SUCCEEDED;
    done.message = "30 objects re-stored at v2";

    var check =
        MigrationCondition.of(new MigrationTarget(List.of(CLEAN, claims), null), done, null, true)
            .orElseThrow();

    assertThat(check.ok()).isTrue();
    assertThat(check.message())
        .startsWith(
            "status.storedVersions of crd/widgets.example.com and crd/widgetclaims.example.com"
                + " lists only v2");
  }
}
