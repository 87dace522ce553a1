package dev.versio.webhook.http;

import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.ServerSSLOptions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The HTTPS conversion listener as one server per event loop on one port: Vert.x shares the port
 * between them and spreads the connections over their loops, so every core serves (a configured
 * port of 0 picks one free port for all of them).
 */
public final class ConversionListeners {
  private final List<HttpServer> servers = new CopyOnWriteArrayList<>();

  private ConversionListeners() {}

  /**
   * Starts {@code loops} servers with {@code options}, each on its own event loop, all calling
   * {@code handler}.
   */
  public static Future<ConversionListeners> start(
      Vertx vertx, HttpServerOptions options, Handler<HttpServerRequest> handler, int loops) {
    if (loops < 1) {
      throw new IllegalArgumentException("event loops must be at least 1, got " + loops);
    }
    var listeners = new ConversionListeners();
    // Vert.x shares a port between servers of one host and port; port 0 is never shared, a
    // negative one is: the first server binds a free port and the others join it
    int port = options.getPort() == 0 ? -1 : options.getPort();
    return listeners.deploy(vertx, options, port, handler, loops).map(id -> listeners);
  }

  private Future<String> deploy(
      Vertx vertx,
      HttpServerOptions options,
      int port,
      Handler<HttpServerRequest> handler,
      int instances) {
    return vertx.deployVerticle(
        () ->
            new VerticleBase() {
              @Override
              public Future<?> start() {
                var server = vertx.createHttpServer(options).requestHandler(handler);
                return server.listen(port, options.getHost()).onSuccess(servers::add);
              }
            },
        new DeploymentOptions().setInstances(instances));
  }

  /** The port every server listens on. */
  public int port() {
    return servers.getFirst().actualPort();
  }

  /** The port of each server (all the same: they share it). */
  public List<Integer> ports() {
    return servers.stream().map(HttpServer::actualPort).toList();
  }

  /** How many servers (event loops) listen. */
  public int loops() {
    return servers.size();
  }

  /**
   * Swaps the certificate for new connections of every server: servers that share a port share one
   * SSL context, so one call changes it for all (a second call with the same options would answer
   * that nothing changed). True when the certificate was taken.
   */
  public Future<Boolean> updateSSLOptions(ServerSSLOptions ssl) {
    return servers.getFirst().updateSSLOptions(ssl);
  }

  /** Stops accepting and waits up to {@code grace} for requests in flight on every server. */
  public Future<Void> shutdown(Duration grace) {
    return Future.join(servers.stream().map(s -> shutdown(s, grace)).toList()).mapEmpty();
  }

  private static Future<Void> shutdown(HttpServer server, Duration grace) {
    try {
      return server.shutdown(grace);
    } catch (RuntimeException e) { // e.g. its event loop has stopped already
      return Future.failedFuture(e);
    }
  }
}
