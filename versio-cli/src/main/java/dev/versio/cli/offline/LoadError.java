package dev.versio.cli.offline;

/** A file that cannot be used as given; the message names the file and what to do (exit code 2). */
public final class LoadError extends IllegalArgumentException {
  public LoadError(String message) {
    super(message);
  }
}
