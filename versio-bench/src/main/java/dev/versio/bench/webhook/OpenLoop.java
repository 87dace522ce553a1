package dev.versio.bench.webhook;

import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * An open-loop load at a fixed rate: request {@code i} is due at {@code start + i / rate}, and its
 * latency counts from that due time, so a stall of the server, the network or the generator itself
 * shows in the figures instead of being hidden (coordinated omission). At most {@code maxInFlight}
 * requests are outstanding: a request due while that many wait is sent when one finishes, and its
 * wait counts in its latency. A request not answered within {@code timeout} of being sent is an
 * error ({@code timeout}); one still unanswered when the run ends is an error ({@code unfinished});
 * neither is ever a latency.
 */
public final class OpenLoop {
  /** A send more than this after its due time counts as late. */
  static final Duration LATE = Duration.ofMillis(1);

  /**
   * @param rate requests per second
   * @param duration how long requests are scheduled for
   * @param maxInFlight the most requests outstanding at once
   * @param timeout how long one request may take from its send before it is an error
   */
  public record Settings(int rate, Duration duration, int maxInFlight, Duration timeout) {
    public Settings {
      if (rate < 1) {
        throw new IllegalArgumentException("rate must be at least 1 request/s, got " + rate);
      }
      Objects.requireNonNull(duration, "duration");
      if (duration.toMillis() * rate < 1000) {
        throw new IllegalArgumentException(
            "duration " + duration + " at " + rate + "/s schedules no request; make it longer");
      }
      if (maxInFlight < 1) {
        throw new IllegalArgumentException("maxInFlight must be at least 1, got " + maxInFlight);
      }
      Objects.requireNonNull(timeout, "timeout");
      if (timeout.isNegative() || timeout.isZero()) {
        throw new IllegalArgumentException("timeout must be positive, got " + timeout);
      }
    }

    int requests() {
      return (int) (duration.toMillis() * rate / 1000);
    }
  }

  /**
   * What a run did.
   *
   * @param scheduled requests due in the run
   * @param latenciesNanos latency of every answered request from its due time, sorted
   * @param errors requests that failed, by cause ({@code timeout}, {@code unfinished}, {@code HTTP
   *     503}, an exception's name), sorted by cause
   * @param late requests sent more than {@link #LATE} after their due time
   * @param sendSeconds from the first due time to the last send
   * @param wallSeconds from the first due time to the last answer or error
   */
  public record Result(
      int scheduled,
      long[] latenciesNanos,
      Map<String, Integer> errors,
      int late,
      double sendSeconds,
      double wallSeconds) {
    public Result {
      latenciesNanos = latenciesNanos.clone();
      Arrays.sort(latenciesNanos);
      errors = java.util.Collections.unmodifiableMap(new TreeMap<>(errors));
    }

    public int answered() {
      return latenciesNanos.length;
    }

    public int failed() {
      return errors.values().stream().mapToInt(Integer::intValue).sum();
    }

    /** Answered requests per second of wall time. */
    public double answeredPerSecond() {
      return wallSeconds == 0 ? 0 : answered() / wallSeconds;
    }

    /** The {@code p}-quantile (0–1) of the answered requests' latency in milliseconds. */
    public double latencyMillis(double p) {
      if (latenciesNanos.length == 0) {
        return Double.NaN;
      }
      int index = (int) Math.ceil(p * latenciesNanos.length) - 1;
      return latenciesNanos[Math.clamp(index, 0, latenciesNanos.length - 1)] / 1e6;
    }
  }

  /** What the load sends: request {@code i}, completing with the HTTP status of its answer. */
  @FunctionalInterface
  public interface Sender {
    CompletableFuture<Integer> send(int index);
  }

  private OpenLoop() {}

  /** Runs {@code settings} through {@code sender}; returns once every request is settled. */
  public static Result run(Settings settings, Sender sender) throws InterruptedException {
    int total = settings.requests();
    long interval = 1_000_000_000L / settings.rate();
    long timeoutNanos = settings.timeout().toNanos();
    var slots = new Semaphore(settings.maxInFlight());
    var latencies = new long[total];
    var state = new AtomicIntegerArray(total); // 0 pending, 1 answered, 2 failed
    var errors = new ConcurrentHashMap<String, LongAdder>();
    var done = new CountDownLatch(total);
    var lastSettled = new AtomicLong();
    int late = 0;
    long start = System.nanoTime() + 1_000_000; // the first due time, a moment from now
    long lastSend = start;
    for (int i = 0; i < total; i++) {
      long due = start + i * interval;
      long wait = due - System.nanoTime();
      if (wait > 0) {
        TimeUnit.NANOSECONDS.sleep(wait); // pacing the open-loop load
      }
      slots.acquire(); // bounded in flight: a late send still counts from its due time
      lastSend = System.nanoTime();
      if (lastSend - due > LATE.toNanos()) {
        late++;
      }
      int index = i;
      // a request is claimed for one outcome (not when it was counted unfinished at the end), its
      // latency or error recorded, and only then counted done: the run reads them once all are done
      Runnable settled =
          () -> {
            lastSettled.accumulateAndGet(System.nanoTime(), Math::max);
            slots.release();
            done.countDown();
          };
      CompletableFuture<Integer> answer;
      try {
        answer = sender.send(index);
      } catch (RuntimeException e) {
        answer = CompletableFuture.failedFuture(e);
      }
      answer
          .orTimeout(timeoutNanos, TimeUnit.NANOSECONDS)
          .whenComplete(
              (status, failure) -> {
                long latency = System.nanoTime() - due;
                if (failure == null && status == 200) {
                  latencies[index] = latency; // read only where the state below says answered
                  if (state.compareAndSet(index, 0, 1)) {
                    settled.run();
                  }
                } else if (state.compareAndSet(index, 0, 2)) {
                  errors.computeIfAbsent(cause(status, failure), c -> new LongAdder()).increment();
                  settled.run();
                }
              });
    }
    done.await(timeoutNanos + Duration.ofSeconds(5).toNanos(), TimeUnit.NANOSECONDS);
    long end = Math.max(lastSettled.get(), lastSend);
    int answered = 0;
    for (int i = 0; i < total; i++) {
      if (state.compareAndSet(i, 0, 2)) {
        errors.computeIfAbsent("unfinished", c -> new LongAdder()).increment();
      } else if (state.get(i) == 1) {
        answered++;
      }
    }
    var answeredLatencies = new long[answered];
    for (int i = 0, j = 0; i < total; i++) {
      if (state.get(i) == 1) {
        answeredLatencies[j++] = latencies[i];
      }
    }
    var errorCounts = new TreeMap<String, Integer>();
    errors.forEach((cause, count) -> errorCounts.put(cause, count.intValue()));
    return new Result(
        total, answeredLatencies, errorCounts, late, (lastSend - start) / 1e9, (end - start) / 1e9);
  }

  /** A short name for why a request failed. */
  static String cause(Integer status, Throwable failure) {
    if (failure == null) {
      return "HTTP " + status;
    }
    var root = failure;
    while ((root instanceof CompletionException || root instanceof ExecutionException)
        && root.getCause() != null) {
      root = root.getCause();
    }
    if (root instanceof TimeoutException || root instanceof java.net.http.HttpTimeoutException) {
      return "timeout";
    }
    return root.getClass().getSimpleName();
  }
}
