package dev.versio.operator.migrate;

import dev.versio.api.config.StorageMigrationSpec;
import dev.versio.api.config.StorageMigrationStatus;
import java.util.Set;

/**
 * Whether a reconcile of a config starts, continues, cancels or leaves its target's storage
 * migration, as a pure function of what it observed (no client, no clock).
 */
public sealed interface MigrationDecision {
  /**
   * Starts a run from the first page; {@code request} is the annotation value that asked, if any.
   */
  record Start(String request) implements MigrationDecision {}

  /**
   * Continues the run that {@code from} records (another replica, or this one before a restart).
   */
  record Resume(StorageMigrationStatus from) implements MigrationDecision {}

  /** Stops the running one; what was migrated stays, {@code storedVersions} is left alone. */
  record Cancel() implements MigrationDecision {}

  /**
   * Stops the run here without ending it: the config is no longer Applied, or a CRD to re-store no
   * longer carries the conversion ({@code why}). It stays under way at its last recorded page and
   * continues once that is resolved; a write made meanwhile could store an object unconverted.
   */
  record Pause(String why) implements MigrationDecision {}

  /** Nothing to start or stop. */
  record Keep() implements MigrationDecision {}

  /** Phases in which a run is under way (recorded by a replica that may have stopped since). */
  Set<String> UNDER_WAY = Set.of(Phases.RUNNING, Phases.PRUNING);

  /** The phase names of {@code status.storageMigration.phase}. */
  final class Phases {
    public static final String RUNNING = "Running";
    public static final String PRUNING = "Pruning";
    public static final String SUCCEEDED = "Succeeded";
    public static final String FAILED = "Failed";
    public static final String CANCELLED = "Cancelled";

    private Phases() {}
  }

  /**
   * @param spec {@code spec.storageMigration} (null: Manual with the defaults)
   * @param request the config's {@value StorageMigrationSpec#REQUEST_ANNOTATION} annotation, or
   *     null
   * @param previous {@code status.storageMigration} as last written, or null
   * @param target the CRDs to re-store, as they are now
   * @param applied whether the config is Applied: its conversion serves every version in use
   * @param runningHere whether this replica runs (or queued) a migration of this config now; then
   *     {@code previous} is that run's state
   */
  static MigrationDecision decide(
      StorageMigrationSpec spec,
      String request,
      StorageMigrationStatus previous,
      MigrationTarget target,
      boolean applied,
      boolean runningHere) {
    boolean underWay = previous != null && UNDER_WAY.contains(previous.phase);
    if (StorageMigrationSpec.CANCEL.equals(request)) {
      return runningHere || underWay ? new Cancel() : new Keep();
    }
    if (runningHere) {
      // a run here goes on by itself, unless the storage version moved on: then it is worth nothing
      if (underWay && !target.storageVersion().equals(previous.storageVersion)) {
        return new Cancel();
      }
      if (!applied || target.notReady() != null) {
        return new Pause(
            target.notReady() != null
                ? target.notReady()
                : "the config is no longer Applied, so not every version in use converts");
      }
      return new Keep();
    }
    if (!applied || target.notReady() != null) {
      // without a converting webhook on every CRD to re-store, nothing starts or resumes
      return new Keep();
    }
    if (underWay) {
      // a run for an older storage version is worth nothing now: end it, then start afresh
      return target.storageVersion().equals(previous.storageVersion)
          ? new Resume(previous)
          : new Cancel();
    }
    boolean newRequest =
        request != null
            && !request.isBlank()
            && (previous == null || !request.equals(previous.request));
    if (newRequest) {
      return new Start(request);
    }
    boolean automatic = spec != null && spec.automatic();
    boolean gaveUp =
        previous != null
            && target.storageVersion().equals(previous.storageVersion)
            && (Phases.FAILED.equals(previous.phase) || Phases.CANCELLED.equals(previous.phase));
    // the run that just pruned storedVersions, seen through a view of the same CRDs from before
    // the prune (or between the prunes of an XRD's two CRDs): starting again would re-store every
    // object a second time. A storage version changed since (even back and forth), or a CRD
    // created anew, is another revision; a view from before lists no version the run did not see.
    boolean justPruned =
        previous != null
            && Phases.SUCCEEDED.equals(previous.phase)
            && target.revision().equals(previous.prunedCrd)
            && previous.storedVersionsBefore != null
            && previous.storedVersionsBefore.containsAll(target.storedVersions());
    if (automatic && target.needsMigration() && !gaveUp && !justPruned) {
      return new Start(null);
    }
    return new Keep();
  }
}
