package dev.versio.webhook.metrics;

import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * When this replica last saw a ConversionReview touch each version of each target: the version of
 * the objects it was sent and the version they were wanted at. A client reading or writing a
 * version other than the storage version always causes such a review, so a version no review
 * touched for a while is one no client used meanwhile (as far as this replica saw, since {@link
 * #since}). To the second; a review costs one map lookup when the second has not changed.
 */
public final class VersionsSeen {
  private final Clock clock;
  private final Instant since;
  private final Map<String, Map<String, Long>> seen = new ConcurrentHashMap<>();

  public VersionsSeen(Clock clock) {
    this.clock = clock;
    this.since = clock.instant();
  }

  /** A review of {@code target} from {@code from} to {@code to} (either may be null). */
  public void record(String target, String from, String to) {
    if (target == null || (from == null && to == null)) {
      return;
    }
    long now = clock.instant().getEpochSecond();
    var versions = seen.computeIfAbsent(target, t -> new ConcurrentHashMap<>());
    touch(versions, from, now);
    touch(versions, to, now);
  }

  private static void touch(Map<String, Long> versions, String version, long now) {
    if (version == null) {
      return;
    }
    var last = versions.get(version);
    if (last == null || last < now) {
      versions.merge(version, now, Math::max);
    }
  }

  /** The target is no longer served here. */
  public void forget(String target) {
    seen.remove(target);
  }

  /** Since when this replica has been recording. */
  public Instant since() {
    return since;
  }

  /** Target → version → epoch second of the last review that touched it. */
  public Map<String, Map<String, Long>> snapshot() {
    var out = new HashMap<String, Map<String, Long>>();
    seen.forEach((target, versions) -> out.put(target, Map.copyOf(versions)));
    return out;
  }
}
