package dev.versio.operator.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.versio.api.http.InFlightLimits;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The transport alone, over plain HTTP: statuses for everything that is not a good review. */
class AdmissionEndpointTest {
  private static final String PATH = "/validate/conversionwebhookserver";
  private final Vertx vertx = Vertx.vertx();
  private final HttpClient http = HttpClient.newHttpClient();
  private HttpServer server;

  private AdmissionEndpoint endpoint;
  private final List<Socket> held = new ArrayList<>();

  @BeforeEach
  void listen() throws Exception {
    var processor =
        new AdmissionProcessor(
            new ConfigValidator(true, true, FakeCluster.ANY_TARGET),
            FakeCluster.SERVERS,
            FakeCluster::new);
    endpoint =
        new AdmissionEndpoint(
            vertx, processor, 1024, new InFlightLimits(4, 2, 4096), Duration.ofMillis(500));
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
  void close() throws Exception {
    for (var socket : held) {
      socket.close();
    }
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  private HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
    return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  private HttpRequest.Builder to(String path) {
    return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.actualPort() + path));
  }

  @Test
  void aGoodReviewIsAnsweredWithJson() throws Exception {
    var body =
        """
        {"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"u-7",
         "operation":"CREATE","name":"s",
         "kind":{"group":"versio.dev","version":"v1alpha1","kind":"ConversionWebhookServer"},
         "object":{"apiVersion":"versio.dev/v1alpha1","kind":"ConversionWebhookServer",
                   "metadata":{"name":"s"},"spec":{"extraArgs":["--ops-port=1"]}}}}
        """;

    var response =
        send(
            to(PATH)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)));

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json");
    assertThat(response.body())
        .contains("\"uid\":\"u-7\"")
        .contains("\"allowed\":false")
        .contains("--ops-port");
  }

  @Test
  void aMalformedBodyIsABadRequest() throws Exception {
    var response = send(to(PATH).POST(HttpRequest.BodyPublishers.ofString("{\"apiVersion\":")));

    assertThat(response.statusCode()).isEqualTo(400);
    assertThat(response.body()).startsWith("the request body is not JSON");
  }

  @Test
  void anotherMethodIsNotAllowed() throws Exception {
    var response = send(to(PATH).GET());

    assertThat(response.statusCode()).isEqualTo(405);
    assertThat(response.headers().firstValue("Allow")).hasValue("POST");
  }

  @Test
  void aBodyOverTheLimitIsTooLarge() throws Exception {
    var response = send(to(PATH).POST(HttpRequest.BodyPublishers.ofString("x".repeat(2000))));

    assertThat(response.statusCode()).isEqualTo(413);
    assertThat(response.body()).contains("over the limit of 1024 bytes");
  }

  @Test
  void anotherContentTypeIsUnsupported() throws Exception {
    var response =
        send(
            to(PATH)
                .header("Content-Type", "application/yaml")
                .POST(HttpRequest.BodyPublishers.ofString("a: b")));

    assertThat(response.statusCode()).isEqualTo(415);
  }

  /** Headers and the first bytes of a body from {@code address}, the rest never sent. */
  private Socket holdOne(String address) throws Exception {
    var socket = new Socket();
    socket.bind(new InetSocketAddress(address, 0));
    socket.connect(new InetSocketAddress("127.0.0.1", server.actualPort()), 5_000);
    socket.setSoTimeout(10_000);
    socket
        .getOutputStream()
        .write(
            ("POST "
                    + PATH
                    + " HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                    + "Content-Length: 500\r\n\r\n{\"api")
                .getBytes(StandardCharsets.US_ASCII));
    socket.getOutputStream().flush();
    held.add(socket);
    return socket;
  }

  @Test
  void slowClientsHoldAtMostTheirShareAndAStalledBodyGets408AndItsSlotBack() throws Exception {
    var slow = holdOne("127.0.0.7");
    holdOne("127.0.0.7");
    await().atMost(Duration.ofSeconds(10)).until(() -> endpoint.inFlight() == 2);
    var third = holdOne("127.0.0.7");
    assertThat(new String(third.getInputStream().readNBytes(12), StandardCharsets.US_ASCII))
        .as("beyond its share, refused at once")
        .isEqualTo("HTTP/1.1 429");

    assertThat(new String(slow.getInputStream().readAllBytes(), StandardCharsets.UTF_8))
        .as("answered and closed when the body timeout runs out")
        .startsWith("HTTP/1.1 408")
        .contains("did not arrive within 500 ms");
    await().atMost(Duration.ofSeconds(10)).until(() -> endpoint.inFlight() == 0);
    assertThat(send(to(PATH).POST(HttpRequest.BodyPublishers.ofString("{"))).statusCode())
        .isEqualTo(400);
  }

  @Test
  void anUnknownPathIsNotFound() throws Exception {
    var response = send(to("/validate").POST(HttpRequest.BodyPublishers.ofString("{}")));

    assertThat(response.statusCode()).isEqualTo(404);
    assertThat(response.body()).contains("/validate/crdconversionconfig");
  }
}
