package dev.versio.coordination.kubernetes;

import dev.versio.coordination.core.CoordinationSettings;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps track of shards without a live holder, as one replica sees them: seconds during which any
 * shard was unowned, and shards unowned beyond {@code leaseDuration + 2 × renewInterval}, which are
 * logged and reported as a {@code ShardUnowned} Event at most once a minute.
 */
final class UnownedShards {
  private static final Logger LOG = LoggerFactory.getLogger(UnownedShards.class);

  private final Duration bound;
  private final CoordinationMetrics metrics;
  private final Consumer<String> warn;
  private final Map<Integer, Instant> since = new HashMap<>();
  private Instant lastTick;
  private Instant lastWarning = Instant.MIN;

  /**
   * @param warn records a ShardUnowned Warning with the given message
   */
  UnownedShards(
      CoordinationSettings settings,
      CoordinationMetrics metrics,
      Consumer<String> warn,
      Instant start) {
    this.bound = settings.leaseDuration().plus(settings.renewInterval().multipliedBy(2));
    this.metrics = metrics;
    this.warn = warn;
    this.lastTick = start;
  }

  /** One planning round saw {@code unowned}; updates metrics and warns when overdue. */
  void observe(Instant now, Set<Integer> unowned, int owned, int agreeing, boolean mismatch) {
    var elapsed = Duration.between(lastTick, now);
    lastTick = now;
    if (!unowned.isEmpty() && !elapsed.isNegative()) {
      metrics.unownedFor(elapsed);
    }
    since.keySet().retainAll(unowned);
    unowned.forEach(s -> since.putIfAbsent(s, now));
    List<Integer> beyond =
        since.entrySet().stream()
            .filter(e -> !now.isBefore(e.getValue().plus(bound)))
            .map(Map.Entry::getKey)
            .sorted()
            .toList();
    if (!beyond.isEmpty() && agreeing > 0 && !now.isBefore(lastWarning.plusSeconds(60))) {
      lastWarning = now;
      var message =
          beyond.size()
              + " shard(s) without a live holder for more than "
              + bound
              + ": "
              + OwnershipNotifier.brief(Set.copyOf(beyond));
      warn.accept(message);
      LOG.warn("ShardUnowned: {}", message);
    }
    metrics.state(owned, agreeing, unowned.size(), beyond.size(), mismatch);
  }
}
