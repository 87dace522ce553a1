package dev.versio.engine.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * Bounds checked before any arithmetic on a number taken from an object, so that no value costs
 * more than microseconds: a quantity {@code 1e600000000} would otherwise be expanded to six hundred
 * million digits, a million-digit string parsed in quadratic time. Every bound lies far beyond what
 * the apiserver can store (its JSON numbers are 64-bit integers or float64, 1e-324 … 1.8e308), so
 * only a value no cluster could hold is refused, with a per-object failure that says why.
 */
public final class NumberBounds {
  /** The longest text (a quantity, a duration, a number written as a string) that is parsed. */
  public static final int MAX_TEXT_LENGTH = 128;

  /**
   * The largest magnitude of a number's decimal exponent (the {@code e} of its scientific form).
   */
  public static final int MAX_EXPONENT = 400;

  /** How many characters of a refused value a message quotes. */
  private static final int QUOTED = 24;

  private static final BigInteger INT64_MIN = BigInteger.valueOf(Long.MIN_VALUE);
  private static final BigInteger INT64_MAX = BigInteger.valueOf(Long.MAX_VALUE);

  private NumberBounds() {}

  /**
   * {@code text} unchanged when it is short enough to parse; else a failure naming {@code what}.
   */
  static String text(String text, String what) {
    if (text.length() > MAX_TEXT_LENGTH) {
      throw new OpFailure(
          "value too large for "
              + what
              + ": a text of "
              + text.length()
              + " characters (at most "
              + MAX_TEXT_LENGTH
              + " are parsed)");
    }
    return text;
  }

  /**
   * The decimal written in {@code text} (already trimmed), or null when it is no number; a number
   * outside the bounds fails naming {@code what}.
   */
  static BigDecimal parse(String text, String what) {
    text(text, what);
    int e = Math.max(text.indexOf('e'), text.indexOf('E'));
    if (e >= 0) {
      var digits = text.substring(e + 1);
      if (!digits.matches("[+-]?[0-9]+")) {
        return null; // no exponent, so no number: "ghp_token", "1e", "1e+"
      }
      exponent(digits, text, what);
    }
    try {
      return decimal(new BigDecimal(text), text, what);
    } catch (NumberFormatException notANumber) {
      return null;
    }
  }

  /**
   * {@code n} when its decimal exponent is within {@link #MAX_EXPONENT}; zero of any scale is 0.
   */
  static BigDecimal decimal(BigDecimal n, String shown, String what) {
    if (n.signum() == 0) {
      return n.scale() < -MAX_EXPONENT || n.scale() > MAX_EXPONENT ? BigDecimal.ZERO : n;
    }
    long exponent = (long) n.precision() - n.scale() - 1;
    if (exponent > MAX_EXPONENT || exponent < -MAX_EXPONENT) {
      throw outOfRange(shown, what, exponent > 0);
    }
    return n;
  }

  /** The decimal value of a JSON number, within the bounds. */
  static BigDecimal decimal(JsonNode number, String what) {
    var n = number.decimalValue();
    return decimal(n, n.toString(), what);
  }

  /**
   * The value of an exponent's text ({@code 3}, {@code +06}, {@code -9}); one of more than nine
   * digits (past what an int holds, and far past {@link #MAX_EXPONENT}) fails naming {@code what},
   * and text that is no exponent fails too.
   */
  static int exponent(String digits, String shown, String what) {
    int i = digits.startsWith("+") || digits.startsWith("-") ? 1 : 0;
    while (i < digits.length() - 1 && digits.charAt(i) == '0') {
      i++; // leading zeros do not make an exponent larger
    }
    if (digits.length() - i > 9) {
      throw outOfRange(shown, what, !digits.startsWith("-"));
    }
    try {
      return Integer.parseInt(digits);
    } catch (NumberFormatException e) {
      throw new OpFailure(quote(shown) + " is not " + what);
    }
  }

  /** Whether a number lies within the bounds (no arithmetic on it can be expensive). */
  static boolean inRange(BigDecimal n) {
    long exponent = (long) n.precision() - n.scale() - 1;
    return n.signum() == 0
        ? n.scale() >= -MAX_EXPONENT && n.scale() <= MAX_EXPONENT
        : exponent <= MAX_EXPONENT && exponent >= -MAX_EXPONENT;
  }

  /**
   * {@code value} when a Kubernetes integer field can hold it exactly: the apiserver decodes JSON
   * integers as 64-bit and turns larger ones into float64, which would change the value.
   */
  static BigInteger int64(BigInteger value, String what) {
    if (value.compareTo(INT64_MIN) < 0 || value.compareTo(INT64_MAX) > 0) {
      throw new OpFailure(
          "value too large for "
              + what
              + ": "
              + quote(value.toString())
              + " is outside the 64-bit range (-9223372036854775808 … 9223372036854775807)"
              + " in which the apiserver stores integers");
    }
    return value;
  }

  /** At most {@value #QUOTED} characters of {@code value}, and how long it was when cut. */
  public static String quote(String value) {
    if (value.length() <= QUOTED) {
      return "'" + value + "'";
    }
    return "'" + value.substring(0, QUOTED) + "…' (" + value.length() + " characters)";
  }

  private static OpFailure outOfRange(String shown, String what, boolean large) {
    return new OpFailure(
        "value too "
            + (large ? "large" : "small")
            + " for "
            + what
            + ": "
            + quote(shown)
            + " has a decimal exponent beyond "
            + (large ? "" : "-")
            + MAX_EXPONENT
            + ", outside what any stored number can hold");
  }
}
