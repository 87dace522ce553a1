package dev.versio.bench.fleet;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntConsumer;

/** Creates many objects at once: {@code create(i)} for every index of a range, on a few threads. */
public final class ParallelCreate {
  private ParallelCreate() {}

  /**
   * Runs {@code create(i)} for every i in [from, to) on {@code threads} threads.
   *
   * @return one line per index that failed: {@code "<i>: <message>"}
   */
  public static List<String> range(int from, int to, int threads, IntConsumer create)
      throws InterruptedException {
    var errors = Collections.synchronizedList(new ArrayList<String>());
    var next = new AtomicInteger(from);
    try (var pool = Executors.newFixedThreadPool(threads)) {
      for (int t = 0; t < threads; t++) {
        pool.submit(
            () -> {
              int i;
              while ((i = next.getAndIncrement()) < to) {
                try {
                  create.accept(i);
                } catch (RuntimeException e) {
                  errors.add(i + ": " + e.getMessage());
                }
              }
            });
      }
    }
    if (Thread.interrupted()) {
      throw new InterruptedException("interrupted while creating objects");
    }
    return errors;
  }
}
