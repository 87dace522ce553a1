package dev.versio.cli.offline;

import java.util.Locale;
import picocli.CommandLine;

/**
 * How large a YAML document may be. JSON has no such limit: it is read by a streaming parser in
 * time and memory linear in its size. YAML goes through a parser that keeps a document's events in
 * memory, so a document is capped; the error names this limit and the flag that raises it.
 *
 * @param maxYamlChars the largest YAML document read, in characters
 */
public record InputLimits(long maxYamlChars) {
  /** The default cap on one YAML document, in characters. */
  public static final long DEFAULT_MAX_YAML = 64L << 20;

  static final String FLAG = "--max-yaml-size";

  static final String DESCRIPTION =
      "Largest YAML document read, e.g. 64Mi, 512Ki, 1Gi (default: 64Mi); JSON is streamed and has"
          + " no limit.";

  public InputLimits {
    if (maxYamlChars < 1 || maxYamlChars > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("maxYamlChars must be between 1 and 2Gi");
    }
  }

  /** The limits used when no {@value #FLAG} is given. */
  public static InputLimits defaults() {
    return new InputLimits(DEFAULT_MAX_YAML);
  }

  /** Reads {@value #FLAG}; a bad value is a usage error that says what a size looks like. */
  static final class SizeConverter implements CommandLine.ITypeConverter<InputLimits> {
    @Override
    public InputLimits convert(String value) {
      try {
        return new InputLimits(parse(value));
      } catch (IllegalArgumentException e) {
        throw new CommandLine.TypeConversionException(e.getMessage());
      }
    }
  }

  /** {@code 64Mi}, {@code 512Ki}, {@code 1Gi} or a plain number. */
  static long parse(String size) {
    var text = size.strip();
    long unit = 1;
    var lower = text.toLowerCase(Locale.ROOT);
    for (var suffix : new String[] {"ki", "mi", "gi"}) {
      if (lower.endsWith(suffix)) {
        unit = suffix.equals("ki") ? 1L << 10 : suffix.equals("mi") ? 1L << 20 : 1L << 30;
        text = text.substring(0, text.length() - 2);
        break;
      }
    }
    try {
      long value = Long.parseLong(text.strip()) * unit;
      if (value < 1 || value > Integer.MAX_VALUE) {
        throw new NumberFormatException();
      }
      return value;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "'" + size + "' is not a size between 1 and 2Gi such as 64Mi or 512Ki");
    }
  }

  /** {@code 64Mi} for a limit, for messages. */
  static String describe(long chars) {
    if (chars % (1L << 30) == 0) {
      return (chars >> 30) + "Gi";
    }
    if (chars % (1L << 20) == 0) {
      return (chars >> 20) + "Mi";
    }
    if (chars % (1L << 10) == 0) {
      return (chars >> 10) + "Ki";
    }
    return Long.toString(chars);
  }
}
