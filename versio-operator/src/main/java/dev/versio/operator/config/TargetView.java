package dev.versio.operator.config;

import com.fasterxml.jackson.databind.JsonNode;
import dev.versio.engine.json.EngineJson;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.Map;
import java.util.Objects;

/**
 * A config's target (CRD or XRD) as the gates need it.
 *
 * @param name {@code metadata.name}
 * @param generation {@code metadata.generation}
 * @param json the whole object, for the schema adapters
 * @param established the Established condition is True
 * @param servedVersions how many versions have {@code served: true}
 * @param annotations {@code metadata.annotations} (never null)
 * @param managedByOperator whether the operator's field manager owns fields of it through apply
 */
public record TargetView(
    String name,
    long generation,
    JsonNode json,
    boolean established,
    int servedVersions,
    Map<String, String> annotations,
    boolean managedByOperator) {
  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  /** Reads JSON text into trees with the engine's number settings (immutable, shared). */
  private static final com.fasterxml.jackson.databind.ObjectReader TREES =
      EngineJson.newMapper().reader();

  public TargetView {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(json, "json");
    annotations = annotations == null ? Map.of() : Map.copyOf(annotations);
  }

  /** Reads any CRD or XRD object. */
  public static TargetView of(HasMetadata object) {
    JsonNode json;
    try {
      json = TREES.readTree(SERIALIZATION.asJson(object));
    } catch (Exception e) {
      throw new IllegalStateException(
          "cannot read " + object.getMetadata().getName() + ": " + e.getMessage(), e);
    }
    boolean established = false;
    for (var condition : json.path("status").path("conditions")) {
      if ("Established".equals(condition.path("type").asText())
          && "True".equals(condition.path("status").asText())) {
        established = true;
      }
    }
    int served = 0;
    for (var version : json.path("spec").path("versions")) {
      if (version.path("served").asBoolean(true)) {
        served++;
      }
    }
    var meta = object.getMetadata();
    boolean managed =
        meta.getManagedFields() != null
            && meta.getManagedFields().stream()
                .anyMatch(
                    f ->
                        ConversionPatch.FIELD_MANAGER.equals(f.getManager())
                            && "Apply".equals(f.getOperation()));
    return new TargetView(
        meta.getName(),
        meta.getGeneration() == null ? 0 : meta.getGeneration(),
        json,
        established,
        served,
        meta.getAnnotations(),
        managed);
  }

  /** {@code spec.conversion} as it is now (a missing node when unset). */
  public JsonNode conversion() {
    return json.path("spec").path("conversion");
  }
}
