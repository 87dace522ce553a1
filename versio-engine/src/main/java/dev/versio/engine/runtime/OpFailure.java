package dev.versio.engine.runtime;

/** Raised by an op; {@link Steps} turns it into a {@link ConversionException} naming the rule. */
final class OpFailure extends RuntimeException {
  OpFailure(String message) {
    super(message, null, false, false);
  }
}
