package dev.versio.api.served;

import java.time.Instant;
import java.util.Collection;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What the webhook replicas that serve one target report of clients' use of its versions: when a
 * review last touched each version (the latest any of them saw) and since when their reports cover
 * every review of the target: the <em>latest</em> start among them (of the target's service there,
 * or of the replica). Reviews are spread over the replicas, so before that moment some went to a
 * replica that is gone, or that served the target elsewhere.
 *
 * @param lastReviewed version → the last review that touched it
 * @param since from when on no review of the target escaped the reports (when complete)
 * @param complete every replica that serves the target reports, and none left it out: only then
 *     does a version without a recent review count as unused (a recent review shows use either way)
 */
public record VersionUse(Map<String, Instant> lastReviewed, Instant since, boolean complete) {
  public VersionUse {
    lastReviewed = Map.copyOf(lastReviewed);
    Objects.requireNonNull(since, "since");
  }

  /** Reports of every serving replica. */
  public VersionUse(Map<String, Instant> lastReviewed, Instant since) {
    this(lastReviewed, since, true);
  }

  /**
   * The use of {@code target} as {@code reports} tell it, one per replica that serves the target
   * and reports; empty when none reports. Not {@linkplain #complete complete} with fewer reports
   * than {@code servingReplicas} (a replica that reports nothing, e.g. of an older release), or
   * with one that left the target out to stay within its size.
   */
  public static Optional<VersionUse> of(
      String target, Collection<VersionsSeenCodec.Seen> reports, int servingReplicas) {
    if (reports.isEmpty()) {
      return Optional.empty();
    }
    boolean complete = reports.size() >= servingReplicas;
    Instant since = null;
    var last = new TreeMap<String, Instant>();
    for (var report : reports) {
      var versions = report.byTarget().get(target);
      if (versions == null && report.truncated()) {
        complete = false;
      }
      var from = report.since();
      if (versions != null) {
        var watching = versions.get(VersionsSeenCodec.WATCHING);
        if (watching != null && watching.isAfter(from)) {
          from = watching;
        }
        versions.forEach(
            (version, at) -> {
              if (!VersionsSeenCodec.WATCHING.equals(version)) {
                last.merge(version, at, (a, b) -> a.isAfter(b) ? a : b);
              }
            });
      }
      since = since == null || from.isAfter(since) ? from : since;
    }
    return Optional.of(new VersionUse(last, since, complete));
  }
}
