package dev.versio.webhook.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.versio.api.http.InFlightLimits;
import dev.versio.engine.compile.CompiledConfig;
import dev.versio.engine.route.Router;
import dev.versio.webhook.metrics.WebhookMetrics;
import dev.versio.webhook.registry.Registry;
import dev.versio.webhook.review.ReviewProcessor;
import dev.versio.webhook.tracing.ReviewTracing;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Slow and greedy clients cannot take a replica's slots from the apiserver: one remote address
 * holds at most its share, a body that does not arrive in time is answered 408 and frees its slot,
 * and bodies in flight are held to a byte budget. Plain HTTP/1.1 on loopback, where every address
 * of 127.0.0.0/8 is a different client.
 */
class SlowAndGreedyClientsTest {
  private static final String REVIEW =
      "{\"apiVersion\":\"apiextensions.k8s.io/v1\",\"kind\":\"ConversionReview\",\"request\":{\"uid\":\"u\","
          + "\"desiredAPIVersion\":\"example.com/v2\",\"objects\":[]}}";

  private final WebhookMetrics metrics = new WebhookMetrics();
  private final List<Socket> sockets = new ArrayList<>();
  private Vertx vertx;
  private HttpServer server;
  private ConversionEndpoint endpoint;

  private void start(InFlightLimits limits, Duration bodyTimeout) throws Exception {
    var registry = new Registry(Clock.systemUTC(), s -> {});
    registry.set(
        "widgets.example.com",
        new Router(new CompiledConfig("CRD widgets", "v2", Map.of(), List.of()), "example.com"),
        "crd/widgets",
        "gen=1");
    vertx = Vertx.vertx();
    endpoint =
        new ConversionEndpoint(
            vertx,
            new ReviewProcessor(registry),
            metrics,
            new ReviewLimits(1024 * 1024, limits, bodyTimeout, Duration.ofSeconds(5)),
            ReviewTracing.off());
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
    for (var socket : sockets) {
      socket.close();
    }
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  /** A connection from {@code clientAddress} (any address of 127.0.0.0/8). */
  private Socket connect(String clientAddress) throws IOException {
    var socket = new Socket();
    socket.bind(new InetSocketAddress(clientAddress, 0));
    socket.connect(new InetSocketAddress("127.0.0.1", server.actualPort()), 5_000);
    socket.setSoTimeout(10_000);
    sockets.add(socket);
    return socket;
  }

  /** Sends the headers and the first bytes of a body of {@code length} bytes, never the rest. */
  private Socket holdOne(String clientAddress, long length) throws IOException {
    return holdOne(clientAddress, length, 5);
  }

  /** Sends the headers and {@code sent} bytes of a body of {@code length}, never the rest. */
  private Socket holdOne(String clientAddress, long length, int sent) throws IOException {
    var socket = connect(clientAddress);
    send(
        socket,
        "POST /convert/widgets.example.com HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            + "Content-Length: "
            + length
            + "\r\n\r\n{\"api"
            + " ".repeat(sent - 5));
    return socket;
  }

  private static void send(Socket socket, String text) throws IOException {
    socket.getOutputStream().write(text.getBytes(StandardCharsets.US_ASCII));
    socket.getOutputStream().flush();
  }

  /** A whole review from {@code clientAddress}; the status line and body of the answer. */
  private String review(String clientAddress) throws IOException {
    var socket = connect(clientAddress);
    send(
        socket,
        "POST /convert/widgets.example.com HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            + "Connection: close\r\nContent-Length: "
            + REVIEW.length()
            + "\r\n\r\n"
            + REVIEW);
    return readAll(socket.getInputStream());
  }

  /** The head and body of one answer (its Content-Length), without waiting for the connection. */
  private static String readAnswer(InputStream in) throws IOException {
    var head = new StringBuilder();
    while (!head.toString().endsWith("\r\n\r\n")) {
      int b = in.read();
      if (b < 0) {
        break;
      }
      head.append((char) b);
    }
    var length =
        head.toString()
            .lines()
            .filter(l -> l.toLowerCase(java.util.Locale.ROOT).startsWith("content-length:"))
            .map(l -> Integer.parseInt(l.substring(l.indexOf(':') + 1).strip()))
            .findFirst()
            .orElse(0);
    return head + new String(in.readNBytes(length), StandardCharsets.UTF_8);
  }

  private static String readAll(InputStream in) throws IOException {
    return new String(in.readAllBytes(), StandardCharsets.UTF_8);
  }

  @Test
  void oneClientHoldsAtMostItsShareAndTheApiserverKeepsTheRest() throws Exception {
    start(new InFlightLimits(4, 2, 1 << 20), Duration.ofSeconds(30));
    holdOne("127.0.0.7", 100);
    holdOne("127.0.0.7", 100);
    await().atMost(Duration.ofSeconds(10)).until(() -> endpoint.inFlight() == 2);

    assertThat(review("127.0.0.7"))
        .startsWith("HTTP/1.1 429")
        .contains("Retry-After: 1")
        .contains("this client has 2 reviews in flight, its share (--max-in-flight-per-client)");
    assertThat(review("127.0.0.1"))
        .as("another client is served")
        .startsWith("HTTP/1.1 200")
        .contains("\"status\":\"Success\"");
  }

  @Test
  void oneClientHoldsAtMostItsShareOfTheBodyBytes() throws Exception {
    start(new InFlightLimits(4, 2, 1_000), Duration.ofSeconds(30)); // 500 bytes per client
    var greedy = holdOne("127.0.0.7", 800, 600); // fits the budget, not the client's share
    assertThat(readAnswer(greedy.getInputStream()))
        .startsWith("HTTP/1.1 429")
        .contains("or this client's share of it (--max-bytes-in-flight)");
    assertThat(review("127.0.0.8")).as("another client is served").startsWith("HTTP/1.1 200");
  }

  @Test
  void aBodyThatDoesNotArriveInTimeGets408ItsConnectionClosedAndItsSlotBack() throws Exception {
    start(new InFlightLimits(2, 2, 1 << 20), Duration.ofMillis(300));
    var slow = holdOne("127.0.0.7", 100);
    await().atMost(Duration.ofSeconds(10)).until(() -> endpoint.inFlight() == 1);

    var answer = readAll(slow.getInputStream()); // the server closes the connection after it
    assertThat(answer)
        .startsWith("HTTP/1.1 408")
        .contains("did not arrive within 300 ms (--body-timeout)");
    await().atMost(Duration.ofSeconds(10)).until(() -> endpoint.inFlight() == 0);
    assertThat(review("127.0.0.7")).startsWith("HTTP/1.1 200");
  }

  @Test
  void bodiesInFlightAreHeldToTheByteBudget() throws Exception {
    start(new InFlightLimits(8, 8, 1_000), Duration.ofSeconds(30));
    holdOne("127.0.0.7", 900, 700); // bytes count as they arrive: 700 of the 900 it declared
    await().atMost(Duration.ofSeconds(10)).until(() -> endpoint.bytesInFlight() == 700);

    var refused = connect("127.0.0.8");
    send(
        refused,
        "POST /convert/widgets.example.com HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            + "Connection: close\r\nContent-Length: 400\r\n\r\n");
    assertThat(readAnswer(refused.getInputStream()))
        .as("refused at once, before its body is read")
        .startsWith("HTTP/1.1 429")
        .contains("budget of 1000 bytes, or this client's share of it (--max-bytes-in-flight)");
    assertThat(review("127.0.0.8")).as("a body that fits is served").startsWith("HTTP/1.1 200");
    await().atMost(Duration.ofSeconds(10)).until(() -> endpoint.bytesInFlight() == 700);
  }
}
