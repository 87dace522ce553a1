package dev.versio.operator.admission;

import java.util.List;
import java.util.Optional;

/**
 * The flags of {@code versio webhook-server} that the operator sets itself on every webhook-server
 * Deployment; a ConversionWebhookServer's {@code extraArgs} must not name them.
 */
public final class ManagedFlags {
  /** The managed flags, with their leading {@code --}. */
  public static final List<String> FLAGS =
      List.of(
          "--server-name",
          "--tls-cert-dir",
          "--bind-address",
          "--conversion-port",
          "--ops-port",
          "--config-selector");

  private ManagedFlags() {}

  /**
   * The managed flag that {@code arg} sets, if any. Recognises {@code --flag}, {@code --flag=v},
   * {@code -flag}, {@code -flag=v} and a whole {@code --flag v} written as one argument.
   */
  public static Optional<String> named(String arg) {
    if (arg == null) {
      return Optional.empty();
    }
    var text = arg.strip();
    if (!text.startsWith("-")) {
      return Optional.empty();
    }
    var name = text.startsWith("--") ? text.substring(2) : text.substring(1);
    int end = 0;
    while (end < name.length()
        && name.charAt(end) != '='
        && !Character.isWhitespace(name.charAt(end))) {
      end++;
    }
    var flag = "--" + name.substring(0, end);
    return FLAGS.contains(flag) ? Optional.of(flag) : Optional.empty();
  }
}
