package dev.versio.webhook.forward;

import dev.versio.api.served.ServedTargetsAggregator.Peer;
import dev.versio.api.tls.TlsPolicy;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.net.ClientSSLOptions;
import io.vertx.core.net.PemTrustOptions;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Passes a review for a target this replica does not hold to a live replica that does, over one
 * kept-alive HTTP/2 connection per peer, and hands back its answer unchanged. The forwarded request
 * carries {@link #HOP_HEADER}, so it is never forwarded again; a peer that no longer holds the
 * target says so with {@link #NOT_HELD_HEADER} (it converts nothing), and the next holder is tried
 * once. Every forward ends within the budget, retry included; a slow peer fails fast instead of
 * holding the review. Peers are trusted by the CA that signs every serving certificate behind the
 * front (their addresses are pod IPs, which their certificates do not name).
 */
public final class ReviewForwarder implements AutoCloseable {
  /** Set on a forwarded review (to the forwarding replica's name): answer it here or not at all. */
  public static final String HOP_HEADER = "Versio-Forwarded-By";

  /** Set on the answer of a replica that got a forwarded review for a target it does not hold. */
  public static final String NOT_HELD_HEADER = "Versio-Not-Held";

  /** Holders tried for one review. */
  static final int MAX_ATTEMPTS = 2;

  /** Streams one connection to a peer carries at once; more wait in the pool's queue. */
  static final int STREAMS_PER_PEER = 64;

  /** Reviews that may wait for a stream to one peer; more fail at once. */
  static final int QUEUE_PER_PEER = 256;

  /** What came of a forward. */
  public sealed interface Answer {
    /** A peer answered (whatever it answered is passed on). */
    record Relayed(Peer peer, int status, String contentType, Buffer body) implements Answer {}

    /** No live replica holds the target. */
    record NoHolder() implements Answer {}

    /** Holders exist but none answered within the budget. */
    record Failed(String reason) implements Answer {}
  }

  private final Vertx vertx;
  private final PeerRoutes routes;
  private final Forwarding forwarding;
  private final String self;
  private final HttpClientAgent client;
  private final AtomicInteger turn = new AtomicInteger();

  /**
   * @param self this replica's name, sent in {@link #HOP_HEADER}
   */
  public ReviewForwarder(Vertx vertx, PeerRoutes routes, Forwarding forwarding, String self) {
    this.vertx = vertx;
    this.routes = routes;
    this.forwarding = forwarding;
    this.self = Objects.requireNonNull(self, "self");
    var options =
        new HttpClientOptions()
            .setProtocolVersion(HttpVersion.HTTP_2)
            .setUseAlpn(true)
            .setSsl(true)
            .setVerifyHost(false)
            .setTrustOptions(trust())
            .setEnabledSecureTransportProtocols(new LinkedHashSet<>(TlsPolicy.PROTOCOLS))
            .setConnectTimeout((int) Math.max(1, forwarding.timeout().toMillis()))
            .setHttp2MultiplexingLimit(STREAMS_PER_PEER)
            .setHttp2KeepAliveTimeout(120)
            .setKeepAlive(true);
    this.client =
        vertx.createHttpClient(
            options, new PoolOptions().setHttp2MaxSize(1).setMaxWaitQueueSize(QUEUE_PER_PEER));
  }

  /**
   * The peer CA as read now: by value, not by path, so that a changed file makes options that
   * differ (Vert.x keeps SSL contexts per equal options).
   */
  private PemTrustOptions trust() {
    try {
      return new PemTrustOptions()
          .addCertValue(Buffer.buffer(java.nio.file.Files.readAllBytes(forwarding.peerCa())));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(
          "cannot read the peer CA " + forwarding.peerCa() + " (--peer-ca)", e);
    }
  }

  /** Reads the peer CA file again (a CA rotation adds a CA to it before any leaf uses it). */
  public Future<Boolean> reloadTrust() {
    try {
      return client.updateSSLOptions(new ClientSSLOptions().setTrustOptions(trust()));
    } catch (RuntimeException e) {
      return Future.failedFuture(e);
    }
  }

  /** Whether some other live replica holds {@code target}. */
  public boolean held(String target) {
    return !routes.holders(target).isEmpty();
  }

  /** Sends {@code body} (a ConversionReview for {@code target}) to a holder; never fails. */
  public Future<Answer> forward(String target, Buffer body, String contentType) {
    var holders = routes.holders(target);
    if (holders.isEmpty()) {
      return Future.succeededFuture(new Answer.NoHolder());
    }
    var promise = Promise.<Answer>promise();
    var inFlight = new AtomicReference<HttpClientRequest>();
    long timer =
        vertx.setTimer(
            forwarding.timeout().toMillis(),
            id -> {
              if (promise.tryComplete(
                  new Answer.Failed(
                      "no answer from a holder within "
                          + forwarding.timeout().toMillis()
                          + " ms (--forward-timeout)"))) {
                var request = inFlight.get();
                if (request != null) {
                  request.reset();
                }
              }
            });
    int start = Math.floorMod(turn.getAndIncrement(), holders.size());
    attempt(target, body, contentType, holders, start, 0, promise, inFlight, null);
    return promise.future().andThen(ar -> vertx.cancelTimer(timer));
  }

  private void attempt(
      String target,
      Buffer body,
      String contentType,
      List<Peer> holders,
      int start,
      int attempt,
      Promise<Answer> promise,
      AtomicReference<HttpClientRequest> inFlight,
      String lastProblem) {
    if (attempt >= Math.min(MAX_ATTEMPTS, holders.size()) || promise.future().isComplete()) {
      promise.tryComplete(new Answer.Failed(lastProblem));
      return;
    }
    var peer = holders.get((start + attempt) % holders.size());
    Future<HttpClientRequest> sent;
    try {
      sent = client.request(request(peer, target, contentType));
    } catch (RuntimeException e) { // a malformed address, or a host Vert.x refuses before any I/O
      sent = Future.failedFuture(e);
    }
    sent.compose(
            req -> {
              if (promise.future().isComplete()) {
                // the budget ran out while this waited for a stream: never sent
                req.reset();
                return Future.failedFuture("the forwarding budget ran out before it was sent");
              }
              inFlight.set(req);
              return req.send(body);
            })
        .compose(
            response ->
                response
                    .body()
                    .map(
                        answer ->
                            response.getHeader(NOT_HELD_HEADER) != null
                                ? (Answer) new Answer.Failed(peer.replica() + " no longer holds it")
                                : retryable(response.statusCode())
                                    ? new Answer.Failed(
                                        peer.replica() + " answered HTTP " + response.statusCode())
                                    : new Answer.Relayed(
                                        peer,
                                        response.statusCode(),
                                        response.getHeader("Content-Type"),
                                        answer)))
        .onComplete(
            ar -> {
              if (ar.succeeded() && ar.result() instanceof Answer.Relayed relayed) {
                promise.tryComplete(relayed);
                return;
              }
              var problem =
                  ar.succeeded()
                      ? ((Answer.Failed) ar.result()).reason()
                      : peer.replica() + " (" + peer.address() + "): " + ar.cause().getMessage();
              attempt(
                  target,
                  body,
                  contentType,
                  holders,
                  start,
                  attempt + 1,
                  promise,
                  inFlight,
                  problem);
            });
  }

  /** 429 (the peer is full) and 5xx are tried on the next holder; anything else is its answer. */
  private static boolean retryable(int status) {
    return status == 429 || status >= 500;
  }

  /**
   * The request to {@code peer}: its {@code host:port} as published ({@code [v6]:port} keeps its
   * brackets, which Vert.x needs for an IPv6 host); a malformed address is refused.
   */
  private RequestOptions request(Peer peer, String target, String contentType) {
    var address = peer.address();
    int colon = address.lastIndexOf(':');
    if (colon <= 0 || colon == address.length() - 1) {
      throw new IllegalArgumentException("peer address '" + address + "' is not host:port");
    }
    int port;
    try {
      port = Integer.parseInt(address.substring(colon + 1));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("peer address '" + address + "' has no numeric port");
    }
    return new RequestOptions()
        .setMethod(HttpMethod.POST)
        .setHost(address.substring(0, colon))
        .setPort(port)
        .setURI("/convert/" + target)
        // waiting for a connection or a stream counts against the budget too
        .setConnectTimeout(Math.max(1, forwarding.timeout().toMillis()))
        .putHeader("Content-Type", contentType == null ? "application/json" : contentType)
        .putHeader(HOP_HEADER, self);
  }

  @Override
  public void close() {
    client.close();
  }
}
