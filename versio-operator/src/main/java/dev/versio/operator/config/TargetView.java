package dev.versio.operator.config;

import com.fasterxml.jackson.databind.JsonNode;
import dev.versio.engine.json.EngineJson;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A config's target (CRD or XRD) as the gates need it.
 *
 * @param name {@code metadata.name}
 * @param generation {@code metadata.generation}
 * @param json the whole object, for the schema adapters
 * @param established the Established condition is True
 * @param versionsInUse the versions objects are read at or still stored at: every version with
 *     {@code served: true}, then every other one {@code status.storedVersions} lists (the apiserver
 *     reads objects stored at such a version and converts them, served or not); with more than one,
 *     strategy {@code None} would hand out unconverted objects
 * @param annotations {@code metadata.annotations} (never null)
 * @param managedByOperator whether the operator's field manager owns fields of it through apply
 */
public record TargetView(
    String name,
    long generation,
    JsonNode json,
    boolean established,
    List<String> versionsInUse,
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
    versionsInUse = List.copyOf(versionsInUse);
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
    var inUse = new LinkedHashSet<String>();
    for (var version : json.path("spec").path("versions")) {
      if (version.path("served").asBoolean(true)) {
        inUse.add(version.path("name").asText());
      }
    }
    for (var stored : json.path("status").path("storedVersions")) {
      if (stored.isTextual()) {
        inUse.add(stored.asText());
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
        List.copyOf(inUse),
        meta.getAnnotations(),
        managed);
  }

  /**
   * This view with {@code versions} also in use (an XRD's: the versions the CRDs Crossplane
   * generated from it list in {@code storedVersions}, whose objects the XRD's conversion reads).
   */
  public TargetView alsoInUse(java.util.Collection<String> versions) {
    var inUse = new LinkedHashSet<>(versionsInUse);
    inUse.addAll(versions);
    return new TargetView(
        name, generation, json, established, List.copyOf(inUse), annotations, managedByOperator);
  }

  /** {@code spec.conversion} as it is now (a missing node when unset). */
  public JsonNode conversion() {
    return json.path("spec").path("conversion");
  }
}
