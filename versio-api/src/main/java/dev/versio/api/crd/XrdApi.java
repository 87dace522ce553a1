package dev.versio.api.crd;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.util.List;
import java.util.Optional;

/**
 * Crossplane's XRD API ({@code CompositeResourceDefinition}), named in full so that no discovery is
 * needed: when its CRD has just been created, discovery may not list it yet, and a lookup by
 * apiVersion and kind fails (an informer on this context retries until the API is served).
 */
public final class XrdApi {
  public static final String API_VERSION = "apiextensions.crossplane.io/v2";
  public static final String KIND = "CompositeResourceDefinition";

  public static final ResourceDefinitionContext CONTEXT =
      new ResourceDefinitionContext.Builder()
          .withGroup("apiextensions.crossplane.io")
          .withVersion("v2")
          .withKind(KIND)
          .withPlural("compositeresourcedefinitions")
          .withNamespaced(false)
          .build();

  /** The name of the CRD that defines Crossplane's XRD API. */
  public static final String CRD_NAME = "compositeresourcedefinitions.apiextensions.crossplane.io";

  private XrdApi() {}

  /**
   * Why Versio cannot work with the XRD API that {@code xrdApiCrd} (the CRD {@value #CRD_NAME})
   * defines, or empty when it serves {@code v2}. Crossplane 1.x serves XRDs at {@code v1} only
   * (1.0–1.5 also at {@code v1beta1}); 2.x serves {@code v1} and {@code v2}. Crossplane copies an
   * XRD's {@code spec.conversion} into the CRDs it generates and overwrites any other on them, so
   * the XRD is the only place a conversion webhook can be set.
   */
  public static Optional<String> unsupported(CustomResourceDefinition xrdApiCrd) {
    List<String> served =
        xrdApiCrd.getSpec() == null || xrdApiCrd.getSpec().getVersions() == null
            ? List.of()
            : xrdApiCrd.getSpec().getVersions().stream()
                .filter(v -> Boolean.TRUE.equals(v.getServed()))
                .map(CustomResourceDefinitionVersion::getName)
                .toList();
    if (served.contains("v2")) {
      return Optional.empty();
    }
    return Optional.of(
        "Crossplane's XRD API serves "
            + (served.isEmpty() ? "no version" : "only " + String.join(", ", served))
            + ", not "
            + API_VERSION
            + " (Crossplane 2.0 or later): Versio does not handle Crossplane 1.x XRDs yet, and a"
            + " CRDConversionConfig on the CRD Crossplane generates would be overwritten by"
            + " Crossplane; upgrade Crossplane to 2.0 or later");
  }
}
