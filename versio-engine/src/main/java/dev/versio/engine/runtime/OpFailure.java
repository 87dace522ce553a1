package dev.versio.engine.runtime;

/** Raised by an op; {@link Steps} turns it into a {@link ConversionException} naming the rule. */
final class OpFailure extends RuntimeException {
  private final boolean incompleteInput;

  OpFailure(String message) {
    this(message, false);
  }

  /**
   * @param incompleteInput the op reads several fields and only some are present, so it cannot
   *     write a faithful result (see {@link ConversionException#incompleteInput()})
   */
  OpFailure(String message, boolean incompleteInput) {
    super(message, null, false, false);
    this.incompleteInput = incompleteInput;
  }

  boolean incompleteInput() {
    return incompleteInput;
  }
}
