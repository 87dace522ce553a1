package dev.versio.operator.migrate;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/** Spaces out writes so a migration never sends more than its rate to the apiserver. */
public interface Pacer {
  /** Waits until the next write may start. */
  void acquire();

  /** No pacing. */
  static Pacer unlimited() {
    return () -> {};
  }

  /** At most {@code perSecond} writes per second, evenly spaced. */
  static Pacer perSecond(double perSecond) {
    if (!(perSecond > 0)) {
      throw new IllegalArgumentException("rate must be positive, not " + perSecond);
    }
    long interval = (long) (TimeUnit.SECONDS.toNanos(1) / perSecond);
    return new Pacer() {
      private long next = System.nanoTime();

      @Override
      public void acquire() {
        long now = System.nanoTime();
        if (next > now) {
          LockSupport.parkNanos(next - now);
        }
        next = Math.max(next, now) + interval;
      }
    };
  }
}
