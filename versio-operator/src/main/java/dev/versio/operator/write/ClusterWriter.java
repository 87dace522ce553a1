package dev.versio.operator.write;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.versio.operator.config.ConversionPatch;
import dev.versio.operator.metrics.OperatorMetrics;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.time.Clock;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every write the operator makes goes through here, and every one first asks the {@link WriteGate}
 * whether this replica may write now. Nothing in here decides what to write. Every request sent is
 * counted in {@code versio_operator_writes_total{kind=status|apply|event, result}}.
 */
public final class ClusterWriter {
  private static final Logger LOG = LoggerFactory.getLogger(ClusterWriter.class);
  private static final String EVENT_NAMESPACE = "default";

  private final KubernetesClient client;
  private final WriteGate gate;
  private final Clock clock;
  private final OperatorMetrics metrics;
  private final KubernetesSerialization serialization = new KubernetesSerialization();

  public ClusterWriter(
      KubernetesClient client, WriteGate gate, Clock clock, OperatorMetrics metrics) {
    this.client = client;
    this.gate = gate;
    this.clock = clock;
    this.metrics = metrics;
  }

  /** Thrown when the gate says this replica may not write {@code object} now. */
  public static final class NotPermitted extends RuntimeException {
    NotPermitted(HasMetadata object) {
      super(
          "this replica may not write "
              + object.getKind()
              + " "
              + object.getMetadata().getName()
              + " now (another replica owns it)");
    }
  }

  public boolean mayWrite(HasMetadata object) {
    return gate.mayWrite(object);
  }

  private void check(HasMetadata owner) {
    if (!gate.mayWrite(owner)) {
      throw new NotPermitted(owner);
    }
  }

  /**
   * Server-side applies {@code body} (field manager {@code versio-operator}, force) for {@code
   * owner}; returns the object as the apiserver stored it (its new generation included).
   */
  public GenericKubernetesResource apply(
      HasMetadata owner, ResourceDefinitionContext type, ObjectNode body) {
    check(owner);
    var resource = serialization.unmarshal(body.toString(), GenericKubernetesResource.class);
    boolean ok = false;
    try {
      var stored =
          client
              .genericKubernetesResources(type)
              .resource(resource)
              .fieldManager(ConversionPatch.FIELD_MANAGER)
              .forceConflicts()
              .serverSideApply();
      ok = true;
      return stored;
    } finally {
      metrics.write("apply", ok);
    }
  }

  /**
   * Sends the JSON Patch {@code patch} to the target {@code name} of {@code type} for {@code owner}
   * (field manager {@code versio-operator}): the end of a revert that apply could not finish (see
   * {@link ConversionPatch#webhookRemoval}). Counted as {@code kind="apply"}, like the apply it
   * completes; returns the object as the apiserver stored it.
   */
  public GenericKubernetesResource jsonPatch(
      HasMetadata owner, ResourceDefinitionContext type, String name, ArrayNode patch) {
    check(owner);
    var context = PatchContext.of(PatchType.JSON);
    context.setFieldManager(ConversionPatch.FIELD_MANAGER);
    boolean ok = false;
    try {
      var stored =
          client.genericKubernetesResources(type).withName(name).patch(context, patch.toString());
      ok = true;
      return stored;
    } finally {
      metrics.write("apply", ok);
    }
  }

  /**
   * The target {@code name} of {@code type} as the apiserver has it now (not the cache), or null
   * when it is gone. A read: not gated, not counted as a write.
   */
  public GenericKubernetesResource read(ResourceDefinitionContext type, String name) {
    return client.genericKubernetesResources(type).withName(name).get();
  }

  /**
   * Server-side applies {@code child} of {@code owner} (field manager {@code versio-operator},
   * force): the fields the operator sets are its own, any edit of them is taken back.
   */
  public void applyChild(HasMetadata owner, HasMetadata child) {
    check(owner);
    boolean ok = false;
    try {
      client
          .resource(child)
          .fieldManager(ConversionPatch.FIELD_MANAGER)
          .forceConflicts()
          .serverSideApply();
      ok = true;
    } finally {
      metrics.write("child", ok);
    }
  }

  /**
   * Creates or renews the TLS material {@code secret} keeps for {@code owner} (a write only when
   * the material is missing, invalid, or due for renewal; reads are not counted as writes).
   */
  public void ensureTlsSecret(
      HasMetadata owner,
      dev.versio.operator.tls.TlsSecret secret,
      String commonName,
      java.util.List<String> hosts) {
    check(owner);
    secret.ensure(commonName, hosts);
  }

  /** Deletes a child of {@code owner} that its spec no longer asks for (absent is fine). */
  public void deleteChild(
      HasMetadata owner, String apiVersion, String kind, String namespace, String name) {
    check(owner);
    boolean ok = false;
    try {
      client
          .genericKubernetesResources(apiVersion, kind)
          .inNamespace(namespace)
          .withName(name)
          .delete();
      ok = true;
    } finally {
      metrics.write("child", ok);
    }
  }

  /**
   * Replaces the whole status of {@code config} (a JSON Patch {@code add /status} on the status
   * subresource, so fields that were dropped disappear and no resourceVersion race is possible).
   */
  public void replaceStatus(HasMetadata config, Object status) {
    check(config);
    var patch =
        "[{\"op\":\"add\",\"path\":\"/status\",\"value\":" + serialization.asJson(status) + "}]";
    boolean ok = false;
    try {
      client
          .genericKubernetesResources(config.getApiVersion(), config.getKind())
          .withName(config.getMetadata().getName())
          .subresource("status")
          .patch(PatchContext.of(PatchType.JSON), patch);
      ok = true;
    } finally {
      metrics.write("status", ok);
    }
  }

  /** Records a Kubernetes Event about {@code object}; a failure is logged, never thrown. */
  public void event(HasMetadata object, boolean warning, String reason, String message) {
    if (!gate.mayWrite(object)) {
      return;
    }
    var now =
        DateTimeFormatter.ISO_INSTANT.format(
            clock.instant().truncatedTo(java.time.temporal.ChronoUnit.SECONDS));
    var meta = object.getMetadata();
    var namespace = meta.getNamespace() == null ? EVENT_NAMESPACE : meta.getNamespace();
    var event =
        new EventBuilder()
            .withNewMetadata()
            .withName(meta.getName() + "." + UUID.randomUUID().toString().substring(0, 8))
            .withNamespace(namespace)
            .endMetadata()
            .withInvolvedObject(
                new ObjectReferenceBuilder()
                    .withApiVersion(object.getApiVersion())
                    .withKind(object.getKind())
                    .withName(meta.getName())
                    .withNamespace(meta.getNamespace())
                    .withUid(meta.getUid())
                    .withResourceVersion(meta.getResourceVersion())
                    .build())
            .withType(warning ? "Warning" : "Normal")
            .withReason(reason)
            .withMessage(message.length() > 1000 ? message.substring(0, 1000) + "..." : message)
            .withFirstTimestamp(now)
            .withLastTimestamp(now)
            .withCount(1)
            .withNewSource()
            .withComponent(ConversionPatch.FIELD_MANAGER)
            .endSource()
            .withReportingComponent(ConversionPatch.FIELD_MANAGER)
            .build();
    try {
      client.v1().events().inNamespace(namespace).resource(event).create();
      metrics.write("event", true);
    } catch (KubernetesClientException e) {
      metrics.write("event", false);
      LOG.warn(
          "cannot record the {} event on {} {}: {}",
          reason,
          object.getKind().toLowerCase(Locale.ROOT),
          meta.getName(),
          e.getMessage());
    }
  }
}
