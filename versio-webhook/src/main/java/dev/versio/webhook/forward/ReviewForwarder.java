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
import java.util.ArrayList;
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
 * once; a holder that has not answered within the hedge ({@link Forwarding#hedgeAfter()}) gets
 * company: the next holder is asked too and the first answer wins. Every forward ends within the
 * budget, retry included; a slow peer fails fast instead of holding the review. Peers are trusted
 * by the CA that signs every serving certificate behind the front (their addresses are pod IPs,
 * which their certificates do not name).
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

  /**
   * Hedges in flight at once: when every holder is slow because all are overloaded, hedging more
   * would only add load; beyond this, a slow holder is waited for as without the hedge.
   */
  static final int MAX_HEDGES_IN_FLIGHT = 16;

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
  private final AtomicInteger hedgesInFlight = new AtomicInteger();
  private final Runnable hedged;

  /**
   * @param self this replica's name, sent in {@link #HOP_HEADER}
   */
  public ReviewForwarder(Vertx vertx, PeerRoutes routes, Forwarding forwarding, String self) {
    this(vertx, routes, forwarding, self, () -> {});
  }

  /**
   * @param self this replica's name, sent in {@link #HOP_HEADER}
   * @param hedged called each time a second holder is asked because the first had not answered
   *     within {@link Forwarding#hedgeAfter()}
   */
  public ReviewForwarder(
      Vertx vertx, PeerRoutes routes, Forwarding forwarding, String self, Runnable hedged) {
    this.hedged = Objects.requireNonNull(hedged, "hedged");
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
    return forward(routes.holders(target), target, body, contentType);
  }

  /** How long a holder may take before another is asked too ({@code --forward-hedge-after}). */
  public java.time.Duration hedgeAfter() {
    return forwarding.hedgeAfter();
  }

  /**
   * As {@link #forward(String, Buffer, String)}, to a holder among the replicas of {@code server}
   * only: the server a target was handed over to.
   */
  public Future<Answer> forward(String target, String server, Buffer body, String contentType) {
    return forward(
        routes.holders(target).stream().filter(p -> p.server().equals(server)).toList(),
        target,
        body,
        contentType);
  }

  private Future<Answer> forward(
      List<Peer> holders, String target, Buffer body, String contentType) {
    if (holders.isEmpty()) {
      return Future.succeededFuture(new Answer.NoHolder());
    }
    int start = Math.floorMod(turn.getAndIncrement(), holders.size());
    return new Forward(target, body, contentType, holders, start).run();
  }

  /** A request sent to a holder, and the moment its headers were written. */
  private record Sent(HttpClientRequest request, Future<Void> head) {}

  /**
   * One review on its way: holders are asked in turn, at most {@link #MAX_ATTEMPTS} of them; the
   * next one is asked when the previous fails, or when it has not answered within the hedge. The
   * first answer wins and the other request is reset; the budget ends it either way.
   */
  private final class Forward {
    private final String target;
    private final Buffer body;
    private final String contentType;
    private final List<Peer> holders;
    private final int start;
    private final int maxAttempts;
    private final Promise<Answer> promise = Promise.promise();
    // guarded by this: attempts may complete on different event loops
    private final List<Sent> sent = new ArrayList<>();
    private int launched;
    private int failed;
    private String lastProblem;

    Forward(String target, Buffer body, String contentType, List<Peer> holders, int start) {
      this.target = target;
      this.body = body;
      this.contentType = contentType;
      this.holders = holders;
      this.start = start;
      this.maxAttempts = Math.min(MAX_ATTEMPTS, holders.size());
    }

    Future<Answer> run() {
      long budget =
          vertx.setTimer(
              forwarding.timeout().toMillis(),
              id ->
                  finish(
                      new Answer.Failed(
                          "no answer from a holder within "
                              + forwarding.timeout().toMillis()
                              + " ms (--forward-timeout)"),
                      null));
      long hedge =
          maxAttempts > 1 && forwarding.hedgeAfter().isPositive()
              ? vertx.setTimer(forwarding.hedgeAfter().toMillis(), id -> hedge())
              : -1;
      launch();
      return promise
          .future()
          .andThen(
              ar -> {
                vertx.cancelTimer(budget);
                if (hedge >= 0) {
                  vertx.cancelTimer(hedge);
                }
              });
    }

    /** The first holder is slow: ask the next one too, unless too many hedges are out already. */
    private void hedge() {
      if (hedgesInFlight.incrementAndGet() > MAX_HEDGES_IN_FLIGHT) {
        hedgesInFlight.decrementAndGet();
        return;
      }
      if (launch()) {
        hedged.run();
        promise.future().onComplete(ignored -> hedgesInFlight.decrementAndGet());
      } else {
        hedgesInFlight.decrementAndGet();
      }
    }

    /** Asks the next holder; false when the forward is over or every holder it may ask was. */
    private boolean launch() {
      Peer peer;
      synchronized (this) {
        if (promise.future().isComplete() || launched >= maxAttempts) {
          return false;
        }
        peer = holders.get((start + launched) % holders.size());
        launched++;
      }
      send(peer);
      return true;
    }

    private void send(Peer peer) {
      var request = new AtomicReference<HttpClientRequest>();
      Future<HttpClientRequest> opened;
      try {
        opened = client.request(request(peer, target, contentType));
      } catch (RuntimeException e) { // a malformed address, or a host Vert.x refuses before any I/O
        opened = Future.failedFuture(e);
      }
      opened
          .compose(
              req -> {
                // the headers go first, so that a stream id exists: resetting a request whose
                // headers were never written would not give its stream back to the connection
                req.exceptionHandler(ignored -> {}); // failures reach the response; resets are ours
                req.putHeader("Content-Length", Integer.toString(body.length()));
                var head = req.sendHead();
                boolean over;
                synchronized (this) {
                  over = promise.future().isComplete();
                  if (!over) {
                    sent.add(new Sent(req, head));
                    request.set(req);
                  }
                }
                if (over) {
                  // the forward ended while this waited for a stream: nothing more is sent
                  head.onComplete(ignored -> req.reset());
                  return Future.failedFuture("the forward ended before it was sent");
                }
                req.end(body);
                return req.response();
              })
          .compose(
              response ->
                  response
                      .body()
                      .map(
                          answer ->
                              response.getHeader(NOT_HELD_HEADER) != null
                                  ? (Answer)
                                      new Answer.Failed(peer.replica() + " no longer holds it")
                                  : retryable(response.statusCode())
                                      ? new Answer.Failed(
                                          peer.replica()
                                              + " answered HTTP "
                                              + response.statusCode())
                                      : new Answer.Relayed(
                                          peer,
                                          response.statusCode(),
                                          response.getHeader("Content-Type"),
                                          answer)))
          .onComplete(
              ar -> {
                if (ar.succeeded() && ar.result() instanceof Answer.Relayed relayed) {
                  finish(relayed, request.get());
                } else {
                  failedAttempt(
                      ar.succeeded()
                          ? ((Answer.Failed) ar.result()).reason()
                          : peer.replica()
                              + " ("
                              + peer.address()
                              + "): "
                              + ar.cause().getMessage());
                }
              });
    }

    /** An attempt failed: ask the next holder, or end once no attempt is left in flight. */
    private void failedAttempt(String problem) {
      synchronized (this) {
        failed++;
        lastProblem = problem;
      }
      if (launch()) {
        return;
      }
      String last;
      synchronized (this) {
        if (failed < launched) {
          return; // another holder is still answering
        }
        last = lastProblem;
      }
      finish(new Answer.Failed(last), null);
    }

    /** Ends the forward with {@code answer}; every other request still open is reset. */
    private void finish(Answer answer, HttpClientRequest winner) {
      if (!promise.tryComplete(answer)) {
        return;
      }
      List<Sent> open;
      synchronized (this) {
        open = List.copyOf(sent);
      }
      for (var other : open) {
        if (other.request() != winner) {
          // once its headers are out (a reset before them would keep the stream's slot)
          other.head().onComplete(ignored -> other.request().reset());
        }
      }
    }
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
