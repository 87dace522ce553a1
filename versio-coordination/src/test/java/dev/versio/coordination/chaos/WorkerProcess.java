package dev.versio.coordination.chaos;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** One {@link DemoWorker} JVM; it exits on its own if this test JVM goes away (stdin EOF). */
final class WorkerProcess {
  private final String id;
  private final Process process;
  private final CompletableFuture<Void> ready = new CompletableFuture<>();

  private WorkerProcess(String id, Process process, Path log) {
    this.id = id;
    this.process = process;
    Thread.ofPlatform()
        .daemon()
        .name("worker-out-" + id)
        .start(
            () -> {
              try (var reader =
                      new BufferedReader(
                          new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
                  var out =
                      Files.newBufferedWriter(
                          log,
                          StandardCharsets.UTF_8,
                          java.nio.file.StandardOpenOption.CREATE,
                          java.nio.file.StandardOpenOption.APPEND)) {
                String line;
                while ((line = reader.readLine()) != null) {
                  if (line.startsWith("READY ")) {
                    ready.complete(null);
                  }
                  out.write(line);
                  out.newLine();
                  out.flush();
                }
              } catch (IOException e) {
                ready.completeExceptionally(e);
              }
              ready.completeExceptionally(
                  new IllegalStateException("worker " + id + " exited early; see " + log));
            });
  }

  static WorkerProcess start(String id, Path logs, List<String> workerArgs) throws IOException {
    Files.createDirectories(logs);
    var java = ProcessHandle.current().info().command().orElse("java");
    var command =
        new ArrayList<String>(
            List.of(
                java,
                "-Xmx128m",
                "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1",
                "-Xshare:auto",
                "-cp",
                System.getProperty("java.class.path"),
                DemoWorker.class.getName()));
    command.addAll(workerArgs);
    var process = new ProcessBuilder(command).redirectErrorStream(true).start();
    return new WorkerProcess(id, process, logs.resolve(id + ".log"));
  }

  String id() {
    return id;
  }

  void awaitReady() throws Exception {
    ready.get(60, TimeUnit.SECONDS);
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

  boolean alive() {
    return process.isAlive();
  }
}
