package dev.versio.engine.runtime;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Map;

/**
 * Go/Kubernetes duration strings ({@code 1h30m0s}) ⇄ whole seconds, exactly. Parsing follows Go's
 * {@code time.ParseDuration} (units ns us µs ms s m h, decimals and signs, no {@code d});
 * formatting follows {@code Duration.String()} for whole seconds.
 */
public final class Durations {
  private static final Map<String, BigDecimal> NANOS =
      Map.of(
          "ns",
          BigDecimal.ONE,
          "us",
          new BigDecimal(1000),
          "µs",
          new BigDecimal(1000),
          "μs",
          new BigDecimal(1000),
          "ms",
          new BigDecimal(1_000_000),
          "s",
          new BigDecimal(1_000_000_000L),
          "m",
          new BigDecimal(60_000_000_000L),
          "h",
          new BigDecimal(3_600_000_000_000L));
  private static final BigDecimal NANOS_PER_SECOND = new BigDecimal(1_000_000_000L);
  private static final BigInteger MAX_NANOS = BigInteger.valueOf(Long.MAX_VALUE);

  private Durations() {}

  /** Whole seconds of a duration string; fails on syntax, overflow or a fraction of a second. */
  public static BigInteger parseSeconds(String text) {
    var s = NumberBounds.text(text, "a duration").trim();
    if (s.isEmpty()) {
      throw new OpFailure("'' is not a duration");
    }
    boolean negative = false;
    int i = 0;
    if (s.charAt(0) == '-' || s.charAt(0) == '+') {
      negative = s.charAt(0) == '-';
      i++;
    }
    if (s.substring(i).equals("0")) {
      return BigInteger.ZERO;
    }
    var total = BigDecimal.ZERO;
    if (i == s.length()) {
      throw invalid(text);
    }
    while (i < s.length()) {
      int start = i;
      while (i < s.length() && (Character.isDigit(s.charAt(i)) || s.charAt(i) == '.')) {
        i++;
      }
      var number = s.substring(start, i);
      int unitStart = i;
      while (i < s.length() && !Character.isDigit(s.charAt(i)) && s.charAt(i) != '.') {
        i++;
      }
      var unit = s.substring(unitStart, i);
      var factor = NANOS.get(unit);
      if (number.isEmpty() || number.equals(".") || factor == null) {
        throw unit.equals("d")
            ? new OpFailure(
                NumberBounds.quote(text)
                    + " uses the unit d, which Go durations do not have; write 24h")
            : invalid(text);
      }
      var amount = NumberBounds.parse(number.startsWith(".") ? "0" + number : number, "a duration");
      if (amount == null) {
        throw invalid(text); // e.g. 1.5.5h
      }
      total = total.add(amount.multiply(factor));
    }
    if (total.toBigInteger().compareTo(MAX_NANOS) > 0) {
      throw new OpFailure(
          "value too large for a duration: "
              + NumberBounds.quote(text)
              + " overflows a Go duration");
    }
    var seconds = total.divide(NANOS_PER_SECOND);
    if (seconds.stripTrailingZeros().scale() > 0) {
      throw new OpFailure(NumberBounds.quote(text) + " is not a whole number of seconds");
    }
    var whole = seconds.toBigIntegerExact();
    return negative ? whole.negate() : whole;
  }

  /** Go's {@code Duration.String()} of whole seconds: 300→5m0s, 30→30s, 0→0s, 5400→1h30m0s. */
  public static String formatSeconds(BigInteger seconds) {
    if (seconds.signum() == 0) {
      return "0s";
    }
    var sign = seconds.signum() < 0 ? "-" : "";
    var abs = seconds.abs();
    var sixty = BigInteger.valueOf(60);
    var s = abs.mod(sixty);
    var minutes = abs.divide(sixty);
    if (minutes.signum() == 0) {
      return sign + s + "s";
    }
    var m = minutes.mod(sixty);
    var hours = minutes.divide(sixty);
    if (hours.signum() == 0) {
      return sign + m + "m" + s + "s";
    }
    return sign + hours + "h" + m + "m" + s + "s";
  }

  private static OpFailure invalid(String text) {
    return new OpFailure(
        NumberBounds.quote(text)
            + " is not a duration (e.g. 90s, 1h30m, 1.5h; units ns us ms s m h)");
  }
}
