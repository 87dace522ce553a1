package dev.versio.operator.migrate;

import dev.versio.api.config.StorageMigrationSpec;
import dev.versio.api.config.StorageMigrationStatus;
import dev.versio.operator.migrate.MigrationDecision.Phases;
import dev.versio.operator.status.Observation.Check;
import java.util.Optional;

/**
 * The {@code StorageMigrated} condition of a config: whether every object of the target (an XRD's:
 * of the CRDs generated from it) is stored at its storage version (so older versions can be
 * removed), and if not, what is under way or what to do. Absent while {@code storedVersions} lists
 * only the storage version and no run was ever made.
 */
public final class MigrationCondition {
  private MigrationCondition() {}

  public static Optional<Check> of(
      MigrationTarget target,
      StorageMigrationStatus migration,
      StorageMigrationSpec spec,
      boolean applied) {
    var phase = migration == null ? null : migration.phase;
    if (phase != null && MigrationDecision.UNDER_WAY.contains(phase)) {
      return Optional.of(new Check(false, Phases.RUNNING, migration.message));
    }
    if (Phases.FAILED.equals(phase) && target.needsMigration()) {
      return Optional.of(new Check(false, Phases.FAILED, migration.message));
    }
    if (target.needsMigration()) {
      var older = String.join(", ", target.olderStoredVersions());
      var what =
          target.storedVersionsText()
              + ": objects may still be stored at "
              + older
              + ", so "
              + older
              + " cannot be removed from the CRD yet. ";
      boolean automatic = spec != null && spec.automatic();
      String todo;
      if (!applied) {
        todo = "A migration starts once the config is Applied.";
      } else if (target.notReady() != null) {
        todo = "No migration starts yet: " + target.notReady() + ".";
      } else if (automatic && !Phases.CANCELLED.equals(phase)) {
        todo = "A migration starts now.";
      } else {
        todo =
            "Annotate the config "
                + StorageMigrationSpec.REQUEST_ANNOTATION
                + "=<a new value> to re-store every object at "
                + target.storageVersion()
                + " once (or set spec.storageMigration.policy: Automatic).";
      }
      return Optional.of(
          new Check(
              false,
              Phases.CANCELLED.equals(phase) ? Phases.CANCELLED : "MigrationNeeded",
              what + todo));
    }
    if (migration == null) {
      return Optional.empty();
    }
    return Optional.of(
        new Check(
            true,
            "OnlyStorageVersionStored",
            "status.storedVersions"
                + (target.crds().size() > 1
                    ? " of crd/" + target.name().replace(", ", " and crd/")
                    : "")
                + " lists only "
                + target.storageVersion()
                + (Phases.SUCCEEDED.equals(phase) ? "; last run: " + migration.message : "")));
  }
}
