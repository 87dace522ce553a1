package dev.versio.operator.lifecycle;

import com.fasterxml.jackson.databind.JsonNode;
import dev.versio.api.served.VersionUse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Where a CRD stands in retiring a version — add → promote storage → re-store → prune {@code
 * status.storedVersions} → stop serving → remove — and the next step that is safe now. Read from
 * the live CRD ({@code spec.versions[].{name, served, storage, deprecated}}, {@code
 * status.storedVersions}) and the versions the config converts (hub and spokes).
 *
 * @param versions every version the CRD declares, in its order
 * @param next the next safe step, if any
 * @param reviewsSince since when the serving replicas report reviews (null: none reports)
 * @param reviewsComplete every serving replica reports, and none left the target out
 */
public record VersionLifecycle(
    List<Version> versions, Optional<Step> next, Instant reviewsSince, boolean reviewsComplete) {
  /**
   * One version of the CRD.
   *
   * @param stored listed in {@code status.storedVersions}: objects may be stored at it
   * @param converted the config's hub or one of its spokes
   */
  public record Version(
      String name,
      boolean served,
      boolean storage,
      boolean stored,
      boolean deprecated,
      boolean converted,
      Instant lastReviewed) {}

  /** A review at a version this recent means a client still uses it. */
  public static final Duration RECENT = Duration.ofHours(1);

  /** A step of the sequence, and what to do for it. */
  public sealed interface Step {
    String version();

    /**
     * What to do, for the CRDs that hold the target's objects (a CRD target: itself; an XRD: the
     * CRDs Crossplane generated from it).
     */
    String describe(List<String> crds);

    /** {@link #describe(List)} for a CRD target. */
    default String describe(String crd) {
      return describe(List.of(crd));
    }

    /** Objects may still be stored at {@code others}: re-store them at the storage version. */
    record Restore(String version, List<String> others) implements Step {
      @Override
      public String describe(List<String> crds) {
        return "re-store every object at "
            + version
            + " (status.storedVersions still lists "
            + String.join(", ", others)
            + "): versio migrate-storage --crd-name "
            + String.join(" and versio migrate-storage --crd-name ", crds)
            + ", or let the operator do it (annotate the config versio.dev/migrate-storage=<a new"
            + " value>); either prunes status.storedVersions once every object is handled; until"
            + " then "
            + String.join(" and ", others)
            + " must keep "
            + (others.size() == 1 ? "its spoke" : "their spokes");
      }
    }

    /** Neither served nor stored: nothing reads or holds it any more. */
    record Remove(String version, boolean converted) implements Step {
      @Override
      public String describe(List<String> crds) {
        return version
            + " is neither served nor stored: remove it from spec.versions"
            + (converted ? ", then its spoke from the config" : "");
      }
    }

    /**
     * Deprecated, served, nothing stored at it: stop serving it once no client uses it, which the
     * replicas' reviews tell ({@code use} null: no replica reports them).
     */
    record StopServing(String version, VersionUse use, Instant now) implements Step {
      @Override
      public String describe(List<String> crds) {
        var head = version + " is deprecated and no object is stored at it: ";
        if (use == null) {
          return head
              + "stop serving it (served: false) once no client reads or writes it any more (no"
              + " webhook replica reports which versions its reviews touch)";
        }
        var last = use.lastReviewed().get(version);
        if (last != null && !last.isBefore(now.minus(RECENT))) {
          return head
              + "a review touched "
              + version
              + " at "
              + last
              + ", so a client still reads or writes it; stop serving it once none does";
        }
        if (!use.complete()) {
          return head
              + "a replica that serves the target reports nothing of its reviews, or left the target"
              + " out, so whether a client still reads or writes "
              + version
              + " is not known; stop serving it once you know none does";
        }
        if (use.since().isAfter(now.minus(RECENT))) {
          return head
              + "the serving replicas have seen every review of it only since "
              + use.since()
              + " (one of them, or the target's service there, started then); stop serving it"
              + " once no review touched it for an hour, after "
              + use.since().plus(RECENT);
        }
        return head
            + "no review touched "
            + version
            + (last == null ? " since " + use.since() : " after " + last)
            + " (as the serving replicas saw it): stop serving it (served: false)";
      }

      /** Whether a review touched the version within {@link #RECENT}. */
      public boolean inUse() {
        var last = use == null ? null : use.lastReviewed().get(version);
        return last != null && !last.isBefore(now.minus(RECENT));
      }
    }
  }

  /**
   * @param crd the live CRD
   * @param convertedVersions the config's hub and spoke versions
   */
  public static VersionLifecycle of(JsonNode crd, Set<String> convertedVersions) {
    return of(crd, convertedVersions, null, Instant.EPOCH);
  }

  /**
   * @param use what the replicas report of reviews, or null when none does
   * @param now the time "recent" is measured from
   */
  public static VersionLifecycle of(
      JsonNode crd, Set<String> convertedVersions, VersionUse use, Instant now) {
    var stored = new LinkedHashSet<String>();
    crd.path("status").path("storedVersions").forEach(v -> stored.add(v.asText()));
    var versions = new ArrayList<Version>();
    String storage = null;
    for (var v : crd.path("spec").path("versions")) {
      var name = v.path("name").asText();
      var version =
          new Version(
              name,
              v.path("served").asBoolean(true),
              v.path("storage").asBoolean(false),
              stored.contains(name),
              v.path("deprecated").asBoolean(false),
              convertedVersions.contains(name),
              use == null ? null : use.lastReviewed().get(name));
      versions.add(version);
      if (version.storage()) {
        storage = name;
      }
    }
    return new VersionLifecycle(
        versions,
        next(versions, storage, use, now),
        use == null ? null : use.since(),
        use != null && use.complete());
  }

  private static Optional<Step> next(
      List<Version> versions, String storage, VersionUse use, Instant now) {
    if (storage == null) {
      return Optional.empty();
    }
    var restore =
        versions.stream().filter(v -> v.stored() && !v.storage()).map(Version::name).toList();
    if (!restore.isEmpty()) {
      return Optional.of(new Step.Restore(storage, restore));
    }
    for (var v : versions) {
      if (!v.served() && !v.stored() && !v.storage()) {
        return Optional.of(new Step.Remove(v.name(), v.converted()));
      }
    }
    for (var v : versions) {
      if (v.served() && v.deprecated() && !v.stored() && !v.storage()) {
        return Optional.of(new Step.StopServing(v.name(), use, now));
      }
    }
    return Optional.empty();
  }
}
