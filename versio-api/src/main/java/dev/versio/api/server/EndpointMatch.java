package dev.versio.api.server;

import com.fasterxml.jackson.databind.JsonNode;
import dev.versio.api.config.ConversionConfigSpec;
import io.fabric8.kubernetes.client.CustomResource;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Whether a target's live {@code spec.conversion} sends its reviews to a server: its webhook URL
 * starts with the server's {@code spec.url} (URL mode), or its Service is the server's {@code
 * <server>-webhook-server} (Service mode). The webhook-server replicas use it to keep serving a
 * target that still names them; the operator and admission to keep such a server from being
 * deleted. Pure.
 */
public final class EndpointMatch {
  /** The Service in front of every shared server's replicas of a namespace (Service mode). */
  public static final String FRONT_SERVICE = "versio-webhook-front";

  private EndpointMatch() {}

  /**
   * Whether a target's live {@code spec.conversion} sends its reviews to a shared front rather than
   * to one server: the Service {@value #FRONT_SERVICE} of {@code namespace}, or a URL ending in
   * {@code /convert/<target>} that is no server's own {@code spec.url} (URL mode's front).
   */
  public static boolean namesFront(
      JsonNode definition,
      String target,
      Collection<ConversionWebhookServer> servers,
      String namespace) {
    if (definition == null) {
      return false;
    }
    var conversion = definition.path("spec").path("conversion");
    if (!"Webhook".equals(conversion.path("strategy").asText(""))) {
      return false;
    }
    var clientConfig = conversion.path("webhook").path("clientConfig");
    var service = clientConfig.path("service");
    if (!service.isMissingNode()) {
      return FRONT_SERVICE.equals(service.path("name").asText(""))
          && namespace.equals(service.path("namespace").asText(""));
    }
    var url = clientConfig.path("url").asText("");
    if (!url.endsWith("/convert/" + target)) {
      return false;
    }
    return servers.stream().noneMatch(s -> names(s, definition));
  }

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

  /**
   * The targets (sorted) of {@code crdConfigs} and {@code xrdConfigs} whose live definition, as
   * {@code crd} and {@code xrd} look it up by name, still {@linkplain #names names} {@code server},
   * or whose config's {@code status.servedBy} does: the targets a move away from {@code server} has
   * not finished for.
   */
  public static List<String> targetsNaming(
      ConversionWebhookServer server,
      Collection<? extends CustomResource<? extends ConversionConfigSpec, ?>> crdConfigs,
      Function<String, Optional<JsonNode>> crd,
      Collection<? extends CustomResource<? extends ConversionConfigSpec, ?>> xrdConfigs,
      Function<String, Optional<JsonNode>> xrd) {
    var out = new TreeSet<String>();
    collect(server, crdConfigs, crd, out);
    collect(server, xrdConfigs, xrd, out);
    return List.copyOf(out);
  }

  private static void collect(
      ConversionWebhookServer server,
      Collection<? extends CustomResource<? extends ConversionConfigSpec, ?>> configs,
      Function<String, Optional<JsonNode>> definitionOf,
      TreeSet<String> out) {
    var name = server.getMetadata().getName();
    for (var config : configs) {
      var target = config.getSpec() == null ? null : config.getSpec().targetName();
      if (target == null) {
        continue;
      }
      // behind the shared front the CRD names no server: the config's status says who serves it
      boolean servedThere =
          config.getStatus() instanceof dev.versio.api.config.ConversionConfigStatus status
              && name.equals(status.servedBy);
      if (servedThere || definitionOf.apply(target).map(d -> names(server, d)).orElse(false)) {
        out.add(target);
      }
    }
  }
}
