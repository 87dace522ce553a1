package dev.versio.coordination.gate;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BiConsumer;
import java.util.function.Predicate;

/**
 * A blocking, thread-safe front of {@link ReconcileLanes}: event handlers offer keys, workers
 * {@link #take} them, live events first and takeover resync at its paced rate.
 *
 * @param <K> the key type
 */
public final class ReconcileQueue<K> {
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private final ReconcileLanes<K> lanes;
  private final BiConsumer<ReconcileLanes.Lane, Duration> waited;

  public ReconcileQueue(ReconcileLanes<K> lanes) {
    this(lanes, (lane, duration) -> {});
  }

  /**
   * @param waited told, for every key taken, its lane and how long it waited (e.g. {@code
   *     CoordinationMetrics::queueWait})
   */
  public ReconcileQueue(ReconcileLanes<K> lanes, BiConsumer<ReconcileLanes.Lane, Duration> waited) {
    this.lanes = lanes;
    this.waited = waited;
  }

  public void offerLive(K key) {
    withLock(() -> lanes.offerLive(key));
  }

  public void offerResync(Iterable<K> keys) {
    withLock(() -> keys.forEach(lanes::offerResync));
  }

  public void removeIf(Predicate<K> unwanted) {
    withLock(() -> lanes.removeIf(unwanted));
  }

  public int resyncBacklog() {
    lock.lock();
    try {
      return lanes.resyncBacklog();
    } finally {
      lock.unlock();
    }
  }

  /** Keys queued in either lane. */
  public int backlog() {
    lock.lock();
    try {
      return lanes.backlog();
    } finally {
      lock.unlock();
    }
  }

  /** The next key, waiting at most {@code timeout}; empty if none became ready in time. */
  public Optional<K> take(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    lock.lockInterruptibly();
    try {
      while (true) {
        var next = lanes.poll();
        if (next.isPresent()) {
          waited.accept(next.get().lane(), next.get().waited());
          return Optional.of(next.get().key());
        }
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return Optional.empty();
        }
        long wait =
            lanes.untilReady().map(Duration::toNanos).map(w -> Math.min(w, left)).orElse(left);
        changed.awaitNanos(Math.max(wait, 1_000_000));
      }
    } finally {
      lock.unlock();
    }
  }

  private void withLock(Runnable change) {
    lock.lock();
    try {
      change.run();
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }
}
