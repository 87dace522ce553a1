package dev.versio.webhook.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.versio.engine.compile.CompiledConfig;
import dev.versio.engine.json.EngineJson;
import dev.versio.engine.route.Router;
import dev.versio.testkit.tls.CertificateAuthority;
import dev.versio.webhook.metrics.WebhookMetrics;
import dev.versio.webhook.registry.Registry;
import dev.versio.webhook.review.ReviewProcessor;
import dev.versio.webhook.tracing.ReviewTracing;
import io.vertx.core.Vertx;
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
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * No single review holds the conversion listener: a review that runs for its whole budget is
 * answered with a Failure naming the budget, while reviews on other connections are answered in
 * their usual time; and connections are spread over one server per event loop. Real HTTPS on
 * loopback; the slow conversion is a stand-in for any review whose work is expensive.
 */
class ReviewBudgetTest {
  private static final ObjectMapper JSON = EngineJson.newMapper();
  private static final Duration BUDGET = Duration.ofSeconds(1);

  /**
   * A normal review here takes a few milliseconds; 500 ms leaves room for a loaded 2-core machine
   * and is still half the budget a stalled loop would add.
   */
  private static final long USUAL_MILLIS = 500;

  private final Registry registry = new Registry(Clock.systemUTC(), s -> {});
  private final CountDownLatch slowEntered = new CountDownLatch(1);
  private final CountDownLatch release = new CountDownLatch(1);
  private final Set<String> servingThreads = ConcurrentHashMap.newKeySet();
  private final List<HttpClient> clients = new ArrayList<>();
  private Vertx vertx;
  private CertificateAuthority ca;
  private URI uri;
  private ConversionEndpoint endpoint;

  /** Objects named {@code slow} convert until released (at most {@code slowFor}). */
  private volatile Duration slowFor = Duration.ofSeconds(30);

  private void start(int loops) throws Exception {
    ca = CertificateAuthority.create("budget-test");
    vertx = Vertx.vertx();
    registry.set(
        "widgets.example.com",
        new Router(new CompiledConfig("CRD widgets", "v2", Map.of(), List.of()), "example.com"),
        "crd/widgets",
        "gen=1");
    var processor =
        new ReviewProcessor(
            registry,
            (router, object, from, to) -> {
              servingThreads.add(Thread.currentThread().getName());
              if (object.path("metadata").path("name").asText().equals("slow")) {
                slowEntered.countDown();
                try {
                  release.await(slowFor.toMillis(), TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
              }
              return object.deepCopy();
            });
    endpoint =
        new ConversionEndpoint(
            vertx,
            processor,
            new WebhookMetrics(),
            ReviewLimits.of(64L * 1024 * 1024, 256, BUDGET),
            ReviewTracing.off());
    var listeners =
        ConversionListeners.start(vertx, LoopbackTls.serverOptions(ca), endpoint::handle, loops)
            .toCompletionStage()
            .toCompletableFuture()
            .get(10, TimeUnit.SECONDS);
    assertThat(listeners.loops()).isEqualTo(loops);
    assertThat(listeners.ports())
        .as("one port shared by every loop")
        .containsOnly(listeners.port());
    uri = URI.create("https://127.0.0.1:" + listeners.port() + "/convert/widgets.example.com");
  }

  @AfterEach
  void stop() throws Exception {
    release.countDown();
    clients.forEach(HttpClient::close);
    if (vertx != null) {
      vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }
  }

  /** A client of its own: its own connection. */
  private HttpClient connection() {
    var client =
        HttpClient.newBuilder()
            .sslContext(ca.trustingContext())
            .connectTimeout(Duration.ofSeconds(5))
            .build();
    clients.add(client);
    return client;
  }

  private static HttpRequest review(String uid, String name, int padBytes) {
    var body =
        "{\"apiVersion\":\"apiextensions.k8s.io/v1\",\"kind\":\"ConversionReview\",\"request\":{\"uid\":\""
            + uid
            + "\",\"desiredAPIVersion\":\"example.com/v2\",\"objects\":[{\"apiVersion\":\"example.com/v1\","
            + "\"kind\":\"Widget\",\"metadata\":{\"name\":\""
            + name
            + "\",\"annotations\":{\"pad\":\""
            + "x".repeat(padBytes)
            + "\"}}}]}}";
    return HttpRequest.newBuilder(URI.create("https://placeholder"))
        .timeout(Duration.ofSeconds(30))
        .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8))
        .header("Content-Type", "application/json")
        .build();
  }

