package dev.versio.engine.runtime;

/**
 * A conversion that cannot be done faithfully. The message names the spoke, the direction, the rule
 * (index and strategy) and the path, e.g. {@code spoke v1, hub->spoke, rules[2] (EnumRemap) at
 * spec.tier: unmapped value "Gold"}, and is cut to {@value #MAX_MESSAGE} characters. It may quote
 * the object's values, so it is for the apiserver's Failure review; {@link #location()} is the part
 * without values, for logs and traces.
 */
public final class ConversionException extends RuntimeException {
  /** The longest message: a value quoted in it is cut, never the whole object. */
  public static final int MAX_MESSAGE = 1024;

  private final Origin origin;
  private final String location;

  ConversionException(Origin origin, String direction, String message) {
    super(cut(origin.describe(direction) + ": " + message), null, false, false);
    this.origin = origin;
    this.location = origin.describe(direction);
  }

  public ConversionException(String message) {
    super(cut(message), null, false, false);
    this.origin = null;
    this.location = null;
  }

  /** Which rule failed, or null for routing failures. */
  public Origin origin() {
    return origin;
  }

  /**
   * Where it failed, without any value of the object (spoke, direction, rule, strategy and path),
   * or null for routing failures, whose message holds no value.
   */
  public String location() {
    return location;
  }

  private static String cut(String message) {
    return message.length() <= MAX_MESSAGE
        ? message
        : message.substring(0, MAX_MESSAGE) + "… (" + message.length() + " characters)";
  }
}
