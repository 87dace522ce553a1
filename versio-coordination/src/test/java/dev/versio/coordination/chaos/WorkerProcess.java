package dev.versio.coordination.chaos;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One {@link DemoWorker} JVM, logging straight to its own file (one per start); it exits on its own
 * if this test JVM goes away (stdin EOF).
 */
final class WorkerProcess {
  private final String id;
  private final Process process;
  private final Path log;

  private WorkerProcess(String id, Process process, Path log) {
    this.id = id;
    this.process = process;
    this.log = log;
  }

  static WorkerProcess start(String id, Path logs, List<String> workerArgs) throws IOException {
    Files.createDirectories(logs);
    int start = 1;
    while (Files.exists(logs.resolve(id + "-" + start + ".log"))) {
      start++;
    }
    var log = logs.resolve(id + "-" + start + ".log");
    var java = ProcessHandle.current().info().command().orElse("java");
    var command =
        new ArrayList<String>(
            List.of(
                java,
                "-Xmx128m",
                "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1",
                "-cp",
                System.getProperty("java.class.path"),
                DemoWorker.class.getName()));
    command.addAll(workerArgs);
    var process =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.to(log.toFile()))
            .start();
    return new WorkerProcess(id, process, log);
  }

  /** Waits until the worker printed READY (its lease loop runs). */
  void awaitReady() throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (System.nanoTime() < deadline) {
      if (Files.readString(log).contains("READY " + id)) {
        return;
      }
      if (!process.isAlive()) {
        throw new IllegalStateException(
            "worker " + id + " exited with " + process.exitValue() + "; see " + log);
      }
      Thread.sleep(50); // polling a child process's log
    }
    throw new IllegalStateException("worker " + id + " not ready within 60 s; see " + log);
  }

  void kill() throws InterruptedException {
    process.destroyForcibly(); // SIGKILL
    process.waitFor(10, TimeUnit.SECONDS);
  }

  /** SIGTERM and wait for the planned stop to finish. */
  void terminate() throws InterruptedException {
    process.destroy(); // SIGTERM
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      process.destroyForcibly();
    }
  }
}
