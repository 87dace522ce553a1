package dev.versio.cli.offline;

/** How {@code versio test} prints its result; exit codes are the same for every format. */
public enum TestReportFormat {
  TABLE,
  JSON,
  YAML,
  /** JUnit XML, read by CI systems as a test report. */
  JUNIT
}
