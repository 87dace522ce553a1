package dev.versio.testkit.process;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Deletes folder trees left by test processes. */
public final class Folders {
  private Folders() {}

  /** Deletes {@code root} and everything below it, ignoring what cannot be deleted. */
  public static void deleteTree(Path root) {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(root)) {
      walk.sorted(Comparator.reverseOrder())
          .forEach(
              p -> {
                try {
                  Files.deleteIfExists(p);
                } catch (IOException e) {
                  // best effort: a leftover data folder is harmless
                }
              });
    } catch (IOException e) {
      // already gone
    }
  }
}
