package dev.versio.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import dev.versio.testkit.tls.CertificateAuthority;
import dev.versio.testkit.tls.ServerTls;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;

/**
 * A minimal HTTPS conversion webhook on loopback for the proof tests: renames {@code spec.size}
 * (v1) to {@code spec.replicas} (v2) and back, records every ConversionReview it receives, and can
 * be told to answer with a Failure result.
 */
final class RenamingConversionWebhook implements AutoCloseable {
  static final String FAILURE_MESSAGE = "refusing on purpose: the test asked for a Failure";

  private final ObjectMapper json = new ObjectMapper();
  private final HttpsServer server;
  private final CertificateAuthority ca = CertificateAuthority.create("conversion-webhook-test-ca");
  private final List<JsonNode> reviews = new CopyOnWriteArrayList<>();
  private volatile boolean failing;

  RenamingConversionWebhook() throws IOException {
    server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setHttpsConfigurator(
        new HttpsConfigurator(ServerTls.context(ca.issueServer("127.0.0.1"))));
    server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
    server.createContext("/convert", this::handle);
    server.start();
  }

  URI url() {
    return URI.create("https://127.0.0.1:" + server.getAddress().getPort() + "/convert");
  }

  /** The CA bundle (base64 PEM) the CRD's {@code caBundle} must carry. */
  String caBundle() {
    return ca.material().certificateBase64();
  }

  List<JsonNode> reviews() {
    return List.copyOf(reviews);
  }

  void failFromNowOn() {
    failing = true;
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      var review = json.readTree(exchange.getRequestBody());
      reviews.add(review);
      var request = review.path("request");
      var desired = request.path("desiredAPIVersion").asText();
      var response = json.createObjectNode().put("uid", request.path("uid").asText());
      if (failing) {
        response.putObject("result").put("status", "Failure").put("message", FAILURE_MESSAGE);
      } else {
        var converted = response.putArray("convertedObjects");
        for (var object : request.path("objects")) {
          converted.add(convert((ObjectNode) object.deepCopy(), desired));
        }
        response.putObject("result").put("status", "Success");
      }
      var answer = json.createObjectNode();
      answer.put("apiVersion", review.path("apiVersion").asText());
      answer.put("kind", "ConversionReview");
      answer.set("response", response);
      var body = json.writeValueAsBytes(answer);
      exchange.getResponseHeaders().add("Content-Type", "application/json");
      exchange.sendResponseHeaders(200, body.length);
      exchange.getResponseBody().write(body);
    }
  }

  private static ObjectNode convert(ObjectNode object, String desiredApiVersion) {
    var spec = (ObjectNode) object.path("spec");
    if (desiredApiVersion.endsWith("/v2") && spec.has("size")) {
      spec.set("replicas", spec.remove("size"));
    } else if (desiredApiVersion.endsWith("/v1") && spec.has("replicas")) {
      spec.set("size", spec.remove("replicas"));
    }
    object.put("apiVersion", desiredApiVersion);
    return object;
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
