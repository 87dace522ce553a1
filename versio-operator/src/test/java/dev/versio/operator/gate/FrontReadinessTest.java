package dev.versio.operator.gate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.versio.api.served.ServedTargetsAggregator;
import dev.versio.api.served.ServedTargetsCodec;
import dev.versio.api.server.ConversionWebhookServer;
import dev.versio.api.server.ConversionWebhookServerSpec;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.HashMap;
import java.util.List;
import org.junit.jupiter.api.Test;

class FrontReadinessTest {
  private static final String FRONT = "https://127.0.0.1:8443";
  private final Clock clock = Clock.fixed(Instant.parse("2026-12-01T00:00:00Z"), ZoneOffset.UTC);
  private final ServedTargetsAggregator served = new ServedTargetsAggregator(clock);

  private static ConversionWebhookServer urlServer(String name, boolean isolated) {
    var server = new ConversionWebhookServer();
    server.setMetadata(new ObjectMetaBuilder().withName(name).build());
    server.setSpec(new ConversionWebhookServerSpec());
    server.getSpec().url = "https://" + name + ".example:9443";
    server.getSpec().isolated = isolated ? Boolean.TRUE : null;
    return server;
  }

  private void replica(String server, String pod, String address) {
    var annotations = new HashMap<>(ServedTargetsCodec.encode(List.of("a.x")).getFirst());
    if (address != null) {
      annotations.put(ServedTargetsCodec.PEER_ADDRESS, address);
    }
    served.observe(
        new LeaseBuilder()
            .withNewMetadata()
            .withNamespace("versio")
            .withName("versio-served-" + pod)
            .withLabels(
                java.util.Map.of(
                    ServedTargetsCodec.SERVER_LABEL, server, ServedTargetsCodec.REPLICA_LABEL, pod))
            .withAnnotations(annotations)
            .endMetadata()
            .withNewSpec()
            .withLeaseDurationSeconds(90)
            .withRenewTime(ZonedDateTime.parse("2026-12-01T00:00:00Z"))
            .endSpec()
            .build());
  }

  @Test
  void aMoveOntoTheFrontWaitsWhileAReplicaBehindItDoesNotForward() {
    var servers = List.of(urlServer("alpha", false), urlServer("tenant", true));
    var front = new FrontReadiness(FRONT, false, "versio", () -> servers, served);
    replica("alpha", "alpha-0", "127.0.0.1:9001");
    replica("alpha", "alpha-1", null);
    replica("tenant", "tenant-0", null); // isolated: the front never sends it anything

    assertThat(front.problem(FRONT + "/convert/a.x"))
        .hasValueSatisfying(p -> assertThat(p).contains("versio/alpha-1").contains("forward"));
    assertThat(front.problem("https://tenant.example:9443/convert/a.x"))
        .as("a server's own endpoint is not the front")
        .isEmpty();

    replica("alpha", "alpha-1", "127.0.0.1:9002");
    assertThat(front.problem(FRONT + "/convert/a.x")).isEmpty();
  }

  @Test
  void withoutAFrontNothingIsHeld() {
    replica("alpha", "alpha-0", null);
    var front =
        new FrontReadiness(null, false, "versio", () -> List.of(urlServer("alpha", false)), served);
    assertThat(front.problem(FRONT + "/convert/a.x")).isEmpty();
  }
}
