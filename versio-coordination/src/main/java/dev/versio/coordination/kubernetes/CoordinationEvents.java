package dev.versio.coordination.kubernetes;

import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Warning Events on a replica's member Lease ({@code kubectl describe lease <group>-member-<id>},
 * {@code kubectl get events}): {@code ShardConfigMismatch} and {@code ShardUnowned}. Best effort: a
 * refused Event is logged, never retried, and never delays the lease loop (callers run it on the
 * notification thread).
 */
final class CoordinationEvents {
  private static final Logger LOG = LoggerFactory.getLogger(CoordinationEvents.class);

  private final KubernetesClient client;
  private final String namespace;
  private final String replicaId;
  private final Clock wallClock;

  CoordinationEvents(KubernetesClient client, String namespace, String replicaId, Clock wallClock) {
    this.client = client;
    this.namespace = namespace;
    this.replicaId = replicaId;
    this.wallClock = wallClock;
  }

  void warn(Lease memberLease, String reason, String message) {
    if (memberLease == null) {
      return;
    }
    var now = ZonedDateTime.now(wallClock).format(DateTimeFormatter.ISO_INSTANT);
    var event =
        new EventBuilder()
            .withNewMetadata()
            .withGenerateName(memberLease.getMetadata().getName() + "-")
            .endMetadata()
            .withInvolvedObject(
                new ObjectReferenceBuilder()
                    .withApiVersion("coordination.k8s.io/v1")
                    .withKind("Lease")
                    .withName(memberLease.getMetadata().getName())
                    .withNamespace(namespace)
                    .withUid(memberLease.getMetadata().getUid())
                    .build())
            .withType("Warning")
            .withReason(reason)
            .withMessage(message)
            .withNewSource()
            .withComponent("versio-coordination")
            .withHost(replicaId)
            .endSource()
            .withFirstTimestamp(now)
            .withLastTimestamp(now)
            .withCount(1)
            .build();
    try {
      client.v1().events().inNamespace(namespace).resource(event).create();
    } catch (KubernetesClientException e) {
      LOG.warn("could not record Event {} ({}): {}", reason, message, e.getMessage());
    }
  }
}
