package dev.versio.operator.config;

import dev.versio.api.config.ConversionConfigSpec;
import dev.versio.api.config.ConversionConfigStatus;
import dev.versio.api.config.StorageMigrationStatus;
import dev.versio.operator.migrate.MigrationCondition;
import dev.versio.operator.migrate.MigrationDecision.Phases;
import dev.versio.operator.migrate.MigrationTarget;
import dev.versio.operator.migrate.StorageMigrations;
import dev.versio.operator.status.Conditions;
import dev.versio.operator.status.Phase;
import dev.versio.operator.write.ClusterWriter;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.time.Instant;
import java.util.Objects;

/**
 * The last step of a config's reconcile: starts, continues or cancels the target's storage
 * migration, folds its progress into the status about to be written ({@code
 * status.storageMigration} and the {@code StorageMigrated} condition) and announces a change of its
 * phase as an Event.
 */
final class StorageMigrationStep {
  private final StorageMigrations migrations;
  private final ClusterWriter writer;

  StorageMigrationStep(StorageMigrations migrations, ClusterWriter writer) {
    this.migrations = migrations;
    this.writer = writer;
  }

  /**
   * @param previous the status as last written
   * @param next the status this reconcile writes (changed here)
   * @param stored the CRDs to re-store as this reconcile found them, or null when it found none
   */
  void fold(
      HasMetadata config,
      ConversionConfigSpec spec,
      ConversionConfigStatus previous,
      ConversionConfigStatus next,
      MigrationTarget stored,
      long generation,
      Instant now) {
    if (spec == null || stored == null) {
      return;
    }
    boolean applied = Phase.of(next.phase) == Phase.APPLIED;
    var before = previous == null ? null : previous.storageMigration;
    next.storageMigration =
        migrations.observe(
            config,
            spec.storageMigration,
            before,
            stored,
            applied,
            write -> writer.whileOwning(config, write));
    MigrationCondition.of(stored, next.storageMigration, spec.storageMigration, applied)
        .ifPresentOrElse(
            check ->
                Conditions.set(
                    next.conditions,
                    Conditions.STORAGE_MIGRATED,
                    check.ok(),
                    check.reason(),
                    check.message(),
                    generation,
                    now),
            () -> Conditions.remove(next.conditions, Conditions.STORAGE_MIGRATED));
    announce(config, before, next.storageMigration);
  }

  /** Stops the migration of a config being deleted. */
  void forget(String config) {
    migrations.forget(config);
  }

  private void announce(
      HasMetadata config, StorageMigrationStatus before, StorageMigrationStatus after) {
    if (after == null) {
      return;
    }
    boolean sameRun = before != null && Objects.equals(before.startedAt, after.startedAt);
    boolean resumedHere =
        sameRun && !Objects.equals(before.resumed, after.resumed) && after.resumed != null;
    if (sameRun && Objects.equals(before.phase, after.phase) && !resumedHere) {
      return;
    }
    switch (after.phase) {
      case Phases.RUNNING, Phases.PRUNING ->
          writer.event(
              config,
              false,
              "StorageMigration" + (resumedHere ? "Continued" : "Started"),
              after.message);
      case Phases.SUCCEEDED -> writer.event(config, false, "StorageMigrated", after.message);
      case Phases.FAILED -> writer.event(config, true, "StorageMigrationFailed", after.message);
      case Phases.CANCELLED ->
          writer.event(config, false, "StorageMigrationCancelled", after.message);
      default -> {}
    }
  }
}
