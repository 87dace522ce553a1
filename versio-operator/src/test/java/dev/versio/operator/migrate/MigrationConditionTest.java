package dev.versio.operator.migrate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.versio.api.config.StorageMigrationSpec;
import dev.versio.api.config.StorageMigrationStatus;
import dev.versio.operator.migrate.MigrationDecision.Phases;
import java.util.List;
import org.junit.jupiter.api.Test;

class MigrationConditionTest {
  private static final StorageTarget PROMOTED =
      new StorageTarget(
          "widgets.example.com",
          "example.com",
          "Widget",
          "widgets",
          true,
          "v2",
          List.of("v1", "v2"),
          "uid-1/2");
  private static final StorageTarget CLEAN =
      new StorageTarget(
          "widgets.example.com",
          "example.com",
          "Widget",
          "widgets",
          true,
          "v2",
          List.of("v2"),
          "uid-1/2");

  @Test
  void aTargetThatOnlyEverStoredItsStorageVersionHasNoCondition() {
    assertThat(MigrationCondition.of(CLEAN, null, null, true)).isEmpty();
  }

  @Test
  void aPromotedTargetOfAManualConfigSaysWhichVersionIsStuckAndHowToMigrate() {
    var check = MigrationCondition.of(PROMOTED, null, null, true).orElseThrow();
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
    var check = MigrationCondition.of(PROMOTED, running, null, true).orElseThrow();
    assertThat(check.ok()).isFalse();
    assertThat(check.message()).isEqualTo(running.message);

    var done = new StorageMigrationStatus();
    done.phase = Phases.SUCCEEDED;
    done.message = "1200 objects re-stored at v2";
    check = MigrationCondition.of(CLEAN, done, null, true).orElseThrow();
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
    var check = MigrationCondition.of(PROMOTED, failed, automatic, true).orElseThrow();
    assertThat(check.reason()).isEqualTo("Failed");
    assertThat(check.message()).contains("ns/w1: denied");
  }
}
