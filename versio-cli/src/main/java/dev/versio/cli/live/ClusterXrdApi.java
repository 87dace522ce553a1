package dev.versio.cli.live;

import dev.versio.api.crd.XrdApi;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;

/**
 * The version of Crossplane's XRD API to read XRDs at in a cluster: {@code v2} on Crossplane 2.x,
 * {@code v1} on 1.x ({@link XrdApi#version}); {@code v2} when the API is not installed or cannot be
 * read (the read that follows then says what is wrong).
 */
final class ClusterXrdApi {
  private ClusterXrdApi() {}

  static ResourceDefinitionContext context(KubernetesClient client) {
    String version = XrdApi.PREFERRED_VERSION;
    try {
      var api =
          client.apiextensions().v1().customResourceDefinitions().withName(XrdApi.CRD_NAME).get();
      if (api != null) {
        version = XrdApi.version(api).orElse(XrdApi.PREFERRED_VERSION);
      }
    } catch (io.fabric8.kubernetes.client.KubernetesClientException e) {
      // may not read CRDs: try the preferred version
    }
    return XrdApi.context(version);
  }
}
