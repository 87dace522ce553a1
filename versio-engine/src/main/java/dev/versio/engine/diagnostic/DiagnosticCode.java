package dev.versio.engine.diagnostic;

/**
 * Stable codes of every diagnostic the engine emits. Tools and docs key on these names; never
 * rename one (add a new code instead).
 */
public enum DiagnosticCode {
  // config shape
  NO_SPOKES,
  SPOKE_IS_HUB,
  DUPLICATE_SPOKE,
  UNMAPPED_REASON_REQUIRED,
  INVALID_CONFIG,
  UNKNOWN_KEY,
  // rule shape
  UNKNOWN_STRATEGY,
  PARAMS_MISSING,
  PARAMS_AMBIGUOUS,
  PARAMS_MISMATCH,
  UNKNOWN_PARAM,
  INVALID_PARAM,
  FOREACH_TOO_DEEP,
  WHEN_INVALID,
  CEL_NEEDS_ACKNOWLEDGEMENT,
  LABEL_JSON_UNSUPPORTED,
  INVALID_LABEL_KEY,
  // versions
  HUB_NOT_FOUND,
  HUB_NOT_STORAGE,
  SPOKE_NOT_FOUND,
  SPOKE_NOT_SERVED,
  SERVED_VERSION_NOT_COVERED,
  /** A version no longer served but still in {@code status.storedVersions}, with no spoke. */
  STORED_VERSION_NOT_COVERED,
  // resolution against schemas
  PATH_NOT_FOUND,
  TYPE_MISMATCH,
  SHAPE_MISMATCH,
  /** A strategy that needs a field's type, on a field an opaque schema does not declare. */
  TYPE_NOT_DECLARED,
  DOUBLE_CLAIM,
  LOSSY_NOT_ACKNOWLEDGED,
  ENUM_VALUE_UNMAPPED,
  /** A rule (a CEL expression) that refuses every value it was tried on. */
  RULE_ALWAYS_FAILS,
  // coverage
  UNCOVERED_FIELD,
  // warnings
  WHEN_PARTIAL_COVERAGE,
  ENUM_NOT_INJECTIVE,
  DELETE_OF_REQUIRED_FIELD,
  UNCOVERED_FIELD_DROPPED,
  UNVERIFIABLE_INVERSE,
  /** Element values kept in an annotation by position, as the list declares no map keys. */
  ELEMENTS_KEPT_BY_POSITION,
  /** acknowledgeLossy on a rule that is lossless both ways. */
  NEEDLESS_ACKNOWLEDGEMENT
}
