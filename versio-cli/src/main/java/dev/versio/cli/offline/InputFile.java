package dev.versio.cli.offline;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where an input comes from: a file, or standard input when the flag's value is {@code -} (as with
 * kubectl's {@code -f -}). Its bytes are read once; the parsers work on them.
 */
record InputFile(Path path) {
  static final String STDIN = "-";

  static boolean isStdin(Path path) {
    return path != null && path.toString().equals(STDIN);
  }

  boolean stdin() {
    return isStdin(path);
  }

  /** How messages name it: the path as given, or {@code <stdin>}. */
  String label() {
    return stdin() ? "<stdin>" : path.toString();
  }

  /** The file name for short labels ({@code small.v1.yaml}), or {@code <stdin>}. */
  String shortName() {
    return stdin() ? "<stdin>" : String.valueOf(path.getFileName());
  }

  boolean namedJson() {
    return !stdin() && path.toString().toLowerCase(java.util.Locale.ROOT).endsWith(".json");
  }

  byte[] read(InputStream stdinStream) {
    if (stdin()) {
      try {
        return stdinStream.readAllBytes();
      } catch (IOException e) {
        throw new LoadError("cannot read standard input: " + e.getMessage());
      }
    }
    if (Files.isDirectory(path)) {
      throw new LoadError(path + " is a folder; pass a file");
    }
    if (!Files.isRegularFile(path)) {
      throw new LoadError(path + " does not exist or is not a file");
    }
    try {
      return Files.readAllBytes(path);
    } catch (IOException e) {
      throw new LoadError("cannot read " + path + ": " + e.getMessage());
    }
  }
}
