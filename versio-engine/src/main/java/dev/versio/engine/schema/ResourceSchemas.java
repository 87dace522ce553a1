package dev.versio.engine.schema;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * {@link SchemaSource} adapters over the JSON of a native CRD ({@code apiextensions.k8s.io/v1}) and
 * of a Crossplane v2 XRD ({@code apiextensions.crossplane.io/v2}). They read plain Jackson trees,
 * so the CLI (files) and the operator/webhook (objects from the API, serialized by the client)
 * share one adapter and the engine needs no Kubernetes client types.
 */
public final class ResourceSchemas {
  private ResourceSchemas() {}

  /**
   * Reads a CRD: {@code spec.versions[].{name, served, storage, schema.openAPIV3Schema}} and {@code
   * status.storedVersions}.
   */
  public static SchemaSource crd(JsonNode crd) {
    requireKind(crd, "CustomResourceDefinition", "apiextensions.k8s.io/");
    var stored = new ArrayList<String>();
    for (var version : crd.path("status").path("storedVersions")) {
      if (version.isTextual()) {
        stored.add(version.asText());
      }
    }
    return source(
        "CRD " + crd.path("metadata").path("name").asText("?"), versions(crd, "storage"), stored);
  }

  /**
   * Reads a Crossplane XRD: {@code spec.versions[].{name, served, referenceable,
   * schema.openAPIV3Schema}}; the referenceable version is the storage version.
   */
  public static SchemaSource xrd(JsonNode xrd) {
    requireKind(xrd, "CompositeResourceDefinition", "apiextensions.crossplane.io/");
    return source(
        "XRD " + xrd.path("metadata").path("name").asText("?"),
        versions(xrd, "referenceable"),
        List.of());
  }

  /** The API group the resource's objects use ({@code spec.group}). */
  public static String group(JsonNode definition) {
    return definition.path("spec").path("group").asText("");
  }

  private static void requireKind(JsonNode node, String kind, String apiVersionPrefix) {
    if (node == null || !node.isObject()) {
      throw new IllegalArgumentException("expected a " + kind + " object");
    }
    var actualKind = node.path("kind").asText("");
    var apiVersion = node.path("apiVersion").asText("");
    if (!actualKind.equals(kind) || !apiVersion.startsWith(apiVersionPrefix)) {
      throw new IllegalArgumentException(
          "expected a "
              + kind
              + " ("
              + apiVersionPrefix
              + "*), found "
              + (actualKind.isEmpty() ? "no kind" : actualKind)
              + (apiVersion.isEmpty() ? "" : " (" + apiVersion + ")"));
    }
    if (!node.path("spec").path("versions").isArray()) {
      throw new IllegalArgumentException(
          kind + " " + node.path("metadata").path("name").asText("?") + " has no spec.versions");
    }
  }

  private static List<VersionSchema> versions(JsonNode definition, String storageFlag) {
    var out = new ArrayList<VersionSchema>();
    for (var v : definition.path("spec").path("versions")) {
      var schema = v.path("schema").path("openAPIV3Schema");
      out.add(
          new VersionSchema(
              v.path("name").asText(),
              v.path("served").asBoolean(false),
              v.path(storageFlag).asBoolean(false),
              schema.isMissingNode() ? SchemaNode.empty() : SchemaNode.parse(schema)));
    }
    return out;
  }

  private static SchemaSource source(
      String description, List<VersionSchema> versions, List<String> storedVersions) {
    var copy = List.copyOf(versions);
    var stored = List.copyOf(storedVersions);
    return new SchemaSource() {
      @Override
      public List<VersionSchema> versions() {
        return copy;
      }

      @Override
      public List<String> storedVersions() {
        return stored;
      }

      @Override
      public String describe() {
        return description;
      }
    };
  }
}
