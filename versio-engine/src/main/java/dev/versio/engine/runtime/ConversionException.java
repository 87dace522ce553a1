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
  private final boolean incompleteInput;

  ConversionException(Origin origin, String direction, String message, boolean incompleteInput) {
    super(cut(origin.describe(direction) + ": " + message), null, false, false);
    this.origin = origin;
    this.location = origin.describe(direction);
    this.incompleteInput = incompleteInput;
  }

  public ConversionException(String message) {
    super(cut(message), null, false, false);
    this.origin = null;
    this.location = null;
    this.incompleteInput = false;
  }

  /**
   * Whether the rule failed because a field it reads is absent while it cannot do without it: a
   * {@code FieldsToScalar} join missing a part, a CEL expression missing one of its declared
   * sources while another is present, a JSON Patch {@code test} of an absent path. That is the one
   * way an object lacking fields, as server-side apply sends them, fails; a rule whose sources are
   * all absent writes nothing instead.
   */
  public boolean incompleteInput() {
    return incompleteInput;
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
