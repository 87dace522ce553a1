package dev.versio.webhook.metrics;

import dev.versio.api.served.VersionsSeenCodec;
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

  /** Per target served here, the epoch second its service here began (start-up: {@link #since}). */
  private final Map<String, Long> serving = new ConcurrentHashMap<>();

  /** Set once the initial sync is over: targets that come later began being served later. */
  private volatile boolean settled;

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

  /**
   * The targets served here now (every registry change): a target new here after the initial sync
   * is watched from now on; its reviews before went to other replicas.
   */
  public void serving(java.util.Set<String> targets) {
    long now = settled ? clock.instant().getEpochSecond() : since.getEpochSecond();
    targets.forEach(target -> serving.putIfAbsent(target, now));
    serving.keySet().retainAll(targets);
    seen.keySet().retainAll(targets);
  }

  /** The initial sync is over. */
  public void settle() {
    settled = true;
  }

  /** The target is no longer served here. */
  public void forget(String target) {
    seen.remove(target);
    serving.remove(target);
  }

  /** Since when this replica has been recording. */
  public Instant since() {
    return since;
  }

  /**
   * Target → version → epoch second of the last review that touched it; a target whose service here
   * began after the start also has {@link VersionsSeenCodec#WATCHING} with that second.
   */
  public Map<String, Map<String, Long>> snapshot() {
    var out = new HashMap<String, Map<String, Long>>();
    seen.forEach((target, versions) -> out.put(target, new HashMap<>(versions)));
    long start = since.getEpochSecond();
    serving.forEach(
        (target, from) -> {
          if (from > start) {
            out.computeIfAbsent(target, t -> new HashMap<>()).put(VersionsSeenCodec.WATCHING, from);
          }
        });
    out.replaceAll((target, versions) -> Map.copyOf(versions));
    return out;
  }
}
