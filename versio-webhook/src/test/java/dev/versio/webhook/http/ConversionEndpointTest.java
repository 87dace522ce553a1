package dev.versio.webhook.http;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.versio.engine.compile.CompiledConfig;
import dev.versio.engine.json.EngineJson;
import dev.versio.engine.route.Router;
import dev.versio.testkit.tls.CertificateAuthority;
import dev.versio.webhook.metrics.WebhookMetrics;
import dev.versio.webhook.registry.Registry;
import dev.versio.webhook.review.ReviewProcessor;
import dev.versio.webhook.tracing.ReviewTracing;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
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
import java.util.Random;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * The conversion endpoint over real HTTPS on loopback (no Kubernetes needed): status codes, and a
 * seeded-random fuzz run that must never get a 5xx while valid reviews keep succeeding.
 */
class ConversionEndpointTest {
  private static final long SEED = Long.getLong("versio.seed", System.nanoTime());
  private static final ObjectMapper JSON = EngineJson.newMapper();
  private static final long LIMIT = 1024 * 1024;

  private Vertx vertx;
  private HttpServer server;
  private CertificateAuthority ca;
  private HttpClient http;
  private URI uri;
  private final Registry registry = new Registry(Clock.systemUTC(), s -> {});
  private final WebhookMetrics metrics = new WebhookMetrics();

  /** The conversion step of every object; a test swaps in one that fails as a bug would. */
  private volatile ReviewProcessor.ObjectConversion conversion = Router::convert;

  private final ListAppender<ILoggingEvent> log = new ListAppender<>();
  private final InMemorySpanExporter spans = InMemorySpanExporter.create();

  @BeforeEach
  void startServer() throws Exception {
    ca = CertificateAuthority.create("endpoint-test");
    vertx = Vertx.vertx();
    var otel =
        OpenTelemetrySdk.builder()
            .setTracerProvider(
                SdkTracerProvider.builder()
                    .addSpanProcessor(SimpleSpanProcessor.create(spans))
                    .build())
            .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
            .build();
    var endpoint =
        new ConversionEndpoint(
            vertx,
            new ReviewProcessor(registry, (r, o, f, t) -> conversion.convert(r, o, f, t)),
            metrics,
            LIMIT,
            new ReviewTracing(otel));
    server =
        vertx
            .createHttpServer(LoopbackTls.serverOptions(ca))
            .requestHandler(endpoint::handle)
            .listen()
            .toCompletionStage()
            .toCompletableFuture()
            .get(10, TimeUnit.SECONDS);
    http =
        HttpClient.newBuilder()
            .sslContext(ca.trustingContext())
            .connectTimeout(Duration.ofSeconds(5))
            .build();
    uri = URI.create("https://127.0.0.1:" + server.actualPort() + "/convert/widgets.example.com");
    registry.set(
        "widgets.example.com",
        new Router(new CompiledConfig("CRD widgets", "v2", Map.of(), List.of()), "example.com"),
        "crd/widgets",
        "gen=1");
  }

  @BeforeEach
  void captureLog() {
    log.start();
    ((Logger) LoggerFactory.getLogger(ConversionEndpoint.class)).addAppender(log);
  }

  @AfterEach
  void releaseLog() {
    ((Logger) LoggerFactory.getLogger(ConversionEndpoint.class)).detachAppender(log);
  }

