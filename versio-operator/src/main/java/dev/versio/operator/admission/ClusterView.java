package dev.versio.operator.admission;

import com.fasterxml.jackson.databind.JsonNode;
import dev.versio.api.config.CRDConversionConfig;
import dev.versio.api.config.XRDConversionConfig;
import dev.versio.api.server.ConversionWebhookServer;
import java.util.List;
import java.util.Optional;

/**
 * What the validators may read about the cluster, at the moment of the request. Every method may
 * throw {@link Unavailable}; validators then deny (fail closed) and say the check could not be
 * made.
 */
public interface ClusterView {
  List<CRDConversionConfig> crdConfigs();

  List<XRDConversionConfig> xrdConfigs();

  List<ConversionWebhookServer> servers();

  /** The CustomResourceDefinition {@code name} as JSON, or empty when there is none. */
  Optional<JsonNode> crd(String name);

  /**
   * The Crossplane CompositeResourceDefinition {@code name} as JSON, or empty when there is none
   * (also when Crossplane's XRD API is not installed).
   */
  Optional<JsonNode> xrd(String name);

  /** A read the check needs failed; {@code what} names it, e.g. "list ConversionWebhookServers". */
  final class Unavailable extends RuntimeException {
    private final String what;

    public Unavailable(String what, Throwable cause) {
      super("cannot " + what + ": " + cause.getMessage(), cause);
      this.what = what;
    }

    public String what() {
      return what;
    }
  }
}
