package dev.versio.cli.offline;

/**
 * How a command prints a document: the draft of {@code versio suggest} and {@code generate}, the
 * object {@code versio convert} converted.
 */
public enum DraftFormat {
  YAML,
  JSON
}
