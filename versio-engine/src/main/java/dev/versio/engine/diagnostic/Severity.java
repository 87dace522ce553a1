package dev.versio.engine.diagnostic;

/** How bad a diagnostic is: an error rejects the config, a warning does not. */
public enum Severity {
  ERROR,
  WARNING
}
