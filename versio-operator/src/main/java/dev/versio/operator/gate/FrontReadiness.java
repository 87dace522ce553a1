package dev.versio.operator.gate;

import dev.versio.api.served.ServedTargetsAggregator;
import dev.versio.api.server.ConversionWebhookServer;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * Whether the shared front can take a target: every live replica behind it must pass on reviews for
 * targets it does not hold (it publishes a peer address), or a review the front sends to it would
 * fail. A target is pointed at the front only when this holds — the one-time move of a target from
 * its server's own endpoint onto the front goes through the handover gate like any move.
 */
public final class FrontReadiness {
  private final String frontUrl;
  private final boolean serviceFront;
  private final String operatorNamespace;
  private final Supplier<java.util.List<ConversionWebhookServer>> servers;
  private final ServedTargetsAggregator served;

  /**
   * @param frontUrl the URL-mode front's base URL (null: none)
   * @param serviceFront whether Service-mode servers sit behind their namespace's front Service
   * @param operatorNamespace where a server without {@code spec.namespace} runs
   */
  public FrontReadiness(
      String frontUrl,
      boolean serviceFront,
      String operatorNamespace,
      Supplier<java.util.List<ConversionWebhookServer>> servers,
      ServedTargetsAggregator served) {
    this.frontUrl = frontUrl;
    this.serviceFront = serviceFront;
    this.operatorNamespace = operatorNamespace;
    this.servers = servers;
    this.served = served;
  }

  /** Whether {@code url} is a front's endpoint (URL mode's, or a namespace's front Service). */
  public boolean isFront(String url) {
    return url != null
        && (frontUrl != null && url.startsWith(frontUrl + "/")
            || serviceFront
                && url.startsWith(
                    "https://"
                        + dev.versio.operator.server.children.WebhookServerChildren.FRONT_SERVICE
                        + "."));
  }

  /** What keeps a move onto {@code destinationUrl} waiting, if it is a front's; else empty. */
  public Optional<String> problem(String destinationUrl) {
    if (destinationUrl == null) {
      return Optional.empty();
    }
    java.util.function.Predicate<ConversionWebhookServer> behindThisFront;
    if (frontUrl != null && destinationUrl.startsWith(frontUrl + "/")) {
      behindThisFront = s -> !s.isIsolated() && s.getSpec() != null && s.getSpec().url != null;
    } else if (serviceFront
        && destinationUrl.startsWith(
            "https://"
                + dev.versio.operator.server.children.WebhookServerChildren.FRONT_SERVICE
                + ".")) {
      var labels = destinationUrl.substring("https://".length()).split("[:/]")[0].split("\\.");
      if (labels.length < 2) {
        return Optional.empty();
      }
      var namespace = labels[1];
      behindThisFront =
          s ->
              dev.versio.operator.server.children.WebhookServerChildren.behindFront(s, true)
                  && namespace.equals(CaBundleSource.namespaceOf(s, operatorNamespace));
    } else {
      return Optional.empty();
    }
    var behind =
        servers.get().stream()
            .filter(behindThisFront)
            .map(s -> s.getMetadata().getName())
            .collect(Collectors.toSet());
    if (frontUrl != null && destinationUrl.startsWith(frontUrl + "/")) {
      // the apiserver verifies whichever replica the front picks with the one caBundle
      var bundles =
          servers.get().stream()
              .filter(behindThisFront)
              .map(s -> String.valueOf(s.getSpec().caBundle))
              .distinct()
              .count();
      if (bundles > 1) {
        return Optional.of(
            "waiting: the servers behind the front have "
                + bundles
                + " different spec.caBundle values; give them one CA, as the front's clients"
                + " verify every replica with one bundle");
      }
    }
    var lacking = served.liveWithoutPeerAddress(behind);
    if (lacking.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        "waiting: "
            + lacking.size()
            + " live replica(s) behind the front do not forward reviews yet ("
            + String.join(", ", lacking.subList(0, Math.min(5, lacking.size())))
            + (lacking.size() > 5 ? ", …" : "")
            + "); run them with --forward-reviews");
  }
}
