package dev.versio.cli;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * SIGTERM and Ctrl-C (SIGINT) as a request to stop, for the long-running commands: the command's
 * own thread waits in {@link #await}, closes what it started in order, and returns exit code 0. (A
 * plain shutdown hook cannot do that: the JVM exits with 143 or 130 after a signal whatever the
 * hooks do.) Further signals while stopping are ignored: the stop is bounded by the command's grace
 * periods, and {@code kill -9} remains for the impatient.
 *
 * <p>Where the JDK does not offer signal handlers ({@code jdk.unsupported} missing), a shutdown
 * hook stands in: it requests the stop and waits (up to {@code grace}) until the command calls
 * {@link #stopped}.
 */
public final class StopSignal {
  private static final String[] SIGNALS = {"TERM", "INT"};

  private final CountDownLatch requested = new CountDownLatch(1);
  private final CountDownLatch finished = new CountDownLatch(1);
  private final AtomicInteger received = new AtomicInteger();
  private volatile String reason = "";

  private StopSignal() {}

  /**
   * Installs the handlers for this process.
   *
   * @param grace how long a fallback shutdown hook waits for the command to finish stopping
   */
  public static StopSignal install(Duration grace) {
    var stop = new StopSignal();
    if (!stop.installHandlers()) {
      Runtime.getRuntime()
          .addShutdownHook(
              new Thread(
                  () -> {
                    stop.request("shutdown");
                    stop.awaitStopped(grace);
                  },
                  "versio-stop"));
    }
    return stop;
  }

  /** Requests the stop from inside the process (e.g. a child process died). */
  public void request(String why) {
    if (requested.getCount() > 0) {
      reason = why;
      requested.countDown();
    }
  }

  /** Waits until a stop is requested. */
  public void await() throws InterruptedException {
    requested.await();
  }

  /** Waits up to {@code timeout}; true when a stop was requested. */
  public boolean await(Duration timeout) throws InterruptedException {
    return requested.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  public boolean isRequested() {
    return requested.getCount() == 0;
  }

  /** What requested the stop, e.g. {@code SIGTERM}; empty while none was requested. */
  public String reason() {
    return reason;
  }

  /** Tells a waiting fallback hook that everything is stopped. */
  public void stopped() {
    finished.countDown();
  }

  private void awaitStopped(Duration grace) {
    try {
      finished.await(grace.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void onSignal(String name) {
    // later signals change nothing: a stop is bounded anyway, and tools such as timeout(1) send
    // SIGTERM both to the process and to its process group, so two arrive at once
    if (received.incrementAndGet() == 1) {
      request("SIG" + name);
    }
  }

  /**
   * Registers {@code sun.misc.Signal} handlers (module {@code jdk.unsupported}: supported, though
   * javac flags it as internal API); false where the JDK lacks it.
   */
  private boolean installHandlers() {
    try {
      for (var name : SIGNALS) {
        sun.misc.Signal.handle(new sun.misc.Signal(name), signal -> onSignal(signal.getName()));
      }
      return true;
    } catch (IllegalArgumentException | LinkageError e) {
      return false;
    }
  }
}
