package dev.versio.engine.runtime;

/**
 * A conversion that cannot be done faithfully. The message names the spoke, the direction, the rule
 * (index and strategy) and the path, e.g. {@code spoke v1, hub->spoke, rules[2] (EnumRemap) at
 * spec.tier: unmapped value "Gold"}.
 */
public final class ConversionException extends RuntimeException {
  private final Origin origin;

  ConversionException(Origin origin, String direction, String message) {
    super(origin.describe(direction) + ": " + message, null, false, false);
    this.origin = origin;
  }

  public ConversionException(String message) {
    super(message, null, false, false);
    this.origin = null;
  }

  /** Which rule failed, or null for routing failures. */
  public Origin origin() {
    return origin;
  }
}
