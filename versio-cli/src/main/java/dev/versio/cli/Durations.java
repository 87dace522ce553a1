package dev.versio.cli;

import java.time.Duration;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Durations on the command line: a whole number and a unit, e.g. {@code 500ms}, {@code 30s}. */
public final class Durations {
  private static final Pattern DURATION = Pattern.compile("(\\d+)(ms|s|m|h)");

  private Durations() {}

  /** Parses {@code 500ms}, {@code 30s}, {@code 5m} or {@code 1h}. */
  public static Duration parse(String text) {
    var m = DURATION.matcher(text.trim());
    if (!m.matches()) {
      throw new IllegalArgumentException(
          "'" + text + "' is not a duration: use e.g. 500ms, 30s, 5m or 1h");
    }
    long n = Long.parseLong(m.group(1));
    return switch (m.group(2)) {
      case "ms" -> Duration.ofMillis(n);
      case "s" -> Duration.ofSeconds(n);
      case "m" -> Duration.ofMinutes(n);
      default -> Duration.ofHours(n);
    };
  }

  /** Shows a duration the way it is typed: {@code 90s}, {@code 5m}, {@code 250ms}. */
  public static String format(Duration duration) {
    long ms = duration.toMillis();
    if (ms % 3_600_000 == 0 && ms > 0) {
      return ms / 3_600_000 + "h";
    }
    if (ms % 60_000 == 0 && ms > 0) {
      return ms / 60_000 + "m";
    }
    if (ms % 1_000 == 0) {
      return ms / 1_000 + "s";
    }
    return ms + "ms";
  }

  /** The picocli converter of {@code Duration} options; a bad value is a usage error. */
  public static final class Converter implements ITypeConverter<Duration> {
    @Override
    public Duration convert(String value) {
      try {
        return parse(value);
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage());
      }
    }
  }
}