  @AfterEach
  void stop() throws Exception {
    http.close();
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  private HttpResponse<String> post(URI target, String contentType, byte[] body) throws Exception {
    var request =
        HttpRequest.newBuilder(target)
            .timeout(Duration.ofSeconds(10))
            .POST(HttpRequest.BodyPublishers.ofByteArray(body));
    if (contentType != null) {
      request.header("Content-Type", contentType);
    }
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static byte[] review(String uid) {
    return ("{\"apiVersion\":\"apiextensions.k8s.io/v1\",\"kind\":\"ConversionReview\",\"request\":{\"uid\":\""
            + uid
            + "\",\"desiredAPIVersion\":\"example.com/v2\",\"objects\":[]}}")
        .getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] reviewOf(String uid, String padding) {
    return ("{\"apiVersion\":\"apiextensions.k8s.io/v1\",\"kind\":\"ConversionReview\",\"request\":{\"uid\":\""
            + uid
            + "\",\"desiredAPIVersion\":\"example.com/v2\",\"objects\":[{\"apiVersion\":\"example.com/v1\","
            + "\"kind\":\"Widget\",\"metadata\":{\"name\":\"w\",\"annotations\":{\"pad\":\""
            + padding
            + "\"}}}]}}")
        .getBytes(StandardCharsets.UTF_8);
  }

  private void assertOneBugReported(String uid, Class<? extends Throwable> type) {
    var errors = log.list.stream().filter(e -> e.getLevel() == Level.ERROR).toList();
    assertThat(errors).as("logged once").hasSize(1);
    assertThat(errors.getFirst().getFormattedMessage())
        .contains("widgets.example.com")
        .contains(uid);
    assertThat(errors.getFirst().getThrowableProxy())
        .as("with its stack trace")
        .isNotNull()
        .satisfies(t -> assertThat(t.getClassName()).isEqualTo(type.getName()));
    assertThat(metrics.scrape())
        .contains("versio_webhook_unexpected_errors_total{where=\"review\"} 1.0");
  }

  @Test
  void aBugInAnOpIsAFailureReviewLoggedOnceWithItsStackTraceAndCounted() throws Exception {
    conversion =
        (r, o, f, t) -> {
          throw new IllegalStateException("an op broke");
        };

    var response = post(uri, "application/json", reviewOf("bug-1", "x"));

    assertThat(response.statusCode()).isEqualTo(200);
    var review = JSON.readTree(response.body()).path("response");
    assertThat(review.path("uid").asText()).isEqualTo("bug-1");
    assertThat(review.path("result").path("status").asText()).isEqualTo("Failure");
    assertThat(review.path("result").path("message").asText())
        .contains("IllegalStateException")
        .contains("this is a Versio bug, see the webhook server log for request bug-1");
    assertOneBugReported("bug-1", IllegalStateException.class);
  }

  @Test
  void anAnswerThatCannotBeWrittenIsStillAFailureReviewLoggedOnce() throws Exception {
    conversion =
        (r, o, f, t) -> {
          var deep = JSON.createObjectNode();
          var node = deep;
          for (int i = 0; i < 2_000; i++) {
            node = node.putObject("d"); // deeper than the writer's nesting limit
          }
          return deep;
        };

    var response = post(uri, "application/json", reviewOf("deep-1", "x"));

    assertThat(response.statusCode()).isEqualTo(200);
    var review = JSON.readTree(response.body()).path("response");
    assertThat(review.path("uid").asText()).isEqualTo("deep-1");
    assertThat(review.path("result").path("status").asText()).isEqualTo("Failure");
    assertThat(review.path("result").path("message").asText())
        .contains("the converted review could not be written");
    assertThat(metrics.scrape())
        .contains("versio_webhook_unexpected_errors_total{where=\"write\"} 1.0");
  }

  @Test
  void whatBreaksOutsideTheConversionIsAFailureReviewNeverABare500() throws Exception {
    // a body over the inline limit is processed off the event loop; an Error there used to be a 500
    conversion =
        (r, o, f, t) -> {
          throw new AssertionError("broken beyond the per-object guard");
        };

    var response = post(uri, "application/json", reviewOf("bug-2", "p".repeat(100_000)));

    assertThat(response.statusCode()).isEqualTo(200);
    var review = JSON.readTree(response.body()).path("response");
    assertThat(review.path("uid").asText()).isEqualTo("bug-2");
    assertThat(review.path("result").path("status").asText()).isEqualTo("Failure");
    assertThat(review.path("result").path("message").asText())
        .contains("internal error handling the ConversionReview for widgets.example.com")
        .contains("request bug-2");
    assertOneBugReported("bug-2", AssertionError.class);
  }

  @Test
  void concurrentReviewsWhoseBodiesSpanManyHttp2FramesAreAllAnswered() throws Exception {
    // eight streams at a time on one HTTP/2 connection, each body 85 KB: several DATA frames and
    // more than the 64 KiB default window; vertx-core up to 5.1.6 left about 1 % of them unanswered
    // an object already at the desired version: the review succeeds without rules
    var body =
        new String(reviewOf("large", "x".repeat(85_000)), StandardCharsets.UTF_8)
            .replace("\"example.com/v1\"", "\"example.com/v2\"")
            .getBytes(StandardCharsets.UTF_8);
    var request =
        HttpRequest.newBuilder(uri)
            .version(HttpClient.Version.HTTP_2)
            .timeout(Duration.ofSeconds(10))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofByteArray(body))
            .build();
    int total = 400;
    // a client of its own, shut down at the end: close() would wait for hung requests forever
    var client = HttpClient.newBuilder().sslContext(ca.trustingContext()).build();
    var inFlight = new java.util.concurrent.Semaphore(8);
    var answers = new ArrayList<java.util.concurrent.CompletableFuture<HttpResponse<String>>>();
    var failures = new ArrayList<String>();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    for (int i = 0; i < total; i++) {
      if (!inFlight.tryAcquire(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
        failures.add("8 requests still unanswered after 20 s; " + (total - i) + " never sent");
        break;
      }
      answers.add(
          client
              .sendAsync(request, HttpResponse.BodyHandlers.ofString())
              .whenComplete((r, t) -> inFlight.release()));
    }
    for (var answer : answers) {
      try {
        var response = answer.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        assertThat(response.version()).isEqualTo(HttpClient.Version.HTTP_2);
        if (response.statusCode() != 200
            || !JSON.readTree(response.body())
                .path("response")
                .path("result")
                .path("status")
                .asText()
                .equals("Success")) {
          failures.add("HTTP " + response.statusCode() + " " + response.body());
        }
      } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
        failures.add(e.toString());
      }
    }
    client.shutdownNow();

    assertThat(failures).as("unanswered or failed of %d", total).isEmpty();
  }

  @Test
  void statusCodesFollowTheContract() throws Exception {
    assertThat(
            http.send(
                    HttpRequest.newBuilder(uri).GET().build(), HttpResponse.BodyHandlers.ofString())
                .statusCode())
        .isEqualTo(405);
    assertThat(post(uri, "text/plain", review("a")).statusCode()).isEqualTo(415);
    assertThat(post(uri, "application/json", "{".getBytes(StandardCharsets.UTF_8)).statusCode())
        .isEqualTo(400);
    assertThat(post(uri, "application/json", new byte[(int) LIMIT + 1]).statusCode())
        .isEqualTo(413);
    assertThat(post(uri.resolve("/elsewhere"), "application/json", review("a")).statusCode())
        .isEqualTo(404);
    var unknown =
        post(uri.resolve("/convert/gadgets.example.com"), "application/json", review("u-7"));
    assertThat(unknown.statusCode()).isEqualTo(200);
    var body = JSON.readTree(unknown.body());
    assertThat(body.path("response").path("uid").asText()).isEqualTo("u-7");
    assertThat(body.path("response").path("result").path("status").asText()).isEqualTo("Failure");
    assertThat(unknown.body()).doesNotContain("Exception").doesNotContain("\tat ");
  }

  @Test
  void everyReviewIsASpanUnderTheCallersTraceAndFailuresAreErrors() throws Exception {
    var traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    var traced =
        http.send(
            HttpRequest.newBuilder(uri)
                .header("Content-Type", "application/json")
                .header("traceparent", "00-" + traceId + "-00f067aa0ba902b7-01")
                .POST(HttpRequest.BodyPublishers.ofByteArray(review("t-1")))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(traced.statusCode()).isEqualTo(200);
    post(uri.resolve("/convert/gadgets.example.com"), "application/json", review("t-2"));

    var finished = spans.getFinishedSpanItems();
    assertThat(finished).hasSize(2);
    var ok = finished.get(0);
    assertThat(ok.getName()).isEqualTo("convert widgets.example.com");
    assertThat(ok.getTraceId()).isEqualTo(traceId);
    assertThat(ok.getAttributes().get(ReviewTracing.UID)).isEqualTo("t-1");
    assertThat(ok.getAttributes().get(ReviewTracing.RESULT)).isEqualTo("success");
    assertThat(ok.getStatus().getStatusCode()).isEqualTo(StatusCode.UNSET);
    var failed = finished.get(1);
    assertThat(failed.getName())
        .as("a target this replica does not hold is not a span name")
        .isEqualTo("convert unknown");
    assertThat(failed.getAttributes().get(ReviewTracing.RESULT)).isEqualTo("not_registered");
    assertThat(failed.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
    assertThat(failed.getStatus().getDescription()).contains("no conversion plan");
  }

  @Test
  void madeUpPathsAddNoMetricSeriesAndNoSpanNames() throws Exception {
    post(uri, "application/json", review("known"));
    post(uri.resolve("/convert/junk-0"), "application/json", review("j"));
    long before = metrics.scrape().lines().filter(l -> l.startsWith("versio_webhook_")).count();
    for (int i = 1; i <= 300; i++) {
      post(uri.resolve("/convert/junk-" + i), "application/json", review("j-" + i));
    }

    var scrape = metrics.scrape();
    assertThat(scrape.lines().filter(l -> l.startsWith("versio_webhook_")).count())
        .as("300 made-up targets add no series")
        .isEqualTo(before);
    assertThat(scrape)
        .doesNotContain("junk-")
        .contains("target=\"widgets.example.com\"")
        .contains(
            "versio_webhook_conversion_review_requests_total{result=\"not_registered\",target=\"unknown\"} 301.0");
    assertThat(spans.getFinishedSpanItems())
        .extracting(s -> s.getName())
        .containsOnly("convert widgets.example.com", "convert unknown");
  }

  @Test
  void slowClientsHoldingHalfSentRequestsDoNotDelayOtherReviews() throws Exception {
    var port = uri.getPort();
    var slow = new ArrayList<SSLSocket>();
    try {
      for (int i = 0; i < 20; i++) {
        // a TLS connection that sends headers and 6 of 100,000 promised body bytes, then stalls
        var socket =
            (SSLSocket) ca.trustingContext().getSocketFactory().createSocket("127.0.0.1", port);
        socket.setSoTimeout(10_000);
        var out = socket.getOutputStream();
        out.write(
            ("POST /convert/widgets.example.com HTTP/1.1\r\nHost: x\r\n"
                    + "Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n{\"api")
                .getBytes(StandardCharsets.US_ASCII));
        out.flush();
        slow.add(socket);
      }
      for (int i = 0; i < 20; i++) {
        var response = post(uri, "application/json", review("meanwhile-" + i));
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(
                JSON.readTree(response.body())
                    .path("response")
                    .path("result")
                    .path("status")
                    .asText())
            .isEqualTo("Success");
      }
    } finally {
      for (var socket : slow) {
        socket.close();
      }
    }
  }

  @Test
  void randomGarbageNeverGetsA5xxAndValidReviewsKeepWorking() throws Exception {
    System.out.println(
        "ConversionEndpointTest seed: " + SEED + " (rerun with -Dversio.seed=" + SEED + ")");
    var random = new Random(SEED);
    var contentTypes =
        new String[] {
          "application/json",
          "application/json; charset=utf-8",
          null,
          "application/yaml",
          "text/html"
        };
    for (int i = 0; i < 300; i++) {
      byte[] body =
          switch (random.nextInt(7)) {
            case 0 -> randomBytes(random, random.nextInt(2048));
            case 1 -> truncate(review("u" + i), random);
            case 2 -> nested(random.nextInt(3000) + 1);
            case 3 ->
                ("{\"apiVersion\":\""
                        + pick(random, "v1", "apiextensions.k8s.io/v9", "apiextensions.k8s.io/v1")
                        + "\",\"kind\":\""
                        + pick(random, "ConversionReview", "Pod")
                        + "\",\"request\":{\"desiredAPIVersion\":\"example.com/v1\",\"objects\":[{}]}}")
                    .getBytes(StandardCharsets.UTF_8);
            case 4 ->
                ("{\"apiVersion\":\"apiextensions.k8s.io/v1\",\"request\":{\"uid\":\"x\",\"desiredAPIVersion\":"
                        + random.nextInt()
                        + ",\"objects\":"
                        + pick(random, "[1,2]", "{}", "null", "[{\"apiVersion\":7}]")
                        + "}}")
                    .getBytes(StandardCharsets.UTF_8);
            case 5 -> new byte[(int) LIMIT + 1 + random.nextInt(1000)];
            default -> review("ok-" + i);
          };
      var response = post(uri, contentTypes[random.nextInt(contentTypes.length)], body);
      assertThat(response.statusCode())
          .as("request %d (seed %d) got %s", i, SEED, response.body())
          .isLessThan(500);
      if (response.statusCode() == 200) {
        assertThat(
                JSON.readTree(response.body())
                    .path("response")
                    .path("result")
                    .path("status")
                    .asText())
            .isIn("Success", "Failure");
      }
      if (i % 50 == 0) {
        var valid = post(uri, "application/json", review("check"));
        assertThat(
                JSON.readTree(valid.body()).path("response").path("result").path("status").asText())
            .isEqualTo("Success");
      }
    }
  }

  private static byte[] randomBytes(Random random, int n) {
    var bytes = new byte[n];
    random.nextBytes(bytes);
    return bytes;
  }

  private static byte[] truncate(byte[] body, Random random) {
    var copy = new byte[random.nextInt(body.length)];
    System.arraycopy(body, 0, copy, 0, copy.length);
    return copy;
  }

  private static byte[] nested(int depth) {
    return ("[".repeat(depth) + "]".repeat(depth)).getBytes(StandardCharsets.UTF_8);
  }

  private static String pick(Random random, String... options) {
    return options[random.nextInt(options.length)];
  }
}
