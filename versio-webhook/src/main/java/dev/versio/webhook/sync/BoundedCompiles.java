package dev.versio.webhook.sync;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * Runs one compile per key, at most {@code workers} at once, and collects the results in key order,
 * giving up on a compile that has run longer than its budget (counted from when it started, not
 * from when it was queued): one pathological target must not keep a starting replica unready for
 * all the others. A compile given up on stops counting against {@code workers}, so the queue behind
 * it moves on; it keeps running on its own daemon thread until it ends (the engine does not poll
 * for interruption), and its result is dropped.
 */
final class BoundedCompiles {
  private BoundedCompiles() {}

  /** What became of one key's compile. */
  sealed interface Outcome<V> {
    /** It finished with {@code value}. */
    record Done<V>(V value) implements Outcome<V> {}

    /** It ran longer than the budget. */
    record TimedOut<V>() implements Outcome<V> {}

    /** It threw. */
    record Failed<V>(Throwable cause) implements Outcome<V> {}
  }

  /** One compile: when it started, its result, and whether its slot was given back. */
  private record Task<V>(AtomicLong startedAt, CompletableFuture<V> result, AtomicBoolean freed) {
    void free(Semaphore slots) {
      if (freed.compareAndSet(false, true)) {
        slots.release();
      }
    }
  }

  private static final long NOT_STARTED = Long.MIN_VALUE;

  /** Polling step while a queued compile waits for a slot. */
  private static final long QUEUED_POLL_MILLIS = 50;

  static <K, V> List<Outcome<V>> run(
      List<K> keys, int workers, Duration budget, Function<K, V> compile)
      throws InterruptedException {
    var slots = new Semaphore(workers);
    var tasks = new ArrayList<Task<V>>();
    for (int i = 0; i < keys.size(); i++) {
      tasks.add(
          new Task<V>(new AtomicLong(NOT_STARTED), new CompletableFuture<>(), new AtomicBoolean()));
    }
    var launcher =
        Thread.ofPlatform()
            .name("versio-initial-sync")
            .daemon()
            .start(
                () -> {
                  for (int i = 0; i < keys.size(); i++) {
                    var key = keys.get(i);
                    var task = tasks.get(i);
                    try {
                      slots.acquire();
                    } catch (InterruptedException e) {
                      return; // the caller gave up on the whole sync
                    }
                    Thread.ofPlatform()
                        .name("versio-initial-compile")
                        .daemon()
                        .start(
                            () -> {
                              task.startedAt().set(System.nanoTime());
                              try {
                                task.result().complete(compile.apply(key));
                              } catch (Throwable t) {
                                task.result().completeExceptionally(t);
                              } finally {
                                task.free(slots);
                              }
                            });
                  }
                });
    try {
      var out = new ArrayList<Outcome<V>>(tasks.size());
      for (var task : tasks) {
        out.add(await(task, budget, slots));
      }
      return out;
    } finally {
      launcher.interrupt();
    }
  }

  private static <V> Outcome<V> await(Task<V> task, Duration budget, Semaphore slots)
      throws InterruptedException {
    while (true) {
      long started = task.startedAt().get();
      long wait =
          started == NOT_STARTED
              ? TimeUnit.MILLISECONDS.toNanos(QUEUED_POLL_MILLIS)
              : started + budget.toNanos() - System.nanoTime();
      try {
        return new Outcome.Done<>(task.result().get(Math.max(0, wait), TimeUnit.NANOSECONDS));
      } catch (ExecutionException e) {
        return new Outcome.Failed<>(e.getCause());
      } catch (TimeoutException e) {
        if (started != NOT_STARTED) {
          task.free(slots); // the queue behind it moves on while it runs
          return new Outcome.TimedOut<>();
        }
      }
    }
  }
}
