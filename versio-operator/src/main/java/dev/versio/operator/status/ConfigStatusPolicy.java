package dev.versio.operator.status;

import dev.versio.api.config.ConversionConfigStatus;
import dev.versio.operator.gate.HandoverVerdict;
import dev.versio.operator.status.Observation.Outcome;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The phase and drift rules of a config, as a pure function: (previous status, what this reconcile
 * observed, drift policy) → next status and the phase change to announce. No client in here.
 *
 * <p>Invariants: an invalid config is never applied; a config that was applied keeps its target
 * pointed at the last good server (phase Stale) unless the user chose FailClosed and the analysis
 * found errors, in which case the target is reverted to {@code strategy: None} (phase Failed).
 */
public final class ConfigStatusPolicy {
  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  /** {@code spec.driftPolicy}. */
  public enum DriftPolicy {
    KEEP_SERVING_STALE,
    FAIL_CLOSED;

    public static DriftPolicy of(String text) {
      return "FailClosed".equals(text) ? FAIL_CLOSED : KEEP_SERVING_STALE;
    }
  }

  /** A phase change to count and announce as an Event. */
  public record PhaseChange(Phase from, Phase to, String reason, String message) {
    public PhaseChange {
      Objects.requireNonNull(to, "to");
      Objects.requireNonNull(reason, "reason");
    }

    /** Events of phases that need attention are Warnings. */
    public boolean warning() {
      return to == Phase.INVALID || to == Phase.STALE || to == Phase.FAILED;
    }
  }

  /** The next status and, if the phase changed, the change. */
  public record Decision(ConversionConfigStatus status, Optional<PhaseChange> change) {}

  private ConfigStatusPolicy() {}

  /** Whether the target points at a webhook that this config put there. */
  public static boolean wasApplied(ConversionConfigStatus previous) {
    var phase = previous == null ? null : Phase.of(previous.phase);
    return phase == Phase.APPLIED || phase == Phase.STALE;
  }

  /**
   * Whether a FailClosed config whose analysis failed must revert its target now: it was applied
   * (Applied or Stale), or an earlier revert failed.
   */
  public static boolean shouldRevert(ConversionConfigStatus previous, DriftPolicy policy) {
    if (policy != DriftPolicy.FAIL_CLOSED || previous == null) {
      return false;
    }
    return wasApplied(previous) || revertFailedBefore(previous) || failingClosed(previous);
  }

  /**
   * Whether a FailClosed config kept its webhook on a target that serves several versions, whose
   * replicas refuse every conversion of it: the target still points at the webhook.
   */
  public static boolean failingClosed(ConversionConfigStatus previous) {
    return failedWith(previous, FAILING_CLOSED_REASON);
  }

  /** The Applied reason of a FailClosed config that kept its webhook. */
  public static final String FAILING_CLOSED_REASON = "FailingClosed";

  private static boolean revertFailedBefore(ConversionConfigStatus previous) {
    return failedWith(previous, "RevertFailed");
  }

  /** Whether {@code previous} is Failed with {@code reason} on its Applied condition. */
  private static boolean failedWith(ConversionConfigStatus previous, String reason) {
    return previous != null
        && Phase.of(previous.phase) == Phase.FAILED
        && Conditions.find(previous.conditions, Conditions.APPLIED)
            .map(c -> reason.equals(c.getReason()))
            .orElse(false);
  }

