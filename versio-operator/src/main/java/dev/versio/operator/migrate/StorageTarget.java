package dev.versio.operator.migrate;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A CRD as a storage migration needs it: its storage version, the versions objects may still be
 * stored at, and how to reach the objects at the storage version.
 *
 * @param storedVersions {@code status.storedVersions} as the apiserver reports it
 * @param revision {@code <metadata.uid>/<metadata.generation>} of the CRD: a storage version
 *     change, or a CRD deleted and created again, makes another one; a status write does not
 */
public record StorageTarget(
    String name,
    String group,
    String kind,
    String plural,
    boolean namespaced,
    String storageVersion,
    List<String> storedVersions,
    String revision) {
  public StorageTarget {
    storedVersions = List.copyOf(storedVersions);
  }

  /** Reads a CRD's JSON; empty when it marks no version as storage. */
  public static Optional<StorageTarget> of(JsonNode crd) {
    String storage = null;
    for (var version : crd.path("spec").path("versions")) {
      if (version.path("storage").asBoolean(false)) {
        storage = version.path("name").asText();
      }
    }
    if (storage == null) {
      return Optional.empty();
    }
    var stored = new ArrayList<String>();
    for (var version : crd.path("status").path("storedVersions")) {
      stored.add(version.asText());
    }
    var spec = crd.path("spec");
    return Optional.of(
        new StorageTarget(
            crd.path("metadata").path("name").asText(),
            spec.path("group").asText(),
            spec.path("names").path("kind").asText(),
            spec.path("names").path("plural").asText(),
            "Namespaced".equals(spec.path("scope").asText()),
            storage,
            stored,
            crd.path("metadata").path("uid").asText()
                + "/"
                + crd.path("metadata").path("generation").asLong()));
  }

  /**
   * Whether objects may still be stored at a version other than the storage version: {@code
   * storedVersions} lists one.
   */
  public boolean needsMigration() {
    return storedVersions.stream().anyMatch(v -> !v.equals(storageVersion));
  }

  /** The versions besides the storage version that {@code storedVersions} lists. */
  public List<String> olderStoredVersions() {
    return storedVersions.stream().filter(v -> !v.equals(storageVersion)).toList();
  }

  /** The objects' API at the storage version. */
  public ResourceDefinitionContext storageContext() {
    return new ResourceDefinitionContext.Builder()
        .withGroup(group)
        .withVersion(storageVersion)
        .withKind(kind)
        .withPlural(plural)
        .withNamespaced(namespaced)
        .build();
  }
}
