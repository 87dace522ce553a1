package dev.versio.testkit.process;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * A machine-wide record of the processes test control planes started, one file per control plane,
 * so that a run killed with {@code kill -9} is cleaned up: by the {@link Watchdog} within seconds,
 * and failing that by {@link #reapStale} at the start of the next run.
 *
 * <p>File format, one entry per line: {@code owner <pid> <startEpochMillis>}, {@code process <pid>
 * <startEpochMillis> <name>}, {@code path <folder to delete>}. A process is only stopped when both
 * its PID and its start time match, so a reused PID is never touched.
 */
public final class ProcessLedger {
  private static final Duration START_TOLERANCE = Duration.ofSeconds(2);

  private final Path directory;
  private final Consumer<String> out;

  public ProcessLedger(Path directory, Consumer<String> out) {
    this.directory = directory;
    this.out = out;
  }

  /**
   * The default ledger folder: {@code $VERSIO_CACHE_DIR} or {@code ~/.cache/versio}, then {@code
   * testkit/ledger}.
   */
  public static Path defaultDirectory() {
    var cache = System.getenv("VERSIO_CACHE_DIR");
    var root =
        cache != null && !cache.isBlank()
            ? Path.of(cache)
            : Path.of(System.getProperty("user.home"), ".cache", "versio");
    return root.resolve("testkit").resolve("ledger");
  }

  /** Opens a new entry owned by this JVM. */
  public Entry open(String id) {
    try {
      Files.createDirectories(directory);
      var self = ProcessHandle.current();
      var file = directory.resolve(self.pid() + "-" + id + ".ledger");
      Files.writeString(file, "owner " + self.pid() + " " + startMillis(self) + "\n");
      return new Entry(file);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the test process ledger in " + directory, e);
    }
  }

  /**
   * Stops every process recorded by a JVM that is no longer running and deletes its folders.
   *
   * @return how many stale processes were stopped
   */
  public int reapStale() {
    if (!Files.isDirectory(directory)) {
      return 0;
    }
    List<Path> files;
    try (Stream<Path> list = Files.list(directory)) {
      files = list.filter(p -> p.toString().endsWith(".ledger")).toList();
    } catch (IOException e) {
      return 0;
    }
    int stopped = 0;
    for (var file : files) {
      List<String> lines;
      try {
        lines = Files.readAllLines(file);
      } catch (IOException e) {
        continue; // removed by its owner or by a watchdog meanwhile
      }
      var owner = lines.stream().filter(l -> l.startsWith("owner ")).findFirst();
      if (owner.isPresent() && isRunning(owner.get().split(" "))) {
        continue; // another live test JVM
      }
      for (var line : lines) {
        var f = line.split(" ");
        if (f[0].equals("process") && f.length >= 4 && isRunning(f)) {
          var handle = ProcessHandle.of(Long.parseLong(f[1])).orElseThrow();
          out.accept(
              "stopping stale "
                  + f[3]
                  + " (pid "
                  + f[1]
                  + ") left by a killed test run "
                  + owner.map(o -> "(JVM pid " + o.split(" ")[1] + ")").orElse(""));
          ManagedProcess.stop(handle, Duration.ofSeconds(5));
          stopped++;
        }
      }
      for (var line : lines) {
        if (line.startsWith("path ")) {
          Folders.deleteTree(Path.of(line.substring(5)));
        }
      }
      try {
        Files.deleteIfExists(file);
      } catch (IOException e) {
        // next run tries again
      }
    }
    return stopped;
  }

  private static boolean isRunning(String[] fields) {
    var handle = ProcessHandle.of(Long.parseLong(fields[1]));
    if (handle.isEmpty() || !handle.get().isAlive()) {
      return false;
    }
    var recorded = Instant.ofEpochMilli(Long.parseLong(fields[2]));
    var actual = handle.get().info().startInstant();
    return actual.isEmpty()
        || Duration.between(recorded, actual.get()).abs().compareTo(START_TOLERANCE) <= 0;
  }

  private static long startMillis(ProcessHandle handle) {
    return handle.info().startInstant().orElse(Instant.EPOCH).toEpochMilli();
  }

  /** The ledger file of one control plane. */
  public static final class Entry implements AutoCloseable {
    private final Path file;
    private final List<String> lines = new ArrayList<>();

    private Entry(Path file) {
      this.file = file;
    }

    public Path file() {
      return file;
    }

    /** Records a process right after it started. */
    public synchronized void recordProcess(ManagedProcess process) {
      append(
          "process "
              + process.pid()
              + " "
              + process.startInstant().toEpochMilli()
              + " "
              + process.name());
    }

    /** Records a folder to delete when the processes are reaped (e.g. an etcd data dir). */
    public synchronized void recordPath(Path path) {
      append("path " + path.toAbsolutePath());
    }

    private void append(String line) {
      lines.add(line);
      try {
        Files.writeString(file, line + "\n", StandardOpenOption.APPEND);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot update the test process ledger " + file, e);
      }
    }

    /** Removes the entry: call after the recorded processes were stopped. */
    @Override
    public void close() {
      try {
        Files.deleteIfExists(file);
      } catch (IOException e) {
        // the next run's reaper removes it
      }
    }
  }
}
