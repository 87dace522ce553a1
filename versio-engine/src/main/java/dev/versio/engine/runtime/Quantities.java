package dev.versio.engine.runtime;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Kubernetes {@code resource.Quantity} text ⇄ milli-units, exactly (no floating point): parsing
 * accepts decimal SI suffixes (n u m k M G T P E), binary SI suffixes (Ki … Ei) and decimal
 * exponents (e3); formatting gives the canonical decimal SI form of {@code NewMilliQuantity}.
 */
public final class Quantities {
  private static final Pattern SYNTAX =
      Pattern.compile(
          "([+-]?(?:[0-9]+(?:\\.[0-9]*)?|\\.[0-9]+))((?:[eE][+-]?[0-9]+)|Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E)?");
  private static final Map<String, BigDecimal> SUFFIX =
      Map.ofEntries(
          Map.entry("n", new BigDecimal("1e-9")),
          Map.entry("u", new BigDecimal("1e-6")),
          Map.entry("m", new BigDecimal("1e-3")),
          Map.entry("k", new BigDecimal("1e3")),
          Map.entry("M", new BigDecimal("1e6")),
          Map.entry("G", new BigDecimal("1e9")),
          Map.entry("T", new BigDecimal("1e12")),
          Map.entry("P", new BigDecimal("1e15")),
          Map.entry("E", new BigDecimal("1e18")),
          Map.entry("Ki", new BigDecimal(BigInteger.TWO.pow(10))),
          Map.entry("Mi", new BigDecimal(BigInteger.TWO.pow(20))),
          Map.entry("Gi", new BigDecimal(BigInteger.TWO.pow(30))),
          Map.entry("Ti", new BigDecimal(BigInteger.TWO.pow(40))),
          Map.entry("Pi", new BigDecimal(BigInteger.TWO.pow(50))),
          Map.entry("Ei", new BigDecimal(BigInteger.TWO.pow(60))));
  private static final String A_QUANTITY = "a quantity";
  private static final String[] DECIMAL_SI = {"m", "", "k", "M", "G", "T", "P", "E"};

  private Quantities() {}

  /**
   * Milli-units of a quantity; a sub-milli remainder rounds up, as {@code MilliValue()} does. The
   * result fits in 64 bits, as {@code MilliValue()}'s does; text, exponent and magnitude are
   * bounded ({@link NumberBounds}) before any arithmetic.
   */
  public static BigInteger parseMilli(String text) {
    var trimmed = NumberBounds.text(text, A_QUANTITY).trim();
    var m = SYNTAX.matcher(trimmed);
    if (!m.matches()) {
      throw new OpFailure(
          NumberBounds.quote(text) + " is not a Kubernetes quantity (e.g. 500m, 2, 1Gi, 1.5k)");
    }
    var value = new BigDecimal(m.group(1));
    var suffix = m.group(2);
    if (suffix != null) {
      var factor = SUFFIX.get(suffix); // E and Ei are suffixes, E3 an exponent
      value =
          factor != null
              ? value.multiply(factor)
              : NumberBounds.decimal(
                  value.scaleByPowerOfTen(
                      NumberBounds.exponent(suffix.substring(1), trimmed, A_QUANTITY)),
                  trimmed,
                  A_QUANTITY);
    }
    var milli = NumberBounds.decimal(value.movePointRight(3), trimmed, A_QUANTITY);
    return NumberBounds.int64(
        milli.setScale(0, RoundingMode.CEILING).toBigIntegerExact(),
        "a quantity in milli-units (at most about 9.2P)");
  }

  /** The canonical decimal SI text of {@code milli} milli-units: 250→250m, 1000→1, 2000000→2k. */
  public static String formatMilli(BigInteger milli) {
    if (milli.signum() == 0) {
      return "0";
    }
    var value = milli;
    int exponent = 0; // index into DECIMAL_SI
    var thousand = BigInteger.valueOf(1000);
    while (exponent < DECIMAL_SI.length - 1) {
      var qr = value.divideAndRemainder(thousand);
      if (qr[1].signum() != 0) {
        break;
      }
      value = qr[0];
      exponent++;
    }
    return value + DECIMAL_SI[exponent];
  }
}
