package dev.versio.operator.admission;

import java.util.List;
import java.util.Objects;

/**
 * What admission decides about one request.
 *
 * @param allowed whether the request may proceed
 * @param message why it was denied (what, which field, how to fix); null when allowed
 * @param warnings shown to the client either way (kubectl prints them)
 */
public record Verdict(boolean allowed, String message, List<String> warnings) {
  public Verdict {
    warnings = List.copyOf(warnings);
    if (!allowed) {
      Objects.requireNonNull(message, "a denial needs a message");
    }
  }

  public static Verdict allow() {
    return new Verdict(true, null, List.of());
  }

  public static Verdict allow(List<String> warnings) {
    return new Verdict(true, null, warnings);
  }

  public static Verdict deny(String message) {
    return new Verdict(false, message, List.of());
  }

  public static Verdict deny(String message, List<String> warnings) {
    return new Verdict(false, message, warnings);
  }
}
