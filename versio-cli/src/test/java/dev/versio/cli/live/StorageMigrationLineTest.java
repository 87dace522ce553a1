package dev.versio.cli.live;

import static org.assertj.core.api.Assertions.assertThat;

import dev.versio.api.config.StorageMigrationStatus;
import org.junit.jupiter.api.Test;

class StorageMigrationLineTest {
  @Test
  void aRunningMigrationShowsABarOfTheEstimatedTotalAndHowOftenItWasContinued() {
    var m = new StorageMigrationStatus();
    m.phase = "Running";
    m.storageVersion = "v2";
    m.handled = 120L;
    m.total = 480L;
    m.resumed = 1L;

    assertThat(StatusCommand.migrationLine(m))
        .isEqualTo("Running [#####...............] 120/480 (25 %) at v2, continued 1×");
  }

  @Test
  void aRunWhoseTotalIsNotKnownYetShowsAnEmptyBar() {
    var m = new StorageMigrationStatus();
    m.phase = "Running";
    m.storageVersion = "v2";

    assertThat(StatusCommand.migrationLine(m))
        .isEqualTo("Running [....................] 0/? at v2");
  }

  @Test
  void anEndedRunSaysHowItEnded() {
    var m = new StorageMigrationStatus();
    m.phase = "Failed";
    m.message = "1 object(s) could not be rewritten";

    assertThat(StatusCommand.migrationLine(m))
        .isEqualTo("Failed: 1 object(s) could not be rewritten");
  }
}
