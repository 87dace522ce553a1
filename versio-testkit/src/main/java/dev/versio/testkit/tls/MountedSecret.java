package dev.versio.testkit.tls;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.Objects;

/**
 * A folder laid out as the kubelet mounts a Secret, for processes that read their certificate from
 * files: every key is a symlink {@code key -> ..data/key}, {@code ..data} is a symlink to a
 * timestamped folder holding this version's files, and an update writes a new folder and swaps
 * {@code ..data} with one rename, so that a reader sees either every old file or every new one,
 * never a new certificate with the old key.
 */
public final class MountedSecret {
  private static final String DATA = "..data";

  private final Path dir;
  private long version;

  private MountedSecret(Path dir) {
    this.dir = dir;
  }

  /** A mounted Secret at {@code dir} (created if missing) holding {@code files} (name → text). */
  public static MountedSecret create(Path dir, Map<String, String> files) {
    var secret = new MountedSecret(Objects.requireNonNull(dir, "dir"));
    secret.update(files);
    return secret;
  }

  public Path dir() {
    return dir;
  }

  /** Replaces every file at once, as the kubelet does when the Secret changes. */
  public synchronized void update(Map<String, String> files) {
    try {
      Files.createDirectories(dir);
      var next = dir.resolve("..v" + (++version));
      Files.createDirectory(next);
      for (var file : files.entrySet()) {
        Files.writeString(next.resolve(file.getKey()), file.getValue());
      }
      var previous = Files.isSymbolicLink(dir.resolve(DATA)) ? readLink(DATA) : null;
      var swap = dir.resolve("..data_tmp");
      Files.deleteIfExists(swap);
      Files.createSymbolicLink(swap, next.getFileName());
      Files.move(swap, dir.resolve(DATA), StandardCopyOption.ATOMIC_MOVE);
      for (var name : files.keySet()) {
        try {
          Files.createSymbolicLink(dir.resolve(name), Path.of(DATA, name));
        } catch (FileAlreadyExistsException e) {
          // the key was there before: its link already goes through ..data
        }
      }
      if (previous != null && !previous.equals(next.getFileName())) {
        try (var old = Files.list(dir.resolve(previous))) {
          for (var file : old.toList()) {
            Files.delete(file);
          }
        }
        Files.delete(dir.resolve(previous));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot update the mounted Secret in " + dir, e);
    }
  }

  private Path readLink(String name) throws IOException {
    return Files.readSymbolicLink(dir.resolve(name));
  }
}
