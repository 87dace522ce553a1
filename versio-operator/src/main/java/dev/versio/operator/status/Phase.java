package dev.versio.operator.status;

/** The phases a config reports. */
public enum Phase {
  /** Valid, waiting for a gate (target Established, server ready); never applied yet. */
  PENDING("Pending"),
  /** Cannot be applied: the target is missing, the rules are wrong or no server is assigned. */
  INVALID("Invalid"),
  /** {@code spec.conversion} of the target points at the assigned server. */
  APPLIED("Applied"),
  /** Was applied; the target keeps the last good conversion while something is wrong. */
  STALE("Stale"),
  /** FailClosed reverted the target to {@code strategy: None} (or tried and failed). */
  FAILED("Failed");

  private final String text;

  Phase(String text) {
    this.text = text;
  }

  public String text() {
    return text;
  }

  /** The phase written as {@code text}, or null for null/unknown text. */
  public static Phase of(String text) {
    for (var phase : values()) {
      if (phase.text.equals(text)) {
        return phase;
      }
    }
    return null;
  }
}