  private HttpRequest at(HttpRequest request) {
    return HttpRequest.newBuilder(request, (n, v) -> true).uri(uri).build();
  }

  private static JsonNode result(HttpResponse<String> response) throws Exception {
    assertThat(response.statusCode()).isEqualTo(200);
    return JSON.readTree(response.body()).path("response").path("result");
  }

  /** The longest time, in ms, of {@code count} normal reviews sent one after another. */
  private long slowestOf(int count, HttpClient client) throws Exception {
    long slowest = 0;
    for (int i = 0; i < count; i++) {
      long t0 = System.nanoTime();
      var response = client.send(at(review("n-" + i, "normal", 10)), ofString());
      slowest = Math.max(slowest, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
      assertThat(result(response).path("status").asText()).isEqualTo("Success");
    }
    return slowest;
  }

  private static HttpResponse.BodyHandler<String> ofString() {
    return HttpResponse.BodyHandlers.ofString();
  }

  @Test
  void aReviewOverItsBudgetIsAnsweredWithAFailureNamingItWhileOtherConnectionsAreServedAsUsual()
      throws Exception {
    start(2);
    var normal = connection();
    slowestOf(20, normal); // warm up: the usual latency is measured on a warm replica

    long t0 = System.nanoTime();
    var slow = connection().sendAsync(at(review("slow-1", "slow", 80 * 1024)), ofString());
    assertThat(slowEntered.await(10, TimeUnit.SECONDS)).as("the slow review started").isTrue();
    long slowestNormal = slowestOf(20, normal);
    var answer = slow.get(20, TimeUnit.SECONDS);
    long slowMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);

    assertThat(slowestNormal)
        .as("every normal review while the slow one runs is answered in its usual time")
        .isLessThan(USUAL_MILLIS);
    assertThat(JSON.readTree(answer.body()).path("response").path("uid").asText())
        .isEqualTo("slow-1");
    assertThat(result(answer).path("status").asText()).isEqualTo("Failure");
    assertThat(result(answer).path("message").asText())
        .contains("did not finish within its budget of 1000 ms (--review-timeout)")
        .contains("widgets.example.com");
    assertThat(slowMillis)
        .as("answered when the budget ran out, not when the conversion ended")
        .isBetween(BUDGET.toMillis(), BUDGET.toMillis() + 5_000);
  }

  @Test
  void aReviewWhoseClientWentAwayKeepsItsSlotUntilItsWorkerHasStopped() throws Exception {
    start(2);
    var leaving = connection();
    leaving.sendAsync(at(review("gone-1", "slow", 80 * 1024)), ofString());
    assertThat(slowEntered.await(10, TimeUnit.SECONDS)).as("the slow review started").isTrue();
    leaving.shutdownNow(); // the client goes; its body is still being converted

    // the budget answers (to nobody) after 1 s; the slot, and the body it counts, stay held
    await()
        .during(Duration.ofMillis(1_500))
        .atMost(Duration.ofSeconds(10))
        .until(() -> endpoint.inFlight() == 1);
    release.countDown(); // the conversion reaches its next object and stops
    await().atMost(Duration.ofSeconds(10)).until(() -> endpoint.inFlight() == 0);
  }

  @Test
  void aScriptlessSmallReviewRunsOnAnEventLoopAndConnectionsAreSpreadOverEveryLoop()
      throws Exception {
    start(2);
    for (int i = 0; i < 8; i++) {
      slowestOf(1, connection());
    }
    assertThat(servingThreads)
        .as("reviews of eight connections were converted on two different event loops")
        .allMatch(name -> name.startsWith("vert.x-eventloop-thread-"))
        .hasSize(2);
  }

  /**
   * Negative control of the first test's harness: the same measurement sees a stalled listener when
   * a slow review is processed on the only event loop (as every small review was before reviews got
   * a budget), so its passing is not an accident of timing.
   */
  @Test
  void theHarnessSeesAStalledListenerWhenASlowReviewHoldsTheOnlyEventLoop() throws Exception {
    start(1);
    slowFor = Duration.ofMillis(1_500);
    var normal = connection();
    slowestOf(5, normal);

    var slow = connection().sendAsync(at(review("slow-2", "slow", 10)), ofString());
    assertThat(slowEntered.await(10, TimeUnit.SECONDS)).isTrue();
    long slowestNormal = slowestOf(3, normal);
    slow.get(20, TimeUnit.SECONDS);

    assertThat(slowestNormal).isGreaterThanOrEqualTo(USUAL_MILLIS);
  }
}
