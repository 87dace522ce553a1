package dev.versio.api.crd;

import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;

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

  private XrdApi() {}
}