  /** The status after {@code observation}, starting from {@code previous} (not modified). */
  public static Decision next(
      ConversionConfigStatus previous, Observation observation, Instant now) {
    var status = copy(previous);
    long generation = observation.generation();
    status.observedGeneration = generation;
    if (observation.targetGeneration() != null) {
      status.observedTargetGeneration = observation.targetGeneration();
    }
    var analysis = observation.analysis();
    if (analysis != null) {
      status.spokeStatuses = new ArrayList<>(analysis.spokes());
      status.overallLossless = analysis.overallLossless();
      status.schemaHash = analysis.schemaHash();
    }
    if (observation.assignedServer() != null) {
      status.assignedWebhookServer = observation.assignedServer();
    }
    var conditions = status.conditions;
    if (observation.targetHealth() != null) {
      var check = observation.targetHealth();
      Conditions.set(
          conditions,
          Conditions.TARGET_HEALTHY,
          check.ok(),
          check.reason(),
          check.message(),
          generation,
          now);
    }
    if (observation.serverHealth() != null) {
      var check = observation.serverHealth();
      Conditions.set(
          conditions,
          Conditions.WEBHOOK_SERVER_READY,
          check.ok(),
          check.reason(),
          check.message(),
          generation,
          now);
    }
    handover(conditions, observation.handover(), generation, now);
    boolean applied = wasApplied(previous);
    Phase to;
    String reason;
    switch (observation.outcome()) {
      case Outcome.Invalid invalid -> {
        Conditions.set(
            conditions, Conditions.VALIDATED, false, "Invalid", invalid.message(), generation, now);
        if (applied) {
          to = Phase.STALE;
          reason = "PostApplyInvalid";
          Conditions.set(
              conditions,
              Conditions.STALE,
              true,
              reason,
              "the target keeps the last applied conversion: " + invalid.message(),
              generation,
              now);
        } else {
          to = Phase.INVALID;
          reason = invalid.cause().reason();
          Conditions.remove(conditions, Conditions.STALE);
        }
      }
      case Outcome.ValidationFailed failed -> {
        Conditions.set(
            conditions,
            Conditions.VALIDATED,
            false,
            "ValidationFailed",
            failed.message(),
            generation,
            now);
        switch (failed.revert()) {
          case REVERTED -> {
            to = Phase.FAILED;
            reason = "Reverted";
            Conditions.set(
                conditions,
                Conditions.APPLIED,
                false,
                reason,
                "driftPolicy FailClosed: the target was reverted to strategy None",
                generation,
                now);
            Conditions.remove(conditions, Conditions.STALE);
          }
          case REVERT_FAILED -> {
            to = Phase.FAILED;
            reason = "RevertFailed";
            Conditions.set(
                conditions,
                Conditions.APPLIED,
                false,
                reason,
                "driftPolicy FailClosed: reverting the target to strategy None failed; retrying",
                generation,
                now);
            Conditions.remove(conditions, Conditions.STALE);
          }
          case FAILING_CLOSED -> {
            to = Phase.FAILED;
            reason = FAILING_CLOSED_REASON;
            Conditions.set(
                conditions,
                Conditions.APPLIED,
                false,
                reason,
                "driftPolicy FailClosed: the target serves several versions, so it keeps its"
                    + " webhook (strategy None would hand out unconverted objects) and every"
                    + " conversion of it fails with the analysis error until the config fits the"
                    + " schema again",
                generation,
                now);
            Conditions.remove(conditions, Conditions.STALE);
          }
          case NOT_ATTEMPTED -> {
            if (previous != null
                && Phase.of(previous.phase) == Phase.FAILED
                && !revertFailedBefore(previous)) {
              // stays Failed while still invalid: the status keeps saying the target was reverted
              to = Phase.FAILED;
              reason = "Reverted";
              Conditions.remove(conditions, Conditions.STALE);
            } else if (applied || revertFailedBefore(previous)) {
              // (a failed revert left the webhook on the target: that is serving stale too)
              to = Phase.STALE;
              reason = "SchemaDrift";
              Conditions.set(
                  conditions,
                  Conditions.STALE,
                  true,
                  reason,
                  "driftPolicy KeepServingStale: the target keeps the last applied conversion",
                  generation,
                  now);
            } else {
              to = Phase.INVALID;
              reason = "ValidationFailed";
              Conditions.remove(conditions, Conditions.STALE);
            }
          }
          default -> throw new IllegalStateException("unknown revert " + failed.revert());
        }
      }
      case Outcome.Waiting waiting -> {
        Conditions.set(
            conditions,
            Conditions.VALIDATED,
            true,
            "Validated",
            "the rules compile against the live schema of the target",
            generation,
            now);
        reason = waiting.cause().reason();
        if (applied) {
          to = Phase.STALE;
          Conditions.set(
              conditions,
              Conditions.STALE,
              true,
              reason,
              "the target keeps the last applied conversion: " + waiting.message(),
              generation,
              now);
        } else {
          to = Phase.PENDING;
          Conditions.remove(conditions, Conditions.STALE);
        }
      }
      case Outcome.Applied done -> {
        Conditions.set(
            conditions,
            Conditions.VALIDATED,
            true,
            "Validated",
            "the rules compile against the live schema of the target",
            generation,
            now);
        Conditions.set(
            conditions, Conditions.APPLIED, true, "Applied", done.message(), generation, now);
        Conditions.remove(conditions, Conditions.STALE);
        status.webhookURL = done.webhookURL();
        status.webhookPath = done.webhookPath();
        if (observation.assignedServer() != null) {
          status.servedBy = observation.assignedServer();
        }
        status.lastAppliedPlanHash = status.schemaHash;
        to = Phase.APPLIED;
        reason = "Applied";
      }
    }
    Conditions.remove(conditions, Conditions.DELETION_BLOCKED);
    status.message = observation.outcome().message();
    var from = previous == null ? null : Phase.of(previous.phase);
    status.phase = to.text();
    return new Decision(
        status,
        from == to
            ? Optional.empty()
            : Optional.of(new PhaseChange(from, to, reason, observation.outcome().message())));
  }

