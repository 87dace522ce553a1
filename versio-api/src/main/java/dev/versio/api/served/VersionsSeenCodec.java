package dev.versio.api.served;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * When a webhook-server replica last saw a ConversionReview touch each version of each target it
 * serves (the objects' version or the desired one), published on part 0 of its served-target
 * Leases, so that {@code versio status} can tell whether any client still reads or writes a version
 * before it is stopped. A replica knows only what it saw since it started ({@link #SINCE}).
 *
 * <p>Text form: {@code <target>=<version>:<epoch seconds>,<version>:<epoch seconds>;<target>=…},
 * targets and versions in name order; at most {@link #MAX_CHARS} characters (targets past the limit
 * are left out and {@link #TRUNCATED} says so).
 */
public final class VersionsSeenCodec {
  /** The annotation holding the text form. */
  public static final String SEEN = "versio.dev/versions-seen";

  /** Since when the replica has been recording (its start), epoch seconds. */
  public static final String SINCE = "versio.dev/versions-seen-since";

  /** Present ({@code "true"}) when targets were left out to respect {@link #MAX_CHARS}. */
  public static final String TRUNCATED = "versio.dev/versions-seen-truncated";

  public static final int MAX_CHARS = 64 * 1024;

  /**
   * A pseudo-version in a target's entry: since when the replica has served that target, when it
   * began after the replica's start (a target that moved here). Its reviews from before went
   * elsewhere.
   */
  public static final String WATCHING = "*";

  /**
   * What one replica reports.
   *
   * @param truncated targets were left out to respect {@link #MAX_CHARS}: a target missing from
   *     {@code byTarget} may have had reviews
   */
  public record Seen(Map<String, Map<String, Instant>> byTarget, Instant since, boolean truncated) {
    public Seen {
      byTarget = Map.copyOf(byTarget);
    }
  }

  private VersionsSeenCodec() {}

  /**
   * The annotations for {@code seen} (target → version → epoch seconds) recorded since {@code
   * since}.
   */
  public static Map<String, String> annotations(
      Map<String, Map<String, Long>> seen, Instant since) {
    var text = new StringBuilder();
    boolean truncated = false;
    for (var target : new TreeMap<>(seen).entrySet()) {
      if (target.getValue().isEmpty()) {
        continue;
      }
      var entry = new StringBuilder(target.getKey()).append('=');
      boolean first = true;
      for (var version : new TreeMap<>(target.getValue()).entrySet()) {
        entry
            .append(first ? "" : ",")
            .append(version.getKey())
            .append(':')
            .append(version.getValue());
        first = false;
      }
      if (text.length() + entry.length() + 1 > MAX_CHARS) {
        truncated = true;
        continue;
      }
      text.append(text.isEmpty() ? "" : ";").append(entry);
    }
    var out = new LinkedHashMap<String, String>();
    out.put(SEEN, text.toString());
    out.put(SINCE, Long.toString(since.getEpochSecond()));
    if (truncated) {
      out.put(TRUNCATED, "true");
    }
    return out;
  }

  /**
   * Reads what a Lease's annotations report; empty when they carry no (readable) report, e.g. a
   * replica of an older release. Malformed entries are skipped.
   */
  public static Optional<Seen> decode(Map<String, String> annotations) {
    if (annotations == null || !annotations.containsKey(SINCE)) {
      return Optional.empty();
    }
    Instant since;
    try {
      since = Instant.ofEpochSecond(Long.parseLong(annotations.get(SINCE).trim()));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
    var byTarget = new LinkedHashMap<String, Map<String, Instant>>();
    var text = annotations.getOrDefault(SEEN, "");
    for (var entry : text.split(";")) {
      int eq = entry.indexOf('=');
      if (eq <= 0) {
        continue;
      }
      var versions = new LinkedHashMap<String, Instant>();
      for (var pair : entry.substring(eq + 1).split(",")) {
        int colon = pair.indexOf(':');
        if (colon <= 0) {
          continue;
        }
        try {
          versions.put(
              pair.substring(0, colon),
              Instant.ofEpochSecond(Long.parseLong(pair.substring(colon + 1))));
        } catch (NumberFormatException e) {
          // skipped: one bad pair does not hide the others
        }
      }
      if (!versions.isEmpty()) {
        byTarget.put(entry.substring(0, eq), Map.copyOf(versions));
      }
    }
    return Optional.of(new Seen(byTarget, since, "true".equals(annotations.get(TRUNCATED))));
  }
}
