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
    this(out, clock, clock.instant());
  }

  /**
   * @param started the moment the times count from, e.g. {@link #processStart()}
   */
  Progress(PrintWriter out, InstantSource clock, Instant started) {
    this.out = out;
    this.clock = clock;
    this.started = started;
  }

  /** When this process started (the JVM's exec), or now where the system does not say. */
  static Instant processStart() {
    return ProcessHandle.current().info().startInstant().orElseGet(Instant::now);
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
