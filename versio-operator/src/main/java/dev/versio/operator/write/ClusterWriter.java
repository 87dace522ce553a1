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
 * Every write the operator makes goes through here, and every one runs inside {@link
 * WriteGate#writeAsOwner}: only while this replica owns the object's shard, with the shard kept
 * from being handed over until the request is answered, and stamped with the replica and ownership
 * epoch ({@link WriteStamp}). Nothing in here decides what to write. Every request sent is counted
 * in {@code versio_operator_writes_total{kind=status|apply|child|finalizer|event, result}}.
 */
public final class ClusterWriter {
  private static final Logger LOG = LoggerFactory.getLogger(ClusterWriter.class);
  private static final String EVENT_NAMESPACE = "default";

  /** The status field that records who wrote a status ({@link WriteStamp}). */
  public static final String STATUS_WRITTEN_BY = "writtenBy";

  private final KubernetesClient client;
  private final WriteGate gate;
  private final Clock clock;
  private final OperatorMetrics metrics;
  private final KubernetesSerialization serialization = new KubernetesSerialization();
  private final com.fasterxml.jackson.databind.ObjectMapper json =
      new com.fasterxml.jackson.databind.ObjectMapper();

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

  /**
   * Runs {@code write}, a write made for {@code owner} that carries no stamp (a storage migration
   * re-storing one object), only while this replica owns {@code owner}, holding the ownership for
   * as long as it runs (a handover waits for it); false, with nothing run, when it does not own it.
   */
  public boolean whileOwning(HasMetadata owner, Runnable write) {
    return gate.writeAsOwner(
            owner,
            stamp -> {
              write.run();
              return Boolean.TRUE;
            })
        .isPresent();
  }

  /** What a write returned, so that a write without a result is told apart from "not permitted". */
  private record Done<T>(T value) {}

  /** Runs {@code write} as the owner of {@code owner}; throws {@link NotPermitted} otherwise. */
  private <T> T asOwner(HasMetadata owner, java.util.function.Function<WriteStamp, T> write) {
    return gate.writeAsOwner(owner, stamp -> new Done<>(write.apply(stamp)))
        .orElseThrow(() -> new NotPermitted(owner))
        .value();
  }

  private static void stamp(ObjectNode body, WriteStamp stamp) {
    var metadata = body.with("metadata");
    metadata.with("annotations").put(WriteStamp.ANNOTATION, stamp.text());
  }

  private static void stamp(HasMetadata object, WriteStamp stamp) {
    var meta = object.getMetadata();
    var annotations =
        meta.getAnnotations() == null
            ? new java.util.LinkedHashMap<String, String>()
            : new java.util.LinkedHashMap<>(meta.getAnnotations());
    annotations.put(WriteStamp.ANNOTATION, stamp.text());
    meta.setAnnotations(annotations);
  }

  /**
   * Server-side applies {@code body} (field manager {@code versio-operator}, force) for {@code
   * owner}; returns the object as the apiserver stored it (its new generation included).
   */
  public GenericKubernetesResource apply(
      HasMetadata owner, ResourceDefinitionContext type, ObjectNode body) {
    return asOwner(
        owner,
        stamp -> {
          var stamped = body.deepCopy();
          stamp(stamped, stamp);
          var resource =
              serialization.unmarshal(stamped.toString(), GenericKubernetesResource.class);
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
        });
  }

  /**
   * Sends the JSON Patch {@code patch} to the target {@code name} of {@code type} for {@code owner}
   * (field manager {@code versio-operator}): the end of a revert that apply could not finish (see
   * {@link ConversionPatch#webhookRemoval}). Counted as {@code kind="apply"}, like the apply it
   * completes; returns the object as the apiserver stored it.
   */
  public GenericKubernetesResource jsonPatch(
      HasMetadata owner, ResourceDefinitionContext type, String name, ArrayNode patch) {
    return asOwner(
        owner,
        stamp -> {
          // the patch only runs on a target whose annotations name the config, so they exist
          var stamped = patch.deepCopy();
          stamped
              .addObject()
              .put("op", "add")
              .put("path", "/metadata/annotations/" + WriteStamp.ANNOTATION.replace("/", "~1"))
              .put("value", stamp.text());
          var context = PatchContext.of(PatchType.JSON);
          context.setFieldManager(ConversionPatch.FIELD_MANAGER);
          boolean ok = false;
          try {
            var stored =
                client
                    .genericKubernetesResources(type)
                    .resource(handle(apiVersion(type), type.getKind(), name))
                    .patch(context, stamped.toString());
            ok = true;
            return stored;
          } finally {
            metrics.write("apply", ok);
          }
        });
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
    applyChild(owner, child, ConversionPatch.FIELD_MANAGER);
  }

  /**
   * As above with a field manager of the owner's own, for a child several owners apply together
   * (each keeps its own owner reference in it).
   */
  public void applyChild(HasMetadata owner, HasMetadata child, String fieldManager) {
    asOwner(
        owner,
        stamp -> {
          stamp(child, stamp);
          boolean ok = false;
          try {
            client.resource(child).fieldManager(fieldManager).forceConflicts().serverSideApply();
            ok = true;
            return child;
          } finally {
            metrics.write("child", ok);
          }
        });
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
    asOwner(owner, stamp -> secret.stampedBy(stamp.text()).ensure(commonName, hosts));
  }

  /**
   * Deletes a child of {@code owner} that its spec no longer asks for (absent is fine). Gated like
   * every write; a delete carries no body, so it carries no stamp either.
   */
  public void deleteChild(
      HasMetadata owner, String apiVersion, String kind, String namespace, String name) {
    asOwner(
        owner,
        stamp -> {
          boolean ok = false;
          try {
            client
                .genericKubernetesResources(apiVersion, kind)
                .inNamespace(namespace)
                .withName(name)
                .delete();
            ok = true;
            return name;
          } finally {
            metrics.write("child", ok);
          }
        });
  }

  /**
   * Adds {@code finalizer} to {@code object} (a merge patch guarded by the object's
   * resourceVersion, so a concurrent change fails with a conflict and the reconcile is retried).
   */
  public void addFinalizer(HasMetadata object, String finalizer) {
    var finalizers = new java.util.ArrayList<>(object.getMetadata().getFinalizers());
    if (finalizers.contains(finalizer)) {
      return;
    }
    finalizers.add(finalizer);
    patchFinalizers(object, finalizers);
  }

  /** Removes {@code finalizer} from {@code object} (guarded like {@link #addFinalizer}). */
  public void removeFinalizer(HasMetadata object, String finalizer) {
    var finalizers = new java.util.ArrayList<>(object.getMetadata().getFinalizers());
    if (!finalizers.remove(finalizer)) {
      return;
    }
    patchFinalizers(object, finalizers);
  }

  private void patchFinalizers(HasMetadata object, java.util.List<String> finalizers) {
    asOwner(
        object,
        stamp -> {
          var patch = json.createObjectNode();
          var metadata = patch.putObject("metadata");
          metadata.put("resourceVersion", object.getMetadata().getResourceVersion());
          var list = metadata.putArray("finalizers");
          finalizers.forEach(list::add);
          metadata.putObject("annotations").put(WriteStamp.ANNOTATION, stamp.text());
          boolean ok = false;
          try {
            client
                .genericKubernetesResources(object.getApiVersion(), object.getKind())
                .resource(handle(object))
                .patch(PatchContext.of(PatchType.JSON_MERGE), patch.toString());
            ok = true;
            return finalizers;
          } finally {
            metrics.write("finalizer", ok);
          }
        });
  }

  /**
   * Replaces the whole status of {@code config} (a JSON Patch {@code add /status} on the status
   * subresource, so fields that were dropped disappear and no resourceVersion race is possible),
   * with {@code status.writtenBy} set to this replica's stamp.
   */
  public void replaceStatus(HasMetadata config, Object status) {
    asOwner(
        config,
        stamp -> {
          var value = statusTree(status);
          value.put(STATUS_WRITTEN_BY, stamp.text());
          var patch = "[{\"op\":\"add\",\"path\":\"/status\",\"value\":" + value + "}]";
          boolean ok = false;
          try {
            client
                .genericKubernetesResources(config.getApiVersion(), config.getKind())
                .resource(handle(config))
                .subresource("status")
                .patch(PatchContext.of(PatchType.JSON), patch);
            ok = true;
            return patch;
          } finally {
            metrics.write("status", ok);
          }
        });
  }

  /**
   * A stand-in that only names {@code object}: a patch sent through it goes straight out, where a
   * patch by name alone makes the client read the whole object from the apiserver first.
   */
  private static GenericKubernetesResource handle(HasMetadata object) {
    var handle = handle(object.getApiVersion(), object.getKind(), object.getMetadata().getName());
    handle.getMetadata().setNamespace(object.getMetadata().getNamespace());
    return handle;
  }

  private static String apiVersion(ResourceDefinitionContext type) {
    return type.getGroup() == null || type.getGroup().isEmpty()
        ? type.getVersion()
        : type.getGroup() + "/" + type.getVersion();
  }

  private static GenericKubernetesResource handle(String apiVersion, String kind, String name) {
    var handle = new GenericKubernetesResource();
    handle.setApiVersion(apiVersion);
    handle.setKind(kind);
    handle.setMetadata(
        new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName(name).build());
    return handle;
  }

  private ObjectNode statusTree(Object status) {
    try {
      return (ObjectNode) json.readTree(serialization.asJson(status));
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException("a status that does not serialize: " + e.getMessage(), e);
    }
  }

  /** Records a Kubernetes Event about {@code object}; a failure is logged, never thrown. */
  public void event(HasMetadata object, boolean warning, String reason, String message) {
    gate.writeAsOwner(
        object,
        stamp -> {
          recordEvent(object, warning, reason, message, stamp);
          return reason;
        });
  }

  private void recordEvent(
      HasMetadata object, boolean warning, String reason, String message, WriteStamp stamp) {
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
            .addToAnnotations(WriteStamp.ANNOTATION, stamp.text())
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
