package dev.versio.engine.rule.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The strategy reference in {@code docs/strategies/} must be exactly what {@link StrategyReference}
 * renders from the catalog, so the docs cannot drift from the code. With {@code
 * -Dversio.regenerate=true} the test rewrites the pages instead (see {@link
 * StrategyReference#REGENERATE}).
 */
class StrategyReferenceIsCurrentTest {

  @Test
  void theCheckedInStrategyReferenceIsWhatTheCatalogRenders() throws IOException {
    var folder = repositoryRoot().resolve("docs/strategies");
    var pages = StrategyReference.pages();
    if (Boolean.getBoolean("versio.regenerate")) {
      write(folder, pages);
    }
    var onDisk = new TreeSet<String>();
    if (Files.isDirectory(folder)) {
      try (var files = Files.list(folder)) {
        files.forEach(f -> onDisk.add(f.getFileName().toString()));
      }
    }
    assertThat(onDisk)
        .as(
            "the files in docs/strategies/; to regenerate them run: %s",
            StrategyReference.REGENERATE)
        .isEqualTo(new TreeSet<>(pages.keySet()));
    for (var page : pages.entrySet()) {
      assertThat(Files.readString(folder.resolve(page.getKey())))
          .as(
              "docs/strategies/%s is out of date; to regenerate it run: %s",
              page.getKey(), StrategyReference.REGENERATE)
          .isEqualTo(page.getValue());
    }
  }

  private static void write(Path folder, java.util.Map<String, String> pages) throws IOException {
    Files.createDirectories(folder);
    try (var files = Files.list(folder)) {
      for (var file : files.toList()) {
        if (!pages.containsKey(file.getFileName().toString())) {
          Files.delete(file);
        }
      }
    }
    for (var page : pages.entrySet()) {
      Files.writeString(folder.resolve(page.getKey()), page.getValue());
    }
  }

  /** The checkout's root: the first folder upward that holds both {@code docs} and the engine. */
  private static Path repositoryRoot() {
    var dir = Path.of("").toAbsolutePath();
    while (dir != null
        && !(Files.isDirectory(dir.resolve("docs"))
            && Files.isDirectory(dir.resolve("versio-engine")))) {
      dir = dir.getParent();
    }
    return dir == null ? Path.of("..") : dir;
  }
}
