package dev.versio.cli.dev;

import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;

/** Progress lines with the time since start: {@code [ 3s] control plane up (...)}. */
final class Progress {
  private final PrintWriter out;
  private final InstantSource clock;
  private final Instant started;

  Progress(PrintWriter out, InstantSource clock) {
    this.out = out;
    this.clock = clock;
    this.started = clock.instant();
  }

  /** One progress line. */
  void step(String message) {
    print(String.format("[%3ds] %s", elapsed().toSeconds(), message));
  }

  /** A line as it is, e.g. part of the final instructions. */
  void print(String line) {
    synchronized (out) {
      out.println(line);
      out.flush();
    }
  }

  Duration elapsed() {
    return Duration.between(started, clock.instant());
  }
}
