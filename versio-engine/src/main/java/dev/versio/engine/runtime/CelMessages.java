package dev.versio.engine.runtime;

import java.util.ArrayList;
import java.util.regex.Pattern;

/**
 * CEL's error messages made to fit one diagnostic line: {@code <input>:1:35} and the multi-line
 * caret drawing of a compile error, or the bare character offset of an evaluation error, become a
 * line and column with the text around the spot and a {@code ^} where it is.
 */
public final class CelMessages {
  private static final Pattern COMPILE = Pattern.compile("ERROR: <input>:(\\d+):(\\d+): (.*)");
  private static final Pattern EVALUATION =
      Pattern.compile("evaluation error at <input>:(\\d+): (.*)", Pattern.DOTALL);
  private static final int BEFORE = 30;
  private static final int AFTER = 15;

  private CelMessages() {}

  /** A compile error of {@code expression}: every error CEL found, at its place. */
  public static String compile(String expression, String message) {
    var out = new ArrayList<String>();
    for (var line : message.split("\n")) {
      var m = COMPILE.matcher(line.strip());
      if (m.matches()) {
        int row = Integer.parseInt(m.group(1));
        int column = Integer.parseInt(m.group(2));
        out.add("at " + at(expression, row, column) + ": " + m.group(3));
      }
    }
    return out.isEmpty() ? message : String.join("; ", out);
  }

  /** An evaluation error of {@code expression}, at its place when CEL gave one. */
  public static String evaluation(String expression, String message) {
    if (message == null) {
      return "unknown error";
    }
    var m = EVALUATION.matcher(message);
    if (!m.matches()) {
      return message;
    }
    int offset = Integer.parseInt(m.group(1));
    int row = 1;
    int column = 1;
    for (int i = 0; i < Math.min(offset, expression.length()); i++) {
      if (expression.charAt(i) == '\n') {
        row++;
        column = 1;
      } else {
        column++;
      }
    }
    return at(expression, row, column) + ": " + m.group(2);
  }

  /** {@code at line 1, column 35 near '…object.spec.size^'} (columns count from 1). */
  private static String at(String expression, int row, int column) {
    var lines = expression.split("\n", -1);
    var text = row >= 1 && row <= lines.length ? lines[row - 1] : "";
    int spot = Math.max(0, Math.min(text.length(), column - 1));
    int from = Math.max(0, spot - BEFORE);
    int to = Math.min(text.length(), spot + AFTER);
    var near =
        (from > 0 ? "…" : "")
            + text.substring(from, spot)
            + "^"
            + text.substring(spot, to)
            + (to < text.length() ? "…" : "");
    return (lines.length > 1 ? "line " + row + ", " : "")
        + "column "
        + column
        + " near '"
        + near
        + "'";
  }
}
