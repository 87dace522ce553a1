package dev.versio.testkit.metrics;

import java.util.Arrays;

/** Reads figures out of a Prometheus text exposition (a {@code /metrics} body). */
public final class Exposition {
  private Exposition() {}

  /**
   * The sum of the samples of {@code metric} (exactly that name: {@code _sum} and {@code _count}
   * are names of their own) whose label set contains every one of {@code labels}, each written as
   * in the exposition, e.g. {@code verb="GET"}.
   */
  public static double sum(String exposition, String metric, String... labels) {
    double total = 0;
    for (var line : exposition.split("\n")) {
      if (line.startsWith("#") || !line.startsWith(metric)) {
        continue;
      }
      int brace = line.indexOf('{');
      int space = line.lastIndexOf(' ');
      if (space < 0) {
        continue;
      }
      var name = brace < 0 ? line.substring(0, space) : line.substring(0, brace);
      if (!name.equals(metric)) {
        continue;
      }
      var labelText = brace < 0 ? "" : line.substring(brace, line.lastIndexOf('}') + 1);
      if (Arrays.stream(labels).allMatch(labelText::contains)) {
        total += Double.parseDouble(line.substring(space + 1));
      }
    }
    return total;
  }
}
