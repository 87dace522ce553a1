package dev.versio.cli.dev;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * Where {@code versio dev}'s start-up went: each phase ends at a point of the run, and its time is
 * the time since the previous one ended. Printed once everything is ready.
 */
final class StartupPhases {
  /** One phase and how long it took. */
  record Phase(String name, Duration took) {}

  private final Supplier<Duration> elapsed;
  private final List<Phase> phases = new ArrayList<>();
  private Duration lastEnd = Duration.ZERO;

  /**
   * @param elapsed the time since the run started, as the progress lines show it
   */
  StartupPhases(Supplier<Duration> elapsed) {
    this.elapsed = elapsed;
  }

  /** Ends the phase {@code name} now. */
  void end(String name) {
    var now = elapsed.get();
    phases.add(new Phase(name, now.minus(lastEnd)));
    lastEnd = now;
  }

  List<Phase> phases() {
    return List.copyOf(phases);
  }

  /** {@code start-up 29.3 s: control plane 7.1 s, …}, the phases in their order. */
  String render() {
    var line = new StringBuilder("start-up " + seconds(lastEnd) + ":");
    for (int i = 0; i < phases.size(); i++) {
      var phase = phases.get(i);
      line.append(i == 0 ? " " : ", ")
          .append(phase.name())
          .append(' ')
          .append(seconds(phase.took()));
    }
    return line.toString();
  }

  private static String seconds(Duration duration) {
    return String.format(Locale.ROOT, "%.1f s", duration.toMillis() / 1000.0);
  }
}
