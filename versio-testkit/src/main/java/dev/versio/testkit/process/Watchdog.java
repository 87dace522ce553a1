package dev.versio.testkit.process;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * A tiny shell process that outlives a JVM killed with {@code kill -9}: it polls the JVM once a
 * second and, when it is gone, stops every process listed in the ledger entry and deletes the
 * entry's folders. A JVM that shuts down normally removes the entry first and stops the watchdog,
 * so the watchdog never touches a PID after a clean run.
 */
public final class Watchdog implements AutoCloseable {
  private static final String SCRIPT =
      """
      owner=$1; ledger=$2
      while kill -0 "$owner" 2>/dev/null; do sleep 1; done
      [ -f "$ledger" ] || exit 0
      pids=$(awk '$1=="process" {print $2}' "$ledger")
      [ -n "$pids" ] && kill -TERM $pids 2>/dev/null
      # the owner is gone, so nobody waits for a graceful shutdown: 1 s of grace, then SIGKILL
      i=0
      while [ $i -lt 10 ]; do
        alive=0
        for p in $pids; do kill -0 "$p" 2>/dev/null && alive=1; done
        [ $alive -eq 0 ] && break
        sleep 0.1; i=$((i+1))
      done
      [ -n "$pids" ] && kill -KILL $pids 2>/dev/null
      awk '$1=="path" {print substr($0, 6)}' "$ledger" | while read -r p; do rm -rf "$p"; done
      rm -f "$ledger"
      """;

  private final Process process;

  private Watchdog(Process process) {
    this.process = process;
  }

  /** Starts a watchdog for the current JVM over {@code ledgerFile}. */
  public static Watchdog start(Path ledgerFile) throws IOException {
    var owner = Long.toString(ProcessHandle.current().pid());
    var process =
        new ProcessBuilder(
                List.of(
                    "sh", "-c", SCRIPT, "versio-testkit-watchdog", owner, ledgerFile.toString()))
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start();
    return new Watchdog(process);
  }

  @Override
  public void close() {
    ManagedProcess.stop(process.toHandle(), Duration.ofSeconds(2));
  }
}
