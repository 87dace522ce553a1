package dev.versio.webhook.forward;

import static org.assertj.core.api.Assertions.assertThat;

import dev.versio.api.served.ServedTargetsCodec;
import dev.versio.testkit.tls.CertificateAuthority;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReviewForwarderTest {
  private final Vertx vertx = Vertx.vertx();
  private final PeerRoutes routes = new PeerRoutes(Clock.systemUTC(), "versio/self");

  @AfterEach
  void close() {
    routes.close();
    vertx.close();
  }

  private void holder(String pod, String address) {
    var annotations = new HashMap<>(ServedTargetsCodec.encode(List.of("w.example.com")).getFirst());
    annotations.put(ServedTargetsCodec.PEER_ADDRESS, address);
    routes.observe(
        new LeaseBuilder()
            .withNewMetadata()
            .withNamespace("versio")
            .withName("versio-served-" + pod)
            .withLabels(
                Map.of(
                    ServedTargetsCodec.SERVER_LABEL,
                    "alpha",
                    ServedTargetsCodec.REPLICA_LABEL,
                    pod))
            .withAnnotations(annotations)
            .endMetadata()
            .withNewSpec()
            .withLeaseDurationSeconds(90)
            .withRenewTime(ZonedDateTime.now())
            .endSpec()
            .build());
    routes.rebuild();
  }

  private ReviewForwarder forwarder(Path dir) throws Exception {
    var ca = dir.resolve("ca.crt");
    Files.writeString(ca, CertificateAuthority.create("peers").certificatePem());
    return new ReviewForwarder(
        vertx, routes, new Forwarding("127.0.0.1:9443", ca, Duration.ofSeconds(2)), "self");
  }

  private static ReviewForwarder.Answer await(ReviewForwarder forwarder, String target)
      throws Exception {
    return forwarder
        .forward(target, Buffer.buffer("{}"), "application/json")
        .toCompletionStage()
        .toCompletableFuture()
        .get(5, TimeUnit.SECONDS);
  }

  @Test
  void aTargetNoLiveReplicaHoldsHasNoHolderAndItselfIsNeverOne(@TempDir Path dir) throws Exception {
    try (var forwarder = forwarder(dir)) {
      assertThat(await(forwarder, "w.example.com"))
          .isInstanceOf(ReviewForwarder.Answer.NoHolder.class);
      holder("self", "127.0.0.1:9443"); // this replica's own Lease
      assertThat(await(forwarder, "w.example.com"))
          .isInstanceOf(ReviewForwarder.Answer.NoHolder.class);
    }
  }

  @Test
  void holdersThatCannotBeReachedEndTheForwardWithAFailureNamingThemNeverAHang(@TempDir Path dir)
      throws Exception {
    int closed;
    try (var socket = new ServerSocket(0)) {
      closed = socket.getLocalPort(); // nothing listens there once it is closed
    }
    holder("alpha-0", "no-port-here");
    holder("alpha-1", "[::1]:" + closed);
    try (var forwarder = forwarder(dir)) {
      // answered (await gives up after 5 s), with what went wrong at the last holder tried
      var answer = await(forwarder, "w.example.com");
      assertThat(answer).isInstanceOf(ReviewForwarder.Answer.Failed.class);
      assertThat(((ReviewForwarder.Answer.Failed) answer).reason()).contains("alpha-");
    }
  }
}
