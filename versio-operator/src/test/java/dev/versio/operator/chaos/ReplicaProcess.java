package dev.versio.operator.chaos;

import dev.versio.testkit.process.ManagedProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/** One {@link ReplicaMain} JVM, logging to its own file (one per start). */
public final class ReplicaProcess {
  private static final Pattern READY = Pattern.compile("(?m)^READY (\\d+)(?: (\\d+))?$");

  private final String id;
  private final ManagedProcess process;

  private ReplicaProcess(String id, ManagedProcess process) {
    this.id = id;
    this.process = process;
  }

  public static ReplicaProcess start(String id, Path logs, List<String> args) throws IOException {
    int start = 1;
    while (Files.exists(logs.resolve(id + "-" + start + ".log"))) {
      start++;
    }
    var command =
        new ArrayList<>(
            List.of(
                ManagedProcess.currentJava(),
                "-Xmx256m",
                "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1",
                "-cp",
                System.getProperty("java.class.path"),
                ReplicaMain.class.getName()));
    command.addAll(args);
    return new ReplicaProcess(
        id, ManagedProcess.start(id, command, logs.resolve(id + "-" + start + ".log")));
  }

  /** The ports a replica printed when ready: ops (or conversion) and admission (or -1). */
  public record Ports(int main, int admission) {}

  /** Waits until the process printed READY; returns the port it printed first. */
  public int awaitReady() throws Exception {
    return awaitPorts().main();
  }

  /** Waits until the process printed READY; returns the ports it printed. */
  public Ports awaitPorts() throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
    while (System.nanoTime() < deadline) {
      var matcher = READY.matcher(Files.readString(process.log()));
      if (matcher.find()) {
        return new Ports(
            Integer.parseInt(matcher.group(1)),
            matcher.group(2) == null ? -1 : Integer.parseInt(matcher.group(2)));
      }
      if (!process.isAlive()) {
        throw new IllegalStateException(
            id + " exited with " + process.exitCodeOrNull() + ":\n" + process.logTail(30));
      }
      Thread.sleep(50); // polling a child process's log
    }
    throw new IllegalStateException(id + " not ready within 90 s; see " + process.log());
  }

  /** SIGKILL. */
  public void kill() {
    ProcessHandle.of(process.pid()).ifPresent(ProcessHandle::destroyForcibly);
    ProcessHandle.of(process.pid()).ifPresent(h -> h.onExit().join());
  }

  /** SIGTERM, and wait for the planned stop (SIGKILL after 30 s). */
  public void terminate() {
    process.stop(Duration.ofSeconds(30));
  }

  /** SIGTERM now; the planned stop (SIGKILL after 30 s) completes the returned future. */
  public java.util.concurrent.CompletableFuture<Void> terminateAsync() {
    var stopping = new java.util.concurrent.CompletableFuture<Void>();
    Thread.ofPlatform()
        .daemon()
        .name("stop-" + process.name())
        .start(
            () -> {
              try {
                process.stop(Duration.ofSeconds(30));
                stopping.complete(null);
              } catch (RuntimeException e) {
                stopping.completeExceptionally(e);
              }
            });
    return stopping;
  }
}
