package dev.versio.operator.chaos;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/** One {@link ReplicaMain} JVM, logging to its own file (one per start). */
public final class ReplicaProcess {
  private static final Pattern READY = Pattern.compile("(?m)^READY (\\d+)$");

  final String id;
  private final Process process;
  private final Path log;

  private ReplicaProcess(String id, Process process, Path log) {
    this.id = id;
    this.process = process;
    this.log = log;
  }

  public static ReplicaProcess start(String id, Path logs, List<String> args) throws IOException {
    Files.createDirectories(logs);
    int start = 1;
    while (Files.exists(logs.resolve(id + "-" + start + ".log"))) {
      start++;
    }
    var log = logs.resolve(id + "-" + start + ".log");
    var java = ProcessHandle.current().info().command().orElse("java");
    var command =
        new ArrayList<>(
            List.of(
                java,
                "-Xmx256m",
                "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1",
                "-cp",
                System.getProperty("java.class.path"),
                ReplicaMain.class.getName()));
    command.addAll(args);
    var process =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.to(log.toFile()))
            .start();
    return new ReplicaProcess(id, process, log);
  }

  /** Waits until the process printed READY; returns the port it printed. */
  public int awaitReady() throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
    while (System.nanoTime() < deadline) {
      var matcher = READY.matcher(Files.readString(log));
      if (matcher.find()) {
        return Integer.parseInt(matcher.group(1));
      }
      if (!process.isAlive()) {
        throw new IllegalStateException(
            id + " exited with " + process.exitValue() + "; see " + log);
      }
      Thread.sleep(50); // polling a child process's log
    }
    throw new IllegalStateException(id + " not ready within 90 s; see " + log);
  }

  /** SIGKILL. */
  public void kill() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor(10, TimeUnit.SECONDS);
  }

  /** SIGTERM, and wait for the planned stop. */
  public void terminate() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      process.destroyForcibly();
    }
  }

  public boolean alive() {
    return process.isAlive();
  }
}
