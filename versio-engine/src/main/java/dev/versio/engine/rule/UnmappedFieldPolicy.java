package dev.versio.engine.rule;

/** What the compiler does with a field no rule covers and that is not identical on both sides. */
public enum UnmappedFieldPolicy {
  /** Reject the config (the default: fail closed). */
  ERROR,
  /**
   * Accept with a warning; the field is dropped by conversion. Needs {@code unmappedFieldReason}.
   */
  WARN
}
