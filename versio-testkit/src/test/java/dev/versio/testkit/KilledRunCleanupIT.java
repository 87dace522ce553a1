package dev.versio.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.versio.testkit.process.ProcessLedger;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A test JVM killed with {@code kill -9} must not leave etcd or kube-apiserver running. Each test
 * starts a control plane in a child JVM ({@link ControlPlaneMain}), kills it with SIGKILL and
 * checks that its processes go away.
 */
class KilledRunCleanupIT {
  @TempDir Path work;
  private final List<ProcessHandle> started = new ArrayList<>();

  @AfterEach
  void killEverythingThisTestStarted() {
    started.forEach(ProcessHandle::destroyForcibly);
  }

  @Test
  void theWatchdogStopsTheControlPlaneWithinSecondsOfAKillNine() throws Exception {
    var child = startChildControlPlane();
    var servers = serverProcesses(child);

    child.destroyForcibly(); // SIGKILL: no shutdown hook runs

    await()
        .atMost(Duration.ofSeconds(15))
        .untilAsserted(() -> assertThat(servers).noneMatch(ProcessHandle::isAlive));
  }

  @Test
  void theNextRunStopsProcessesWhoseJvmAndWatchdogWereBothKilled() throws Exception {
    var child = startChildControlPlane();
    var servers = serverProcesses(child);
    var watchdog =
        child.children().filter(p -> commandOf(p).endsWith("sh")).findFirst().orElseThrow();

    watchdog.destroyForcibly();
    child.destroyForcibly();
    child.onExit().get();
    assertThat(servers).allMatch(ProcessHandle::isAlive);

    int stopped =
        new ProcessLedger(ProcessLedger.defaultDirectory(), System.err::println).reapStale();

    assertThat(stopped).isGreaterThanOrEqualTo(2);
    assertThat(servers).noneMatch(ProcessHandle::isAlive);
  }

  private ProcessHandle startChildControlPlane() throws IOException, InterruptedException {
    var java = ProcessHandle.current().info().command().orElse("java");
    var process =
        new ProcessBuilder(
                java,
                "-cp",
                System.getProperty("java.class.path"),
                ControlPlaneMain.class.getName(),
                work.toString())
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
    started.add(process.toHandle());
    var reader =
        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    String line;
    while ((line = reader.readLine()) != null) {
      if (line.startsWith("READY ")) {
        return process.toHandle();
      }
    }
    throw new AssertionError("the child control plane exited with " + process.waitFor());
  }

  private List<ProcessHandle> serverProcesses(ProcessHandle child) {
    var servers =
        child
            .children()
            .filter(p -> commandOf(p).endsWith("etcd") || commandOf(p).endsWith("kube-apiserver"))
            .toList();
    assertThat(servers).as("etcd and kube-apiserver of the child").hasSize(2);
    started.addAll(servers);
    return servers;
  }

  private static String commandOf(ProcessHandle process) {
    return process.info().command().orElse("");
  }
}
