package dev.versio.api.server;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Whether a target's live {@code spec.conversion} sends its reviews to a server: its webhook URL
 * starts with the server's {@code spec.url} (URL mode), or its Service is the server's {@code
 * <server>-webhook-server} (Service mode). The webhook-server replicas use it to keep serving a
 * target that still names them; the operator and admission to keep such a server from being
 * deleted. Pure.
 */
public final class EndpointMatch {
  private EndpointMatch() {}

  /**
   * @param definition the CRD or XRD as JSON (only {@code spec.conversion} is read)
   */
  public static boolean names(ConversionWebhookServer server, JsonNode definition) {
    if (server == null || server.getSpec() == null || definition == null) {
      return false;
    }
    var clientConfig =
        definition.path("spec").path("conversion").path("webhook").path("clientConfig");
    var url = server.getSpec().url;
    if (url != null && !url.isBlank()) {
      var base = url.replaceAll("/+$", "");
      var named = clientConfig.path("url").asText("");
      return named.equals(base) || named.startsWith(base + "/");
    }
    var service = clientConfig.path("service");
    return !service.isMissingNode()
        && (server.getMetadata().getName() + "-webhook-server")
            .equals(service.path("name").asText(""));
  }
}
