package dev.versio.cli.dev;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * The AOT cache of each child JVM of {@code versio dev} (the webhook server, the operator):
 * recorded on a child's first start and written when it stops, then used on every later start with
 * the same Java runtime and the same jars, so the children load and link their classes from the
 * cache instead of one by one. A cache is valid only for the exact runtime and jars it was recorded
 * with, so its file name carries a digest of both: a rebuilt jar or another JDK records a new one,
 * and the caches of other builds are removed then.
 *
 * <p>A recording goes to a file of its own run that becomes the cache only once its JVM stopped by
 * itself after the child was ready, and a JVM starts with it ({@link #keep}): a JVM killed while it
 * writes leaves no half-written cache, two runs recording at once do not write the same file, and
 * what a run that was killed itself left behind goes with the next recording.
 *
 * @param dir where the caches live
 * @param key digest of the runtime and the class path
 */
record ChildAotCaches(Path dir, String key) {
  /** How the JVM of one child is started with respect to its cache. */
  sealed interface Use {
    /** The JVM flags for it. */
    List<String> flags();

    /** A cache exists: the child starts with it. */
    record Cached(Path cache) implements Use {
      @Override
      public List<String> flags() {
        return List.of("-XX:AOTCache=" + cache);
      }
    }

    /** None yet: the child records one into {@code recording}, kept as {@code cache} on exit. */
    record Recording(Path cache, Path recording) implements Use {
      @Override
      public List<String> flags() {
        return List.of("-XX:AOTCacheOutput=" + recording);
      }
    }

    /** No cache directory could be made: the child starts without one. */
    record None() implements Use {
      @Override
      public List<String> flags() {
        return List.of();
      }
    }
  }

  /**
   * The caches of children started with {@code java} (its home and version) and {@code classPath};
   * empty when the class path holds a folder (classes built but not packed, as in an IDE), since an
   * AOT cache can only be recorded from jars.
   */
  static Optional<ChildAotCaches> of(
      Path dir, String javaHome, String javaVersion, String classPath) {
    return of(dir, javaHome, javaVersion, classPath, "");
  }

  /**
   * As {@link #of(Path, String, String, String)}, for children that also get {@code jvmOptions}
   * from the environment ({@code JDK_JAVA_OPTIONS}, {@code JAVA_TOOL_OPTIONS}): a cache recorded
   * with other JVM flags may not fit.
   */
  static Optional<ChildAotCaches> of(
      Path dir, String javaHome, String javaVersion, String classPath, String jvmOptions) {
    try {
      var digest = MessageDigest.getInstance("SHA-256");
      digest.update(
          (javaHome + "\n" + javaVersion + "\n" + jvmOptions + "\n")
              .getBytes(StandardCharsets.UTF_8));
      for (var entry : classPath.split(java.io.File.pathSeparator)) {
        var path = Path.of(entry);
        if (Files.isDirectory(path)) {
          return Optional.empty();
        }
        String stamp;
        try {
          stamp = Files.size(path) + ":" + Files.getLastModifiedTime(path).toMillis();
        } catch (IOException e) {
          stamp = "missing";
        }
        digest.update((entry + "|" + stamp + "\n").getBytes(StandardCharsets.UTF_8));
      }
      return Optional.of(
          new ChildAotCaches(dir, HexFormat.of().formatHex(digest.digest()).substring(0, 16)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
    }
  }

  /**
   * How {@code child} starts: with its cache, or recording one (as {@code run} of this machine).
   */
  Use use(String child, String run) {
    var cache = dir.resolve(child + "-" + key + ".aot");
    if (Files.isRegularFile(cache)) {
      return new Use.Cached(cache);
    }
    try {
      Files.createDirectories(dir);
      removeOtherBuilds(child);
    } catch (IOException e) {
      return new Use.None();
    }
    return new Use.Recording(cache, dir.resolve(child + "-" + key + "." + run + ".recording"));
  }

  /**
   * After a recording child stopped: keeps its recording as the cache when the child stopped
   * cleanly and a JVM starts with what it wrote ({@code usable}); else drops it, so the next run
   * records again. Returns the cache when kept.
   *
   * @param clean the child was ready and its JVM ended by itself (not killed: it may have been
   *     writing)
   * @param usable whether a JVM starts with the file (one that cannot use a cache refuses it)
   */
  static Optional<Path> keep(
      Use.Recording recording, boolean clean, java.util.function.Predicate<Path> usable) {
    try {
      if (clean
          && Files.isRegularFile(recording.recording())
          && Files.size(recording.recording()) > 0
          && usable.test(recording.recording())) {
        Files.move(recording.recording(), recording.cache(), StandardCopyOption.ATOMIC_MOVE);
        deleteLeftOvers(recording);
        return Optional.of(recording.cache());
      }
      Files.deleteIfExists(recording.recording());
      deleteLeftOvers(recording);
    } catch (IOException e) {
      // another run kept its recording first, or the folder went: start without a cache next time
    }
    return Optional.empty();
  }

  /** What the JVM writes beside a recording while it trains ({@code <recording>.config}). */
  private static void deleteLeftOvers(Use.Recording recording) throws IOException {
    Files.deleteIfExists(Path.of(recording.recording() + ".config"));
  }

  /** Whether the run {@code run} (a process id) is still going. */
  private static boolean running(String run) {
    try {
      return ProcessHandle.of(Long.parseLong(run)).map(ProcessHandle::isAlive).orElse(false);
    } catch (NumberFormatException e) {
      return false;
    }
  }

  /**
   * Caches and recordings of {@code child} for other jars or runtimes (never valid again), and
   * recordings of runs that are gone.
   */
  private void removeOtherBuilds(String child) throws IOException {
    try (var files = Files.list(dir)) {
      for (var file : files.toList()) {
        var name = file.getFileName().toString();
        if (name.startsWith(child + "-") && !name.startsWith(child + "-" + key + ".")) {
          Files.deleteIfExists(file);
        } else if (name.startsWith(child + "-" + key + ".") && name.contains(".recording")) {
          // a recording of a run that is gone (killed before it could keep or drop it)
          var run = name.substring((child + "-" + key + ".").length(), name.indexOf(".recording"));
          if (!running(run)) {
            Files.deleteIfExists(file);
          }
        }
      }
    }
  }
}
