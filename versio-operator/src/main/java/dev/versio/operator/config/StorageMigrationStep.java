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
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * The last step of a config's reconcile: starts, continues or cancels the target's storage
 * migration, folds its progress into the status about to be written ({@code
 * status.storageMigration} and the {@code StorageMigrated} condition) and announces a change of its
 * phase as an Event.
 */
final class StorageMigrationStep {
  /**
   * How long after the config became Applied a run may start: the apiserver takes up a CRD's new
   * {@code spec.conversion} a moment after it is written (about a second on the test control
   * plane), and an object re-stored before that is relabelled by the old strategy instead of
   * converted.
   */
  static final Duration SETTLE = Duration.ofSeconds(10);

  private final StorageMigrations migrations;
  private final ClusterWriter writer;

  StorageMigrationStep(StorageMigrations migrations, ClusterWriter writer) {
    this.migrations = migrations;
    this.writer = writer;
  }

  /**
   * @param previous the status as last written
   * @param next the status this reconcile writes (changed here)
   * @param found the CRDs to re-store as this reconcile found them, or null when it found none
   * @return how long until a run held back by {@link #SETTLE} may start, to look again then
   */
  Optional<Duration> fold(
      HasMetadata config,
      ConversionConfigSpec spec,
      ConversionConfigStatus previous,
      ConversionConfigStatus next,
      MigrationTarget found,
      long generation,
      Instant now) {
    if (spec == null || found == null) {
      return Optional.empty();
    }
    boolean applied = Phase.of(next.phase) == Phase.APPLIED;
    var settling = applied ? settling(next, now) : Optional.<Duration>empty();
    var stored =
        settling.isEmpty()
            ? found
            : found.notReadyBecause(
                "the conversion was applied less than "
                    + SETTLE.toSeconds()
                    + " s ago, and the apiserver takes it up a moment after it is written");
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
    return settling;
  }

  /**
   * How long until the config has been Applied for {@link #SETTLE}, by its {@code Applied}
   * condition; empty once it has (or when the condition has no time).
   */
  static Optional<Duration> settling(ConversionConfigStatus status, Instant now) {
    return Conditions.find(status.conditions, Conditions.APPLIED)
        .filter(c -> "True".equals(c.getStatus()) && c.getLastTransitionTime() != null)
        .flatMap(c -> since(c.getLastTransitionTime()))
        .map(since -> Duration.between(now, since.plus(SETTLE)))
        .filter(Duration::isPositive);
  }

  private static Optional<Instant> since(String time) {
    try {
      return Optional.of(Instant.parse(time));
    } catch (java.time.format.DateTimeParseException e) {
      return Optional
          .empty(); // written by this operator in ISO form; an odd one holds nothing back
    }
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
