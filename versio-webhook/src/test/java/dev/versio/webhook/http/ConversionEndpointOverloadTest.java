package dev.versio.webhook.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.versio.engine.compile.CompiledConfig;
import dev.versio.engine.route.Router;
import dev.versio.webhook.metrics.WebhookMetrics;
import dev.versio.webhook.registry.Registry;
import dev.versio.webhook.review.ReviewProcessor;
import dev.versio.webhook.tracing.ReviewTracing;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import java.io.IOException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A replica at its limit of reviews in flight refuses the next one at once, never queues it. */
class ConversionEndpointOverloadTest {
  private static final int LIMIT = 3;

  private Vertx vertx;
  private HttpServer server;
  private ConversionEndpoint endpoint;
  private final WebhookMetrics metrics = new WebhookMetrics();
  private final HttpClient http =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();
  private final List<Socket> held = new ArrayList<>();

  @BeforeEach
  void start() throws Exception {
    var registry = new Registry(Clock.systemUTC(), s -> {});
    registry.set(
        "widgets.example.com",
        new Router(new CompiledConfig("CRD widgets", "v2", Map.of(), List.of()), "example.com"),
        "crd/widgets",
        "gen=1");
    vertx = Vertx.vertx();
    endpoint =
        new ConversionEndpoint(
            vertx, new ReviewProcessor(registry), metrics, 1024 * 1024, LIMIT, ReviewTracing.off());
    server =
        vertx
            .createHttpServer()
            .requestHandler(endpoint::handle)
            .listen(0, "127.0.0.1")
            .toCompletionStage()
            .toCompletableFuture()
            .get(10, TimeUnit.SECONDS);
  }

  @AfterEach
  void stop() throws Exception {
    for (var socket : held) {
      socket.close();
    }
    http.close();
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  /** A request whose headers and first body bytes arrive, the rest never: it holds its slot. */
  private void holdOne() throws IOException {
    var socket = new Socket("127.0.0.1", server.actualPort());
    socket
        .getOutputStream()
        .write(
            ("POST /convert/widgets.example.com HTTP/1.1\r\nHost: x\r\n"
                    + "Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n{\"api")
                .getBytes(StandardCharsets.US_ASCII));
    socket.getOutputStream().flush();
    held.add(socket);
  }

  private HttpResponse<String> review(String uid) throws Exception {
    var body =
        "{\"apiVersion\":\"apiextensions.k8s.io/v1\",\"kind\":\"ConversionReview\",\"request\":{\"uid\":\""
            + uid
            + "\",\"desiredAPIVersion\":\"example.com/v2\",\"objects\":[]}}";
    return http.send(
        HttpRequest.newBuilder(
                URI.create(
                    "http://127.0.0.1:" + server.actualPort() + "/convert/widgets.example.com"))
            .timeout(Duration.ofSeconds(10))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void theReviewBeyondTheLimitGetsA429WithRetryAfterAtOnceAndIsCounted() throws Exception {
    for (int i = 0; i < LIMIT; i++) {
      holdOne();
    }
    await().atMost(Duration.ofSeconds(10)).until(() -> endpoint.inFlight() == LIMIT);

    long started = System.nanoTime();
    var refused = review("one-too-many");

    assertThat(refused.statusCode()).isEqualTo(429);
    assertThat(refused.headers().firstValue("Retry-After")).contains("1");
    assertThat(refused.body()).contains("--max-in-flight").contains("add replicas");
    assertThat(Duration.ofNanos(System.nanoTime() - started))
        .as("refused at once, not after the held requests")
        .isLessThan(Duration.ofSeconds(2));
    assertThat(metrics.scrape()).contains("versio_webhook_overload_rejections_total 1.0");
    assertThat(metrics.scrape()).contains("versio_webhook_reviews_in_flight 3.0");
  }

  @Test
  void aSlotFreedByAnAnsweredReviewOrAClosedConnectionIsUsedAgain() throws Exception {
    for (int i = 0; i < LIMIT; i++) {
      holdOne();
    }
    await().atMost(Duration.ofSeconds(10)).until(() -> endpoint.inFlight() == LIMIT);
    assertThat(review("refused").statusCode()).isEqualTo(429);

    held.removeFirst().close();
    await().atMost(Duration.ofSeconds(10)).until(() -> endpoint.inFlight() == LIMIT - 1);

    for (int i = 0; i < 20; i++) {
      var answered = review("after-" + i);
      assertThat(answered.statusCode()).isEqualTo(200);
      assertThat(answered.body()).contains("\"status\":\"Success\"");
    }
    assertThat(endpoint.inFlight())
        .as("answered reviews give their slot back")
        .isEqualTo(LIMIT - 1);
  }
}
