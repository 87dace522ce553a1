package dev.versio.cli.offline;

/** How a command prints its result; exit codes are the same for every format. */
public enum OutputFormat {
  TABLE,
  JSON,
  YAML
}
