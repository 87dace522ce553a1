package dev.versio.operator.ops;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.versio.operator.metrics.OperatorMetrics;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;
import java.util.function.BooleanSupplier;

/**
 * The operator's plain-HTTP ops listener: {@code /metrics} (Prometheus text), {@code /healthz} (the
 * process answers) and {@code /readyz} (caches synced and admission serving).
 */
public final class OpsServer implements AutoCloseable {
  private final HttpServer server;

  private OpsServer(HttpServer server) {
    this.server = server;
  }

  public static OpsServer start(
      String host, int port, OperatorMetrics metrics, BooleanSupplier ready) {
    try {
      var server = HttpServer.create(new InetSocketAddress(host, port), 0);
      server.setExecutor(
          Executors.newSingleThreadExecutor(
              r -> Thread.ofPlatform().name("versio-operator-ops").daemon().unstarted(r)));
      server.createContext(
          "/metrics",
          exchange ->
              respond(exchange, 200, "text/plain; version=0.0.4; charset=utf-8", metrics.scrape()));
      server.createContext("/healthz", exchange -> respond(exchange, 200, "text/plain", "ok\n"));
      server.createContext(
          "/readyz",
          exchange ->
              respond(
                  exchange,
                  ready.getAsBoolean() ? 200 : 503,
                  "text/plain",
                  ready.getAsBoolean()
                      ? "ready\n"
                      : "not ready: caches are filling or admission is not serving yet\n"));
      server.start();
      return new OpsServer(server);
    } catch (IOException e) {
      throw new IllegalStateException(
          "cannot open the ops listener on " + host + ":" + port + ": " + e.getMessage(), e);
    }
  }

  private static void respond(HttpExchange exchange, int code, String type, String body)
      throws IOException {
    try (exchange) {
      if (!"GET".equals(exchange.getRequestMethod())) {
        exchange.sendResponseHeaders(405, -1);
        return;
      }
      var bytes = body.getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", type);
      exchange.sendResponseHeaders(code, bytes.length);
      exchange.getResponseBody().write(bytes);
    }
  }

  public int port() {
    return server.getAddress().getPort();
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
