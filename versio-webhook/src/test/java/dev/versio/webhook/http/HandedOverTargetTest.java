package dev.versio.webhook.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.versio.engine.compile.CompiledConfig;
import dev.versio.engine.route.Router;
import dev.versio.testkit.tls.CertificateAuthority;
import dev.versio.webhook.forward.Forwarding;
import dev.versio.webhook.forward.PeerRoutes;
import dev.versio.webhook.forward.PeerRoutesFeed;
import dev.versio.webhook.forward.ReviewForwarder;
import dev.versio.webhook.metrics.WebhookMetrics;
import dev.versio.webhook.registry.Registry;
import dev.versio.webhook.review.ReviewProcessor;
import dev.versio.webhook.tracing.ReviewTracing;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Behind the front, a replica that still holds a target it has handed over to another server (that
 * server's live replicas all serve it; this one drains) passes the target's reviews there, so the
 * move takes effect when the destination is ready, not when the drain ends; and when no replica of
 * the destination answers, it answers with the plan it still holds rather than fail. Two endpoints
 * over real HTTPS/2 on loopback, the routes fed the Leases the replicas would publish.
 */
class HandedOverTargetTest {
  private static final String TARGET = "widgets.example.com";

  private final Vertx vertx = Vertx.vertx();
  private final PeerRoutes routes = new PeerRoutes(Clock.systemUTC(), "versio/alpha-0");
  private final WebhookMetrics sourceMetrics = new WebhookMetrics();
  private final WebhookMetrics destinationMetrics = new WebhookMetrics();
  private final AtomicReference<String> handedOverTo = new AtomicReference<>();
  private CertificateAuthority ca;
  private HttpServer destination;
  private ReviewForwarder forwarder;
  private URI source;
  private HttpClient trusting;

  @BeforeEach
  void start(@TempDir Path dir) throws Exception {
    ca = CertificateAuthority.create("front");
    var caFile = dir.resolve("ca.crt");
    Files.writeString(caFile, ca.certificatePem());
    destination = listen(endpoint(destinationMetrics, null));
    forwarder =
        new ReviewForwarder(
            vertx,
            routes,
            new Forwarding("127.0.0.1:9443", caFile, Duration.ofSeconds(2)),
            "alpha-0");
    var sourceServer = listen(endpoint(sourceMetrics, forwarder));
    source = URI.create("https://127.0.0.1:" + sourceServer.actualPort() + "/convert/" + TARGET);
    trusting =
        HttpClient.newBuilder()
            .sslContext(ca.trustingContext())
            .connectTimeout(Duration.ofSeconds(5))
            .build();
    // the source (alpha) and the destination (beta) both hold the target, as during the drain
    PeerRoutesFeed.replica(routes, "alpha", "alpha-0", "127.0.0.1:1", List.of(TARGET));
    PeerRoutesFeed.replica(
        routes, "beta", "beta-0", "127.0.0.1:" + destination.actualPort(), List.of(TARGET));
  }

  @AfterEach
  void stop() throws Exception {
    forwarder.close();
    routes.close();
    trusting.close();
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  /** A replica's conversion endpoint holding the target; with a forwarder, the source. */
  private ConversionEndpoint endpoint(WebhookMetrics metrics, ReviewForwarder forwarder) {
    var registry = new Registry(Clock.systemUTC(), s -> {});
    registry.set(
        TARGET,
        new Router(new CompiledConfig("CRD widgets", "v2", Map.of(), List.of()), "example.com"),
        "crd/widgets",
        "gen=1");
    return new ConversionEndpoint(
        vertx,
        new ReviewProcessor(registry, 1024 * 1024),
        metrics,
        ReviewLimits.of(
            1024 * 1024,
            dev.versio.webhook.WebhookServerOptions.DEFAULT_MAX_IN_FLIGHT,
            dev.versio.webhook.WebhookServerOptions.DEFAULT_REVIEW_BUDGET),
        ReviewTracing.off(),
        forwarder,
        target -> handedOverTo.get());
  }

  private HttpServer listen(ConversionEndpoint endpoint) throws Exception {
    return vertx
        .createHttpServer(LoopbackTls.serverOptions(ca))
        .requestHandler(endpoint::handle)
        .listen()
        .toCompletionStage()
        .toCompletableFuture()
        .get(10, TimeUnit.SECONDS);
  }

  private HttpResponse<String> review(String uid) throws Exception {
    var body =
        "{\"apiVersion\":\"apiextensions.k8s.io/v1\",\"kind\":\"ConversionReview\",\"request\":{\"uid\":\""
            + uid
            + "\",\"desiredAPIVersion\":\"example.com/v2\",\"objects\":[]}}";
    return trusting.send(
        HttpRequest.newBuilder(source)
            .timeout(Duration.ofSeconds(10))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static String routed(WebhookMetrics metrics, String route) {
    return "versio_webhook_reviews_routed_total{route=\"" + route + "\"} 1.0";
  }

  @Test
  void aTargetNotHandedOverIsAnsweredByTheReplicaThatHoldsIt() throws Exception {
    var answer = review("kept");
    assertThat(answer.statusCode()).isEqualTo(200);
    assertThat(answer.body()).contains("\"uid\":\"kept\"").contains("Success");
    assertThat(sourceMetrics.scrape()).contains(routed(sourceMetrics, "local"));
    assertThat(destinationMetrics.scrape()).doesNotContain("versio_webhook_reviews_routed_total");
  }

  @Test
  void aHandedOverTargetsReviewsAreAnsweredByTheServerItWasHandedOverTo() throws Exception {
    handedOverTo.set("beta");
    var answer = review("moved");
    assertThat(answer.statusCode()).isEqualTo(200);
    assertThat(answer.body()).contains("\"uid\":\"moved\"").contains("Success");
    assertThat(sourceMetrics.scrape())
        .contains(routed(sourceMetrics, "handed_over"))
        .doesNotContain("route=\"local\"");
    assertThat(destinationMetrics.scrape()).contains(routed(destinationMetrics, "from_peer"));
  }

  @Test
  void whenNoReplicaOfTheDestinationAnswersTheHeldPlanAnswersNotAFailure() throws Exception {
    handedOverTo.set("beta");
    destination.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    var answer = review("fallback");
    assertThat(answer.statusCode()).isEqualTo(200);
    assertThat(answer.body()).contains("\"uid\":\"fallback\"").contains("Success");
    assertThat(sourceMetrics.scrape())
        .contains(routed(sourceMetrics, "local"))
        .contains("versio_webhook_forwarded_reviews_total{result=\"failed\"} 1.0");
  }

  @Test
  void aStalledDestinationCostsAHandedOverReviewTheHedgeThenTheHeldPlanAnswers() throws Exception {
    try (var frozen = new java.net.ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress())) {
      // accepts connections (the kernel does) and never says a word, as a stopped process
      PeerRoutesFeed.replica(
          routes, "gamma", "gamma-0", "127.0.0.1:" + frozen.getLocalPort(), List.of(TARGET));
      handedOverTo.set("gamma");
      long started = System.nanoTime();
      var answer = review("stalled");
      long millis = (System.nanoTime() - started) / 1_000_000;
      assertThat(answer.statusCode()).isEqualTo(200);
      assertThat(answer.body()).contains("\"uid\":\"stalled\"").contains("Success");
      // the hedge is 250 ms and the budget 2 s: well under the budget, with room for a slow machine
      assertThat(millis).as("answered after the hedge, not the budget").isLessThan(1500);
      assertThat(sourceMetrics.scrape())
          .contains(routed(sourceMetrics, "local"))
          .contains("versio_webhook_forwarded_reviews_total{result=\"held_plan\"} 1.0")
          .doesNotContain("result=\"failed\"");
    }
  }

  @Test
  void aHandoverToAServerWithNoLiveReplicaIsAnsweredHere() throws Exception {
    handedOverTo.set("gamma"); // a view a moment old: gamma has no replica in the routes
    var answer = review("nobody");
    assertThat(answer.statusCode()).isEqualTo(200);
    assertThat(answer.body()).contains("Success");
    assertThat(sourceMetrics.scrape())
        .contains(routed(sourceMetrics, "local"))
        .contains("versio_webhook_forwarded_reviews_total{result=\"no_holder\"} 1.0");
    assertThat(destinationMetrics.scrape()).doesNotContain("versio_webhook_reviews_routed_total");
  }
}
