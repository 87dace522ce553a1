package dev.versio.operator.status;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Optional;

/**
 * Condition bookkeeping in the Kubernetes convention: {@code lastTransitionTime} changes only when
 * the status flips; reason, message and observedGeneration follow the latest observation.
 */
public final class Conditions {
  public static final String VALIDATED = "Validated";
  public static final String TARGET_HEALTHY = "TargetHealthy";
  public static final String WEBHOOK_SERVER_READY = "WebhookServerReady";
  public static final String APPLIED = "Applied";
  public static final String STALE = "Stale";
  public static final String DELETION_BLOCKED = "DeletionBlocked";
  public static final String HANDOVER_READY = "HandoverReady";
  public static final String STORAGE_MIGRATED = "StorageMigrated";
  public static final String RETIREMENT_READY = "RetirementReady";

  private Conditions() {}

  /** Sets condition {@code type} in {@code conditions} (a mutable list). */
  public static void set(
      List<Condition> conditions,
      String type,
      boolean status,
      String reason,
      String message,
      long generation,
      Instant now) {
    set(conditions, type, status ? "True" : "False", reason, message, generation, now);
  }

  /** As {@link #set(List, String, boolean, String, String, long, Instant)}, also for Unknown. */
  public static void set(
      List<Condition> conditions,
      String type,
      String text,
      String reason,
      String message,
      long generation,
      Instant now) {
    var existing = find(conditions, type);
    var since =
        existing
            .filter(c -> text.equals(c.getStatus()) && c.getLastTransitionTime() != null)
            .map(Condition::getLastTransitionTime)
            .orElse(
                DateTimeFormatter.ISO_INSTANT.format(
                    now.truncatedTo(java.time.temporal.ChronoUnit.SECONDS)));
    var next =
        new ConditionBuilder()
            .withType(type)
            .withStatus(text)
            .withReason(reason)
            .withMessage(message)
            .withObservedGeneration(generation)
            .withLastTransitionTime(since)
            .build();
    existing.ifPresentOrElse(
        c -> conditions.set(conditions.indexOf(c), next), () -> conditions.add(next));
  }

  public static void remove(List<Condition> conditions, String type) {
    conditions.removeIf(c -> type.equals(c.getType()));
  }

  public static Optional<Condition> find(List<Condition> conditions, String type) {
    return conditions == null
        ? Optional.empty()
        : conditions.stream().filter(c -> type.equals(c.getType())).findFirst();
  }

  /** Whether condition {@code type} is True. */
  public static boolean isTrue(List<Condition> conditions, String type) {
    return find(conditions, type).map(c -> "True".equals(c.getStatus())).orElse(false);
  }
}
