package dev.versio.cli.live;

import java.io.PrintWriter;

/**
 * Progress of a long run on stderr: a redrawn bar on a terminal, nothing when stderr is not a
 * terminal (logs stay clean) or with {@code --quiet}.
 */
public final class ProgressLine {
  private static final int BAR = 30;
  private final PrintWriter err;
  private final boolean enabled;
  private final String label;
  private boolean drawn;

  public ProgressLine(PrintWriter err, boolean quiet, String label) {
    this.err = err;
    this.enabled = !quiet && System.console() != null && System.console().isTerminal();
    this.label = label;
  }

  public void update(long done, long total) {
    if (!enabled) {
      return;
    }
    int filled = total <= 0 ? BAR : (int) Math.min(BAR, done * BAR / total);
    var line =
        String.format(
            "\r%s [%s%s] %d/%s",
            label, "#".repeat(filled), " ".repeat(BAR - filled), done, total <= 0 ? "?" : total);
    err.print(line.length() > 80 ? line.substring(0, 80) : line);
    err.flush();
    drawn = true;
  }

  public void finish() {
    if (drawn) {
      err.println();
      err.flush();
    }
  }
}
