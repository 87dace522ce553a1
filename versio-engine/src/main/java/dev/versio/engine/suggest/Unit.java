package dev.versio.engine.suggest;

import java.math.BigDecimal;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A unit a field name can end with ({@code timeoutMs}, {@code sizeGiB}, {@code cpuPercent}), with
 * its size in the base unit of its dimension: two fields that differ only by units of the same
 * dimension hold the same quantity, scaled.
 */
enum Unit {
  NANOSECONDS(Dimension.TIME, "0.000000001", "ns", "nanos", "nanosecond", "nanoseconds"),
  MICROSECONDS(Dimension.TIME, "0.000001", "us", "micros", "microsecond", "microseconds"),
  MILLISECONDS(
      Dimension.TIME, "0.001", "ms", "msec", "msecs", "millis", "millisecond", "milliseconds"),
  SECONDS(Dimension.TIME, "1", "sec", "secs", "second", "seconds"),
  // not "min": minReplicas, replicasMin mean a minimum
  MINUTES(Dimension.TIME, "60", "mins", "minute", "minutes"),
  HOURS(Dimension.TIME, "3600", "hr", "hrs", "hour", "hours"),
  DAYS(Dimension.TIME, "86400", "day", "days"),
  BYTES(Dimension.DATA, "1", "byte", "bytes"),
  KILOBYTES(Dimension.DATA, "1000", "kb"),
  KIBIBYTES(Dimension.DATA, "1024", "ki", "kib"),
  MEGABYTES(Dimension.DATA, "1000000", "mb"),
  MEBIBYTES(Dimension.DATA, "1048576", "mi", "mib"),
  GIGABYTES(Dimension.DATA, "1000000000", "gb"),
  GIBIBYTES(Dimension.DATA, "1073741824", "gi", "gib"),
  TERABYTES(Dimension.DATA, "1000000000000", "tb"),
  TEBIBYTES(Dimension.DATA, "1099511627776", "ti", "tib"),
  PERCENT(Dimension.FRACTION, "0.01", "percent", "pct"),
  RATIO(Dimension.FRACTION, "1", "ratio", "fraction"),
  MILLICORES(Dimension.CPU, "0.001", "millicores", "millicpu"),
  CORES(Dimension.CPU, "1", "cores"),
  /** Kubernetes milli-units, the integer side of a {@code Quantity} rule ({@code memoryMilli}). */
  MILLI(Dimension.MILLI_UNITS, "1", "milli");

  /** What a unit measures: units of one dimension convert into each other by a factor. */
  enum Dimension {
    TIME,
    DATA,
    FRACTION,
    CPU,
    MILLI_UNITS
  }

  private final Dimension dimension;
  private final BigDecimal size;
  private final List<String> spellings;

  Unit(Dimension dimension, String size, String... spellings) {
    this.dimension = dimension;
    this.size = new BigDecimal(size);
    this.spellings = List.of(spellings);
  }

  Dimension dimension() {
    return dimension;
  }

  /** The unit a lower-case name token (or two joined, {@code gi}+{@code b}) spells, if any. */
  static Optional<Unit> spelledAs(String token) {
    for (var u : values()) {
      if (u.spellings.contains(token)) {
        return Optional.of(u);
      }
    }
    return Optional.empty();
  }

  /** The unit's name for messages, e.g. {@code milliseconds}. */
  String label() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /**
   * The {@code numericScale} factor from a hub field in this unit to a spoke field in {@code
   * spoke}'s ({@code hub = spoke × factor}), or empty when the dimensions differ or the factor has
   * no finite decimal form (minutes in the hub, hours in the spoke: 1/60).
   */
  Optional<BigDecimal> factorTo(Unit spoke) {
    if (spoke.dimension != dimension || dimension == Dimension.MILLI_UNITS) {
      return Optional.empty();
    }
    try {
      return Optional.of(spoke.size.divide(size).stripTrailingZeros());
    } catch (ArithmeticException nonTerminating) {
      return Optional.empty();
    }
  }
}
