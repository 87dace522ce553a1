package dev.versio.api.assign;

import dev.versio.api.server.ConversionWebhookServer;
import java.util.Objects;

/**
 * What assignment needs to know about one ConversionWebhookServer.
 *
 * @param name the server's name
 * @param isDefault whether it is the default server
 * @param inPool whether it is in the sharding pool; a server being deleted has left it, so its
 *     pooled targets move to the remaining members (through the handover gate) and the delete
 *     completes once nothing sends conversions to it any more
 * @param weight its relative share of the pool's targets (positive)
 */
public record ServerView(String name, boolean isDefault, boolean inPool, double weight) {
  public ServerView {
    Objects.requireNonNull(name, "name");
    if (!(weight > 0) || Double.isInfinite(weight)) {
      throw new IllegalArgumentException(
          "server " + name + ": sharding weight must be a positive number, was " + weight);
    }
  }

  public static ServerView of(ConversionWebhookServer server) {
    var sharding = server.getSpec() == null ? null : server.getSpec().sharding;
    var weight = sharding == null || sharding.weight == null ? 1.0 : sharding.weight;
    var deleting = server.getMetadata().getDeletionTimestamp() != null;
    return new ServerView(
        server.getMetadata().getName(),
        server.isDefaultServer(),
        server.inShardingPool() && !deleting,
        weight);
  }
}
