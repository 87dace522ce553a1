package dev.versio.webhook.forward;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.versio.testkit.tls.CertificateAuthority;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
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
    PeerRoutesFeed.replica(routes, "alpha", pod, address, List.of("w.example.com"));
  }

  private ReviewForwarder forwarder(Path dir) throws Exception {
    var ca = dir.resolve("ca.crt");
    Files.writeString(ca, CertificateAuthority.create("peers").certificatePem());
    return new ReviewForwarder(
        vertx, routes, new Forwarding("127.0.0.1:9443", ca, Duration.ofSeconds(2)), "self");
  }

  /**
   * A holder that answers every forward with {@code {"from":"<name>"}} over TLS and HTTP/2, with a
   * certificate from {@code ca}; returns its port.
   */
  private int answeringPeer(CertificateAuthority ca, String name) throws Exception {
    var server =
        vertx
            .createHttpServer(dev.versio.webhook.http.LoopbackTls.serverOptions(ca))
            .requestHandler(
                req ->
                    req.end()
                        .onComplete(
                            ignored ->
                                req.response()
                                    .putHeader("Content-Type", "application/json")
                                    .end("{\"from\":\"" + name + "\"}")))
            .listen()
            .toCompletionStage()
            .toCompletableFuture()
            .get(5, TimeUnit.SECONDS);
    return server.actualPort();
  }

  /** A holder that accepts connections and never says a word, as a frozen process does. */
  private static ServerSocket frozenPeer() throws Exception {
    var socket = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress());
    Thread.ofVirtual()
        .start(
            () -> {
              var accepted = new java.util.ArrayList<java.net.Socket>(); // kept open, never read
              while (!socket.isClosed()) {
                try {
                  accepted.add(socket.accept());
                } catch (java.io.IOException e) {
                  break;
                }
              }
              for (var open : accepted) {
                try {
                  open.close();
                } catch (java.io.IOException ignored) {
                  // closing anyway
                }
              }
            });
    return socket;
  }

  /**
   * Two holders of the target: {@code alpha-0} frozen, {@code alpha-1} answering; returns the
   * frozen one's socket, to close.
   */
  private ServerSocket frozenAndLiveHolders(CertificateAuthority ca) throws Exception {
    var frozen = frozenPeer();
    holder("alpha-0", "127.0.0.1:" + frozen.getLocalPort());
    holder("alpha-1", "127.0.0.1:" + answeringPeer(ca, "alpha-1"));
    return frozen;
  }

  private final java.util.concurrent.atomic.AtomicInteger hedges =
      new java.util.concurrent.atomic.AtomicInteger();

  private ReviewForwarder hedgingForwarder(
      Path dir, CertificateAuthority ca, Duration budget, Duration hedgeAfter) throws Exception {
    var caFile = dir.resolve("peers-ca.crt");
    Files.writeString(caFile, ca.certificatePem());
    return new ReviewForwarder(
        vertx,
        routes,
        new Forwarding("127.0.0.1:9443", caFile, budget, hedgeAfter),
        "self",
        hedges::incrementAndGet);
  }

  /**
   * Forwards from an event loop, as the conversion endpoint does (its request handler calls the
   * forwarder): started from the test's own thread, a CI run once relayed alpha-1's answer with an
   * empty body, most likely its data arriving before a handler read it.
   */
  private ReviewForwarder.Answer await(ReviewForwarder forwarder, String target, Duration max)
      throws Exception {
    return await(forwarder, target, null, max);
  }

  /** As above, to the holders of {@code server} only (null: any holder). */
  private ReviewForwarder.Answer await(
      ReviewForwarder forwarder, String target, String server, Duration max) throws Exception {
    var answer = new java.util.concurrent.CompletableFuture<ReviewForwarder.Answer>();
    vertx
        .getOrCreateContext()
        .runOnContext(
            ignored ->
                (server == null
                        ? forwarder.forward(target, Buffer.buffer("{}"), "application/json")
                        : forwarder.forward(
                            target, server, Buffer.buffer("{}"), "application/json"))
                    .onComplete(
                        ar -> {
                          if (ar.succeeded()) {
                            answer.complete(ar.result());
                          } else {
                            answer.completeExceptionally(ar.cause());
                          }
                        }));
    return answer.get(max.toMillis(), TimeUnit.MILLISECONDS);
  }

  @Test
  void aFrozenHolderCostsAForwardTheHedgeNotTheBudgetTheOtherHolderAnswers(@TempDir Path dir)
      throws Exception {
    var ca = CertificateAuthority.create("peers");
    try (var frozen = frozenAndLiveHolders(ca);
        var forwarder = hedgingForwarder(dir, ca, Duration.ofSeconds(5), Duration.ofMillis(100))) {
      // the holders are taken in turn (sorted by replica): the first forward asks the frozen one
      // first, and gets its answer from the other only through the hedge, long before the budget
      for (int i = 0; i < 2; i++) {
        var answer = await(forwarder, "w.example.com", Duration.ofSeconds(10));
        if (i == 0) {
          assertThat(hedges).hasValue(1);
        }
        assertThat(answer).isInstanceOf(ReviewForwarder.Answer.Relayed.class);
        var relayed = (ReviewForwarder.Answer.Relayed) answer;
        assertThat(relayed.peer().replica()).isEqualTo("versio/alpha-1");
        assertThat(relayed.body().toString()).isEqualTo("{\"from\":\"alpha-1\"}");
      }
    }
  }

  @Test
  void withoutTheHedgeAFrozenFirstHolderFailsTheForwardAtTheBudget(@TempDir Path dir)
      throws Exception {
    var ca = CertificateAuthority.create("peers");
    try (var frozen = frozenAndLiveHolders(ca);
        var forwarder = hedgingForwarder(dir, ca, Duration.ofSeconds(2), Duration.ZERO)) {
      var answers = new java.util.ArrayList<ReviewForwarder.Answer>();
      for (int i = 0; i < 2; i++) {
        answers.add(await(forwarder, "w.example.com", Duration.ofSeconds(10)));
      }
      assertThat(hedges).hasValue(0);
      // the forward that asked the frozen holder first waited for it until the budget ran out
      assertThat(answers)
          .filteredOn(a -> a instanceof ReviewForwarder.Answer.Failed)
          .singleElement()
          .satisfies(
              a ->
                  assertThat(((ReviewForwarder.Answer.Failed) a).reason())
                      .contains("--forward-timeout"));
    }
  }

  @Test
  void aHedgeAsLongAsTheBudgetIsRefusedNamingBothFlags(@TempDir Path dir) {
    assertThatThrownBy(
            () ->
                new Forwarding("127.0.0.1:9443", dir, Duration.ofSeconds(1), Duration.ofSeconds(1)))
        .hasMessageContaining("--forward-hedge-after")
        .hasMessageContaining("--forward-timeout");
    assertThatThrownBy(
            () ->
                new Forwarding(
                    "127.0.0.1:9443", dir, Duration.ofSeconds(1), Duration.ofNanos(500_000)))
        .as("a timer cannot fire sooner than 1 ms")
        .hasMessageContaining("at least 1ms");
    assertThat(new Forwarding("127.0.0.1:9443", dir, Duration.ofMillis(200)).hedgeAfter())
        .as("a budget too short for the default hedge: none")
        .isZero();
  }

  private ReviewForwarder.Answer await(ReviewForwarder forwarder, String target) throws Exception {
    return await(forwarder, target, Duration.ofSeconds(5));
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
  void aForwardToOneServerGoesOnlyToThatServersHolders(@TempDir Path dir) throws Exception {
    var ca = CertificateAuthority.create("peers");
    holder("alpha-0", "127.0.0.1:" + answeringPeer(ca, "alpha-0"));
    PeerRoutesFeed.replica(
        routes,
        "beta",
        "beta-0",
        "127.0.0.1:" + answeringPeer(ca, "beta-0"),
        List.of("w.example.com"));
    try (var forwarder = hedgingForwarder(dir, ca, Duration.ofSeconds(2), Duration.ZERO)) {
      for (int i = 0; i < 4; i++) { // the turn would alternate between the two holders
        var answer = await(forwarder, "w.example.com", "beta", Duration.ofSeconds(5));
        assertThat(answer).isInstanceOf(ReviewForwarder.Answer.Relayed.class);
        assertThat(((ReviewForwarder.Answer.Relayed) answer).body().toString())
            .isEqualTo("{\"from\":\"beta-0\"}");
      }
      assertThat(await(forwarder, "w.example.com", "gamma", Duration.ofSeconds(5)))
          .as("a server with no holder")
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
