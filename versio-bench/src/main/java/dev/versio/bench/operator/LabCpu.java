package dev.versio.bench.operator;

import dev.versio.testkit.ControlPlane;
import java.time.Duration;
import java.util.Locale;

/**
 * CPU seconds used so far by the processes of an operator lab, as the kernel counts them (user +
 * system): the operator's JVM, kube-apiserver, etcd and this harness JVM (the webhook server and
 * the watches run in it). Two readings subtracted give the CPU of what happened in between.
 */
record LabCpu(double operator, double apiserver, double etcd, double harness) {
  /**
   * @param operatorPid the operator's JVM, or a negative number when none runs
   */
  static LabCpu of(ControlPlane cp, long operatorPid) {
    var pids = cp.pids();
    return new LabCpu(
        operatorPid < 0 ? 0 : seconds(operatorPid),
        seconds(pids.get(1)),
        seconds(pids.get(0)),
        seconds(ProcessHandle.current().pid()));
  }

  LabCpu minus(LabCpu o) {
    return new LabCpu(
        operator - o.operator, apiserver - o.apiserver, etcd - o.etcd, harness - o.harness);
  }

  /** Seconds of CPU {@code pid} has used so far; 0 when it is gone or does not say. */
  private static double seconds(long pid) {
    return ProcessHandle.of(pid)
            .flatMap(h -> h.info().totalCpuDuration())
            .map(Duration::toMillis)
            .orElse(0L)
        / 1000.0;
  }

  @Override
  public String toString() {
    return String.format(
        Locale.ROOT,
        "kube-apiserver %.1f s, etcd %.1f s, operator %.1f s, harness (webhook server, watches,"
            + " creates) %.1f s",
        apiserver,
        etcd,
        operator,
        harness);
  }
}
