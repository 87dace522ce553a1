package dev.versio.operator.server;

import dev.versio.api.server.ConversionWebhookServerStatus;
import dev.versio.api.server.ConversionWebhookServerStatus.AssignedConfig;
import dev.versio.operator.status.Conditions;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** A server's next status from what its reconcile observed. Pure. */
public final class ServerStatusPolicy {
  public static final String AVAILABLE = "Available";
  public static final String CERTIFICATE_READY = "CertificateReady";
  public static final String SERVICE_READY = "ServiceReady";
  public static final String DEFAULT_CONFLICT = "DefaultConflict";
  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  private ServerStatusPolicy() {}

  public static ConversionWebhookServerStatus next(
      ConversionWebhookServerStatus previous,
      boolean isDefault,
      String name,
      long generation,
      ServerObservation observation,
      Instant now) {
    var status = copy(previous);
    status.observedGeneration = generation;
    var conditions = status.conditions;
    set(conditions, AVAILABLE, observation.available(), generation, now);
    set(conditions, CERTIFICATE_READY, observation.certificateReady(), generation, now);
    set(conditions, SERVICE_READY, observation.serviceReady(), generation, now);
    if (isDefault && !observation.otherDefaults().isEmpty()) {
      var all = new ArrayList<>(observation.otherDefaults());
      all.add(name);
      all.sort(null);
      Conditions.set(
          conditions,
          DEFAULT_CONFLICT,
          true,
          "MultipleDefaults",
          "several servers are marked default ("
              + String.join(", ", all)
              + "); configs without webhookServerRef resolve to none until exactly one is",
          generation,
          now);
    } else {
      Conditions.remove(conditions, DEFAULT_CONFLICT);
    }
    status.replicas = observation.replicas();
    status.readyReplicas = observation.readyReplicas();
    status.endpoint = observation.endpoint();
    var assigned = new ArrayList<>(observation.assignedConfigs());
    assigned.sort(Comparator.comparing((AssignedConfig c) -> c.name).thenComparing(c -> c.kind));
    status.assignedConfigs = assigned;
    status.servedTargets = observation.served().servedTargets();
    status.reportingReplicas = observation.served().reportingReplicas();
    status.servedTargetCount = status.servedTargets.size();
    status.assignedConfigCount = status.assignedConfigs.size();
    return status;
  }

  /** The status with {@code DeletionBlocked} set. */
  public static ConversionWebhookServerStatus deletionBlocked(
      ConversionWebhookServerStatus previous, long generation, String message, Instant now) {
    var status = copy(previous);
    Conditions.set(
        status.conditions,
        Conditions.DELETION_BLOCKED,
        true,
        "ConfigsStillAssigned",
        message,
        generation,
        now);
    return status;
  }

  private static void set(
      List<io.fabric8.kubernetes.api.model.Condition> conditions,
      String type,
      ServerObservation.Check check,
      long generation,
      Instant now) {
    Conditions.set(conditions, type, check.ok(), check.reason(), check.message(), generation, now);
  }

  private static ConversionWebhookServerStatus copy(ConversionWebhookServerStatus previous) {
    if (previous == null) {
      return new ConversionWebhookServerStatus();
    }
    var copy = SERIALIZATION.clone(previous);
    if (copy.conditions == null) {
      copy.conditions = new ArrayList<>();
    }
    return copy;
  }
}
