package dev.versio.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.versio.testkit.process.ProcessLedger;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProcessLedgerTest {
  @TempDir Path ledgerDir;
  @TempDir Path dataDir;
  private final List<Process> sleepers = new ArrayList<>();
  private final List<String> printed = new ArrayList<>();

  @AfterEach
  void stopSleepers() {
    sleepers.forEach(Process::destroyForcibly);
  }

  @Test
  void processesOfADeadOwnerAreStoppedAndTheirFoldersDeleted() throws IOException {
    var sleeper = sleep();
    Files.writeString(
        ledgerDir.resolve("1-x.ledger"),
        """
        owner %d 0
        process %d %d etcd
        path %s
        """
            .formatted(deadPid(), sleeper.pid(), start(sleeper), dataDir));

    int stopped = new ProcessLedger(ledgerDir, printed::add).reapStale();

    assertThat(stopped).isEqualTo(1);
    assertThat(sleeper.isAlive()).isFalse();
    assertThat(dataDir).doesNotExist();
    assertThat(ledgerDir).isEmptyDirectory();
    assertThat(printed)
        .singleElement()
        .asString()
        .contains("stale etcd")
        .contains("pid " + sleeper.pid());
  }

  @Test
  void processesOfALiveOwnerAreLeftAlone() throws IOException {
    var sleeper = sleep();
    var self = ProcessHandle.current();
    Files.writeString(
        ledgerDir.resolve("2-x.ledger"),
        "owner %d %d\nprocess %d %d etcd\n"
            .formatted(self.pid(), start(self), sleeper.pid(), start(sleeper)));

    assertThat(new ProcessLedger(ledgerDir, printed::add).reapStale()).isZero();
    assertThat(sleeper.isAlive()).isTrue();
  }

  @Test
  void aReusedPidWithAnotherStartTimeIsNeverKilled() throws IOException {
    var sleeper = sleep();
    Files.writeString(
        ledgerDir.resolve("3-x.ledger"),
        "owner %d 0\nprocess %d %d etcd\n"
            .formatted(deadPid(), sleeper.pid(), start(sleeper) - 3_600_000));

    assertThat(new ProcessLedger(ledgerDir, printed::add).reapStale()).isZero();
    assertThat(sleeper.isAlive()).isTrue();
  }

  private Process sleep() throws IOException {
    var process = new ProcessBuilder("sleep", "300").start();
    sleepers.add(process);
    return process;
  }

  private static long start(Process process) {
    return start(process.toHandle());
  }

  private static long start(ProcessHandle handle) {
    return handle.info().startInstant().orElseThrow().toEpochMilli();
  }

  private static long deadPid() throws IOException {
    var process = new ProcessBuilder("true").start();
    try {
      process.waitFor();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return process.pid();
  }
}
