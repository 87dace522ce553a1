package dev.versio.cli.offline;

/** Sample labels that fit a column: the file name stays, the object name is cut from the right. */
final class Labels {
  private Labels() {}

  /**
   * {@code file.yaml:name}, or {@code file.yaml:na…} when too wide; a file name wider than the
   * column is kept whole (the column overflows rather than hiding which file it is).
   */
  static String fit(Inputs.Sample sample, int width) {
    var label = sample.label();
    if (label.length() <= width) {
      return label;
    }
    var name = sample.name();
    var prefix = label.substring(0, label.length() - name.length());
    int room = width - prefix.length() - 1;
    if (room < 4) {
      return prefix + name.substring(0, Math.min(name.length(), 3)) + "…";
    }
    return prefix + name.substring(0, room) + "…";
  }
}
