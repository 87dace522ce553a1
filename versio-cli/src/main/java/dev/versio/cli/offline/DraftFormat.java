package dev.versio.cli.offline;

/** How {@code versio suggest} and {@code versio generate} print their draft. */
public enum DraftFormat {
  YAML,
  JSON
}
