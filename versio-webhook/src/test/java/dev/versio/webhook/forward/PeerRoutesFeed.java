package dev.versio.webhook.forward;

import dev.versio.api.served.ServedTargetsCodec;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import java.time.ZonedDateTime;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Feeds {@link PeerRoutes} the served-target Lease a live replica would publish (tests only). */
public final class PeerRoutesFeed {
  private PeerRoutesFeed() {}

  /**
   * Replica {@code pod} of {@code server}, reachable at {@code address}, serves {@code targets}.
   */
  public static void replica(
      PeerRoutes routes, String server, String pod, String address, List<String> targets) {
    var annotations = new HashMap<>(ServedTargetsCodec.encode(targets).getFirst());
    annotations.put(ServedTargetsCodec.PEER_ADDRESS, address);
    routes.observe(
        new LeaseBuilder()
            .withNewMetadata()
            .withNamespace("versio")
            .withName("versio-served-" + pod)
            .withLabels(
                Map.of(
                    ServedTargetsCodec.SERVER_LABEL, server, ServedTargetsCodec.REPLICA_LABEL, pod))
            .withAnnotations(annotations)
            .endMetadata()
            .withNewSpec()
            .withLeaseDurationSeconds(90)
            .withRenewTime(ZonedDateTime.now())
            .endSpec()
            .build());
    routes.rebuild();
  }
}
