package dev.versio.operator.config;

import dev.versio.api.server.ConversionWebhookServer;
import dev.versio.operator.OperatorOptions;
import dev.versio.operator.gate.CaBundleSource;
import dev.versio.operator.server.children.WebhookServerChildren;

/**
 * Where a target's conversion points when it is assigned to a server: the shared front (URL or
 * Service) for a server of the pool behind it, else the server's own URL or Service. Pure.
 */
public final class ConfigEndpoint {
  private ConfigEndpoint() {}

  /** The endpoint of {@code target} at {@code server} under {@code options}. */
  public static ConversionPatch.Endpoint of(
      ConversionWebhookServer server, String target, OperatorOptions options) {
    var serverSpec = server.getSpec();
    if (serverSpec != null && serverSpec.url != null) {
      // behind the shared front every move keeps the URL: the CRD is not written again
      return ConversionPatch.Endpoint.url(
          options.frontUrl() != null && !server.isIsolated() ? options.frontUrl() : serverSpec.url,
          target);
    }
    if (WebhookServerChildren.behindFront(server, options.serviceFront())) {
      return ConversionPatch.Endpoint.service(
          CaBundleSource.namespaceOf(server, options.namespace()),
          WebhookServerChildren.FRONT_SERVICE,
          443,
          target);
    }
    int port =
        serverSpec == null || serverSpec.service == null || serverSpec.service.port == null
            ? 443
            : serverSpec.service.port;
    return ConversionPatch.Endpoint.service(
        CaBundleSource.namespaceOf(server, options.namespace()),
        server.getMetadata().getName() + "-webhook-server",
        port,
        target);
  }
}
