package dev.versio.operator.lifecycle;

import dev.versio.operator.status.Observation.Check;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The {@code RetirementReady} condition of a CRD config: which versions of its target can leave now
 * — be removed from {@code spec.versions} (neither served nor stored) or stop being served
 * (deprecated, nothing stored at it, and no review touched it within {@link
 * VersionLifecycle#RECENT}, by reports of the serving replicas that cover at least that long) — and
 * what holds back the others on their way out. Absent while no version is on its way out (none is
 * deprecated, unserved, or stored besides the storage version). Pure: the caller hands it the
 * lifecycle and the time.
 */
public final class RetirementCondition {
  public static final String READY = "VersionsRetirable";
  public static final String STORED = "StorageMigrationNeeded";
  public static final String IN_USE = "VersionInUse";
  public static final String USE_UNKNOWN = "UseUnknown";

  /**
   * While the condition says a version can stop being served, it is looked at again this often, so
   * that a client that starts using the version again shows within this bound.
   */
  public static final Duration RECHECK = Duration.ofMinutes(5);

  /**
   * @param check the condition
   * @param recheckIn when the condition may change by time alone (a use ages out, or a stoppable
   *     version is looked at again)
   */
  public record Result(Check check, Optional<Duration> recheckIn) {}

  private RetirementCondition() {}

  public static Optional<Result> of(VersionLifecycle lifecycle, Instant now) {
    var storage =
        lifecycle.versions().stream().filter(VersionLifecycle.Version::storage).findFirst();
    if (storage.isEmpty()) {
      return Optional.empty();
    }
    var removable = new ArrayList<String>();
    var stoppable = new ArrayList<String>();
    var held = new ArrayList<String>();
    String firstHold = null;
    Duration recheck = null;
    for (var v : lifecycle.versions()) {
      if (v.storage()) {
        continue;
      }
      if (v.stored()) {
        held.add(
            v.name()
                + ": objects may still be stored at it (status.storedVersions lists it); re-store"
                + " them at "
                + storage.get().name()
                + " first (condition StorageMigrated)");
        firstHold = firstHold == null ? STORED : firstHold;
      } else if (!v.served()) {
        removable.add(
            v.name()
                + " (neither served nor stored): remove it from spec.versions"
                + (v.converted() ? ", then its spoke from the config" : ""));
      } else if (v.deprecated()) {
        if (lifecycle.reviewsSince() == null) {
          held.add(
              v.name()
                  + ": no serving webhook replica reports which versions its reviews touch, so"
                  + " whether a client still reads or writes it is not known");
          firstHold = firstHold == null ? USE_UNKNOWN : firstHold;
        } else if (v.lastReviewed() != null
            && !v.lastReviewed().isBefore(now.minus(VersionLifecycle.RECENT))) {
          held.add(
              v.name()
                  + ": a review touched it within the last hour, so a client still reads or writes"
                  + " it");
          firstHold = firstHold == null ? IN_USE : firstHold;
          recheck =
              earlier(
                  recheck,
                  Duration.between(now, v.lastReviewed().plus(VersionLifecycle.RECENT))
                      .plusSeconds(1));
        } else if (!lifecycle.reviewsComplete()) {
          held.add(
              v.name()
                  + ": a webhook replica that serves the target reports nothing of its reviews (an"
                  + " older release) or left the target out of its report, so whether a client"
                  + " still reads or writes it is not known");
          firstHold = firstHold == null ? USE_UNKNOWN : firstHold;
        } else if (lifecycle.reviewsSince().isAfter(now.minus(VersionLifecycle.RECENT))) {
          held.add(
              v.name()
                  + ": the serving webhook replicas have seen every review of it only since "
                  + lifecycle.reviewsSince()
                  + " (a replica or the target's service there started then), less than an hour");
          firstHold = firstHold == null ? USE_UNKNOWN : firstHold;
          recheck =
              earlier(
                  recheck,
                  Duration.between(now, lifecycle.reviewsSince().plus(VersionLifecycle.RECENT))
                      .plusSeconds(1));
        } else {
          stoppable.add(
              v.name()
                  + " (deprecated, nothing stored at it, no review touched it "
                  + (v.lastReviewed() == null
                      ? "since " + lifecycle.reviewsSince()
                      : "after " + v.lastReviewed())
                  + "): set served: false");
          recheck = earlier(recheck, RECHECK);
        }
      }
    }
    if (removable.isEmpty() && stoppable.isEmpty() && held.isEmpty()) {
      return Optional.empty();
    }
    var message = new StringBuilder();
    sentence(message, "Can be removed now: ", removable);
    sentence(message, "Can stop being served now: ", stoppable);
    sentence(message, "Not yet: ", held);
    boolean ready = !removable.isEmpty() || !stoppable.isEmpty();
    return Optional.of(
        new Result(
            new Check(ready, ready ? READY : firstHold, message.toString()),
            Optional.ofNullable(recheck)));
  }

  private static void sentence(StringBuilder out, String head, List<String> parts) {
    if (parts.isEmpty()) {
      return;
    }
    out.append(out.isEmpty() ? "" : " ").append(head).append(String.join("; ", parts)).append('.');
  }

  private static Duration earlier(Duration a, Duration b) {
    return a == null || b.compareTo(a) < 0 ? b : a;
  }
}
