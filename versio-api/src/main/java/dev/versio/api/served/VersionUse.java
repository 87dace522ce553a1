package dev.versio.api.served;

import java.time.Instant;
import java.util.Collection;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What the webhook replicas that serve one target report of clients' use of its versions: when a
 * review last touched each version (the latest any of them saw) and since when they have been
 * recording (the earliest start among them; of the time before it nothing is known).
 *
 * @param lastReviewed version → the last review that touched it
 * @param since the earliest start among the reporting replicas
 */
public record VersionUse(Map<String, Instant> lastReviewed, Instant since) {
  public VersionUse {
    lastReviewed = Map.copyOf(lastReviewed);
    Objects.requireNonNull(since, "since");
  }

  /**
   * The use of {@code target} as {@code reports} tell it, one report per replica that serves the
   * target; empty when there is none.
   */
  public static Optional<VersionUse> of(String target, Collection<VersionsSeenCodec.Seen> reports) {
    Instant since = null;
    var last = new TreeMap<String, Instant>();
    for (var report : reports) {
      since = since == null || report.since().isBefore(since) ? report.since() : since;
      report
          .byTarget()
          .getOrDefault(target, Map.of())
          .forEach((version, at) -> last.merge(version, at, (a, b) -> a.isAfter(b) ? a : b));
    }
    return since == null ? Optional.empty() : Optional.of(new VersionUse(last, since));
  }
}
