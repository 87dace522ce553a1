package dev.versio.testkit.process;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/** A child process whose stdout and stderr go to a log file, and that can be stopped politely. */
public final class ManagedProcess {
  private final String name;
  private final Process process;
  private final Path log;

  private ManagedProcess(String name, Process process, Path log) {
    this.name = name;
    this.process = process;
    this.log = log;
  }

  /** Starts {@code command} with its output appended to {@code log}. */
  public static ManagedProcess start(String name, List<String> command, Path log)
      throws IOException {
    return start(name, command, Map.of(), log);
  }

  /**
   * Starts {@code command} with its output appended to {@code log}, in this process's environment
   * plus {@code environment} (whose entries win).
   */
  public static ManagedProcess start(
      String name, List<String> command, Map<String, String> environment, Path log)
      throws IOException {
    Objects.requireNonNull(name, "name");
    Files.createDirectories(log.getParent());
    var builder =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
            .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
    builder.environment().putAll(environment);
    return new ManagedProcess(name, builder.start(), log);
  }

  /** The {@code java} binary this JVM runs on, to start child JVMs with the same runtime. */
  public static String currentJava() {
    return ProcessHandle.current()
        .info()
        .command()
        .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
  }

  public String name() {
    return name;
  }

  public long pid() {
    return process.pid();
  }

  /** When the operating system says the process started (used to tell a reused PID apart). */
  public Instant startInstant() {
    return process.toHandle().info().startInstant().orElse(Instant.EPOCH);
  }

  public Path log() {
    return log;
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  /** The exit code, if the process has ended. */
  public Integer exitCodeOrNull() {
    return process.isAlive() ? null : process.exitValue();
  }

  /** The last {@code lines} lines of the log, for error messages. */
  public String logTail(int lines) {
    try {
      var all = Files.readAllLines(log);
      return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
    } catch (IOException e) {
      return "(log " + log + " unreadable: " + e.getMessage() + ")";
    }
  }

  /** Sends SIGTERM, waits up to {@code grace}, then SIGKILL; returns once the process is gone. */
  public void stop(Duration grace) {
    stop(process.toHandle(), grace);
  }

  /** Stops any process handle the same way as {@link #stop(Duration)}. */
  public static void stop(ProcessHandle handle, Duration grace) {
    if (!handle.isAlive()) {
      return;
    }
    handle.destroy();
    try {
      handle.onExit().get(grace.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception e) {
      // fall through to the forced kill
    }
    if (handle.isAlive()) {
      handle.destroyForcibly();
      try {
        handle.onExit().get(5, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (Exception e) {
        // the kernel will reap it; nothing more a user-space process can do
      }
    }
  }
}
