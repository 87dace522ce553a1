package dev.versio.api.crd;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.util.List;
import java.util.Optional;

/**
 * Crossplane's XRD API ({@code CompositeResourceDefinition}), named in full so that no discovery is
 * needed: when its CRD has just been created, discovery may not list it yet, and a lookup by
 * apiVersion and kind fails (an informer on this context retries until the API is served).
 *
 * <p>Which version Versio reads and writes XRDs at follows from the XRD API's own CRD ({@value
 * #CRD_NAME}): {@code v2} where it is served (Crossplane 2.x, which still serves {@code v1} beside
 * it), else {@code v1} (Crossplane 1.x) — from Crossplane 1.12 on, whose XRDs have {@code
 * spec.conversion} and copy it into the CRDs they generate (the XR's and the claim's). Crossplane
 * overwrites any other {@code spec.conversion} on those CRDs, so the XRD is the only place a
 * conversion webhook can be set.
 */
public final class XrdApi {
  public static final String GROUP = "apiextensions.crossplane.io";
  public static final String KIND = "CompositeResourceDefinition";
  public static final String PLURAL = "compositeresourcedefinitions";

  /** The version read where {@link #version} cannot tell (the API is not installed). */
  public static final String PREFERRED_VERSION = "v2";

  /** The name of the CRD that defines Crossplane's XRD API. */
  public static final String CRD_NAME = PLURAL + "." + GROUP;

  private XrdApi() {}

  /** {@code apiextensions.crossplane.io/<version>}. */
  public static String apiVersion(String version) {
    return GROUP + "/" + version;
  }

  /** XRDs at {@code version}. */
  public static ResourceDefinitionContext context(String version) {
    return new ResourceDefinitionContext.Builder()
        .withGroup(GROUP)
        .withVersion(version)
        .withKind(KIND)
        .withPlural(PLURAL)
        .withNamespaced(false)
        .build();
  }

  /**
   * The version of the XRD API that Versio uses where {@code xrdApiCrd} (the CRD {@value
   * #CRD_NAME}) defines it: {@code v2} when served, else {@code v1} when served and its schema
   * keeps {@code spec.conversion} (Crossplane 1.12 or later); empty when neither.
   */
  public static Optional<String> version(CustomResourceDefinition xrdApiCrd) {
    var versions = versions(xrdApiCrd);
    for (var v : versions) {
      if ("v2".equals(v.getName()) && Boolean.TRUE.equals(v.getServed())) {
        return Optional.of("v2");
      }
    }
    for (var v : versions) {
      if ("v1".equals(v.getName()) && Boolean.TRUE.equals(v.getServed()) && keepsConversion(v)) {
        return Optional.of("v1");
      }
    }
    return Optional.empty();
  }

  /**
   * Why Versio cannot work with the XRD API that {@code xrdApiCrd} defines, or empty when {@link
   * #version} finds one to use. Crossplane 1.0–1.11 serve {@code v1} (1.0–1.5 also {@code v1beta1})
   * without {@code spec.conversion}: the apiserver drops the field from every XRD, and Crossplane
   * overwrites any conversion set on the CRDs it generates.
   */
  public static Optional<String> unsupported(CustomResourceDefinition xrdApiCrd) {
    if (version(xrdApiCrd).isPresent()) {
      return Optional.empty();
    }
    List<String> served =
        versions(xrdApiCrd).stream()
            .filter(v -> Boolean.TRUE.equals(v.getServed()))
            .map(CustomResourceDefinitionVersion::getName)
            .toList();
    if (served.contains("v1")) {
      return Optional.of(
          "Crossplane's XRD API serves "
              + String.join(", ", served)
              + " without spec.conversion (Crossplane before 1.12): such a Crossplane drops an"
              + " XRD's conversion and overwrites any conversion set on the CRDs it generates,"
              + " so no conversion webhook can be set; upgrade Crossplane to 1.12 or later");
    }
    return Optional.of(
        "Crossplane's XRD API serves "
            + (served.isEmpty() ? "no version" : "only " + String.join(", ", served))
            + ", neither "
            + apiVersion("v2")
            + " nor "
            + apiVersion("v1")
            + "; install Crossplane 1.12 or later");
  }

  private static List<CustomResourceDefinitionVersion> versions(CustomResourceDefinition crd) {
    return crd.getSpec() == null || crd.getSpec().getVersions() == null
        ? List.of()
        : crd.getSpec().getVersions();
  }

  /**
   * Whether XRDs stored through {@code version} keep {@code spec.conversion}: its schema declares
   * the field, or keeps unknown fields there.
   */
  private static boolean keepsConversion(CustomResourceDefinitionVersion version) {
    var schema = version.getSchema() == null ? null : version.getSchema().getOpenAPIV3Schema();
    if (schema == null || preservesUnknown(schema)) {
      return true;
    }
    var spec = schema.getProperties() == null ? null : schema.getProperties().get("spec");
    if (spec == null) {
      return false;
    }
    return preservesUnknown(spec)
        || (spec.getProperties() != null && spec.getProperties().containsKey("conversion"));
  }

  private static boolean preservesUnknown(JSONSchemaProps schema) {
    return Boolean.TRUE.equals(schema.getXKubernetesPreserveUnknownFields());
  }
}
