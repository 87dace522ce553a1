package dev.versio.operator.server;

import dev.versio.api.served.ServedView;
import dev.versio.api.server.ConversionWebhookServerStatus.AssignedConfig;
import java.util.List;
import java.util.Objects;

/**
 * What one reconcile of a ConversionWebhookServer observed: the input of {@link
 * ServerStatusPolicy}.
 *
 * @param available the replicas answer (Deployment Available, or the URL answers)
 * @param certificateReady the serving certificate is present and valid
 * @param serviceReady the Service exists (always true in URL mode: there is none)
 * @param replicas replicas of the Deployment, or null in URL mode
 * @param readyReplicas ready replicas of the Deployment, or null in URL mode
 * @param endpoint where the server is reached
 * @param assignedConfigs every config the resolver assigns to the server
 * @param otherDefaults names of the other servers marked default (for DefaultConflict)
 * @param served what the server's live replicas report serving
 */
public record ServerObservation(
    Check available,
    Check certificateReady,
    Check serviceReady,
    Integer replicas,
    Integer readyReplicas,
    String endpoint,
    List<AssignedConfig> assignedConfigs,
    List<String> otherDefaults,
    ServedView served) {
  public ServerObservation {
    Objects.requireNonNull(available, "available");
    Objects.requireNonNull(certificateReady, "certificateReady");
    Objects.requireNonNull(serviceReady, "serviceReady");
    assignedConfigs = List.copyOf(assignedConfigs);
    otherDefaults = List.copyOf(otherDefaults);
    Objects.requireNonNull(served, "served");
  }

  /** One condition's verdict. */
  public record Check(boolean ok, String reason, String message) {}
}
