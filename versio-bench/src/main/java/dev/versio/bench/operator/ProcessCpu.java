package dev.versio.bench.operator;

import java.time.Duration;

/** CPU time of a process of this machine, as the kernel counts it (user + system). */
final class ProcessCpu {
  private ProcessCpu() {}

  /** Seconds of CPU {@code pid} has used so far; 0 when it is gone or does not say. */
  static double seconds(long pid) {
    return ProcessHandle.of(pid)
            .flatMap(h -> h.info().totalCpuDuration())
            .map(Duration::toMillis)
            .orElse(0L)
        / 1000.0;
  }
}