  /**
   * {@code HandoverReady} after a judged move: True/HandoverReady (verified), Unknown/
   * HandoverUnverified (no report within the grace period: moved anyway, visibly), False/Waiting or
   * False/ReportUnreadable (held). Untouched when no move was judged, so the last move stays
   * visible.
   */
  private static void handover(
      List<io.fabric8.kubernetes.api.model.Condition> conditions,
      HandoverVerdict verdict,
      long generation,
      Instant now) {
    if (verdict == null) {
      return;
    }
    var type = Conditions.HANDOVER_READY;
    switch (verdict) {
      case HandoverVerdict.NotAMove n -> {}
      case HandoverVerdict.Ready r ->
          Conditions.set(conditions, type, "True", "HandoverReady", r.message(), generation, now);
      case HandoverVerdict.Unverified u ->
          Conditions.set(
              conditions, type, "Unknown", "HandoverUnverified", u.message(), generation, now);
      case HandoverVerdict.Waiting w ->
          Conditions.set(conditions, type, "False", "Waiting", w.message(), generation, now);
      case HandoverVerdict.Unreadable u ->
          Conditions.set(
              conditions, type, "False", "ReportUnreadable", u.message(), generation, now);
    }
  }

  /** The status with {@code DeletionBlocked} set (a blocked delete), otherwise unchanged. */
  public static ConversionConfigStatus deletionBlocked(
      ConversionConfigStatus previous, long generation, String message, Instant now) {
    var status = copy(previous);
    status.observedGeneration = generation;
    Conditions.set(
        status.conditions,
        Conditions.DELETION_BLOCKED,
        true,
        "MultipleServedVersions",
        message,
        generation,
        now);
    status.message = message;
    return status;
  }

  static ConversionConfigStatus copy(ConversionConfigStatus previous) {
    if (previous == null) {
      return new ConversionConfigStatus();
    }
    var copy = SERIALIZATION.clone(previous);
    if (copy.conditions == null) {
      copy.conditions = new ArrayList<Condition>();
    }
    if (copy.spokeStatuses == null) {
      copy.spokeStatuses = new ArrayList<>();
    }
    return copy;
  }
}
