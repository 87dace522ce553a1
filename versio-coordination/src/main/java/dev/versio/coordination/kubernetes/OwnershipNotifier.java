package dev.versio.coordination.kubernetes;

import dev.versio.coordination.gate.OwnershipListener;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells listeners about gained and lost shards, in order, on one thread of its own: a slow listener
 * (or a slow Event write) never delays the lease loop.
 */
final class OwnershipNotifier implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(OwnershipNotifier.class);

  private final List<OwnershipListener> listeners = new CopyOnWriteArrayList<>();
  private final ExecutorService thread =
      Executors.newSingleThreadExecutor(
          r -> Thread.ofPlatform().name("versio-ownership-events").daemon().unstarted(r));

  void add(OwnershipListener listener) {
    listeners.add(listener);
  }

  void gained(Map<Integer, Long> epochs, int nowHolding) {
    if (epochs.isEmpty()) {
      return;
    }
    LOG.info(
        "gained {} shard(s), now holding {}: {}",
        epochs.size(),
        nowHolding,
        brief(epochs.keySet()));
    var copy = Map.copyOf(epochs);
    each(l -> l.gained(copy));
  }

  void resumed(Map<Integer, Long> epochs) {
    if (epochs.isEmpty()) {
      return;
    }
    LOG.warn(
        "a renewal was confirmed only after the renew deadline: writes were refused meanwhile;"
            + " resyncing the {} shard(s) held all along",
        epochs.size());
    var copy = Map.copyOf(epochs);
    each(l -> l.resumed(copy));
  }

  void lost(Set<Integer> shards, String why) {
    if (shards.isEmpty()) {
      return;
    }
    LOG.info("lost {} shard(s) ({}): {}", shards.size(), why, brief(shards));
    var copy = Set.copyOf(shards);
    each(l -> l.lost(copy));
  }

  /** Runs {@code task} on the notification thread; dropped once stopped. */
  void background(Runnable task) {
    try {
      thread.execute(task);
    } catch (RejectedExecutionException e) {
      // stopping: nobody listens any more
    }
  }

  private void each(Consumer<OwnershipListener> call) {
    background(
        () -> {
          for (var listener : listeners) {
            try {
              call.accept(listener);
            } catch (RuntimeException e) {
              LOG.warn("ownership listener failed", e);
            }
          }
        });
  }

  /** At most 16 shard numbers, so that a log line stays readable with hundreds of shards. */
  static String brief(Set<Integer> shards) {
    var sorted = new TreeSet<>(shards);
    var head = sorted.stream().limit(16).map(String::valueOf).toList();
    return "[" + String.join(", ", head) + (sorted.size() > 16 ? ", …]" : "]");
  }

  @Override
  public void close() {
    thread.shutdown();
    try {
      thread.awaitTermination(2, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
