package dev.versio.webhook.sync;

import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A FIFO work queue that holds each key at most once: a key added again while it waits keeps its
 * place, so a burst of events for one config is handled once.
 */
final class DedupQueue<K> {
  private final LinkedHashSet<K> pending = new LinkedHashSet<>();
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition notEmpty = lock.newCondition();

  /** Adds {@code key} unless it is already waiting; true when it was added. */
  boolean add(K key) {
    lock.lock();
    try {
      boolean added = pending.add(key);
      if (added) {
        notEmpty.signal();
      }
      return added;
    } finally {
      lock.unlock();
    }
  }

  void addAll(Iterable<K> keys) {
    keys.forEach(this::add);
  }

  /** The oldest waiting key, waiting up to {@code timeout}; null when none arrived. */
  K poll(Duration timeout) throws InterruptedException {
    long nanos = timeout.toNanos();
    lock.lock();
    try {
      while (pending.isEmpty()) {
        if (nanos <= 0) {
          return null;
        }
        nanos = notEmpty.awaitNanos(nanos);
      }
      var it = pending.iterator();
      var key = it.next();
      it.remove();
      return key;
    } finally {
      lock.unlock();
    }
  }

  int size() {
    lock.lock();
    try {
      return pending.size();
    } finally {
      lock.unlock();
    }
  }
}
