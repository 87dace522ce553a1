package dev.versio.operator.admission;

import dev.versio.api.http.InFlightLimits;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpVersion;
import java.time.Duration;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * HTTP transport of the admission webhook: path, method, content type and size checks, then the
 * {@link AdmissionProcessor} on a worker thread (it reads from the apiserver, which must never
 * block the event loop). It only moves bytes. Requests in flight are bounded in number, per client
 * and in body bytes ({@link InFlightLimits}; beyond them 429 at once), and a body must arrive
 * within {@link #BODY_TIMEOUT} (then 408 and the connection or stream is closed): with {@code
 * failurePolicy: Fail}, a replica whose heap filled with slow requests would block every write of a
 * config.
 */
public final class AdmissionEndpoint {
  /**
   * Larger request bodies are refused with 413 (the apiserver's own objects stay below 1.5 MiB).
   */
  public static final long MAX_BODY_BYTES = 3L * 1024 * 1024;

  /**
   * 64 requests at once, 32 of one client: the apiserver sends one review per config write, each
   * answered in milliseconds.
   */
  public static final int MAX_IN_FLIGHT = 64;

  /** How long a request may take to send its body (the apiserver sends it at once). */
  public static final Duration BODY_TIMEOUT = Duration.ofSeconds(10);

  private static final Logger LOG = LoggerFactory.getLogger(AdmissionEndpoint.class);

  private final Vertx vertx;
  private final AdmissionProcessor processor;
  private final long maxBodyBytes;
  private final InFlightLimits limits;
  private final Duration bodyTimeout;

  /**
   * With the default limits: {@link #MAX_IN_FLIGHT}, half of it per client, body bytes of a 32nd of
   * the heap (at least one body) and {@link #BODY_TIMEOUT}.
   */
  public AdmissionEndpoint(Vertx vertx, AdmissionProcessor processor, long maxBodyBytes) {
    this(
        vertx,
        processor,
        maxBodyBytes,
        new InFlightLimits(
            MAX_IN_FLIGHT,
            MAX_IN_FLIGHT / 2,
            Math.max(maxBodyBytes, Runtime.getRuntime().maxMemory() / 32)),
        BODY_TIMEOUT);
  }

  public AdmissionEndpoint(
      Vertx vertx,
      AdmissionProcessor processor,
      long maxBodyBytes,
      InFlightLimits limits,
      Duration bodyTimeout) {
    this.vertx = vertx;
    this.processor = processor;
    this.maxBodyBytes = maxBodyBytes;
    this.limits = limits;
    this.bodyTimeout = bodyTimeout;
  }

  /** Requests held now. */
  public int inFlight() {
    return limits.inFlight();
  }

  public void handle(HttpServerRequest req) {
    var path = req.path();
    if (WebhookRegistration.Webhook.byPath(path) == null) {
      plain(req, 404, "not found: admission reviews are served at " + WebhookRegistration.paths());
      return;
    }
    if (req.method() != HttpMethod.POST) {
      req.response().putHeader("Allow", "POST");
      plain(req, 405, "method not allowed: POST an AdmissionReview");
      return;
    }
    var contentType = req.getHeader("Content-Type");
    if (contentType != null
        && !contentType.toLowerCase(Locale.ROOT).startsWith("application/json")) {
      plain(req, 415, "unsupported content type '" + contentType + "': send application/json");
      return;
    }
    var length = req.getHeader("Content-Length");
    long declared = 0;
    if (length != null) {
      try {
        declared = Long.parseLong(length.strip());
      } catch (NumberFormatException e) {
        plain(req, 400, "invalid Content-Length '" + length + "'");
        return;
      }
      if (declared > maxBodyBytes) {
        tooLarge(req);
        return;
      }
    }
    var client = req.remoteAddress() == null ? "" : req.remoteAddress().hostAddress();
    if (!limits.fits(declared)) {
      overloaded(req, InFlightLimits.Refusal.BYTES);
      return;
    }
    InFlightLimits.Slot slot;
    switch (limits.admit(client)) {
      case InFlightLimits.Admission.Refused(var reason) -> {
        overloaded(req, reason);
        return;
      }
      case InFlightLimits.Admission.Admitted(var admitted) -> slot = admitted;
    }
    // held by the request until it is answered or gone, and by the worker until it is done
    var requestDone = new java.util.concurrent.atomic.AtomicBoolean();
    Runnable done =
        () -> {
          if (requestDone.compareAndSet(false, true)) {
            slot.release();
          }
        };
    req.response().endHandler(v -> done.run());
    req.response().closeHandler(v -> done.run());
    var body = Buffer.buffer();
    var refused = new boolean[1];
    long bodyTimer =
        vertx.setTimer(
            bodyTimeout.toMillis(),
            id -> {
              refused[0] = true;
              abort(
                  req, "the request body did not arrive within " + bodyTimeout.toMillis() + " ms");
            });
    req.handler(
        chunk -> {
          if (refused[0]) {
            return;
          }
          if (body.length() + chunk.length() > maxBodyBytes) {
            refused[0] = true;
            vertx.cancelTimer(bodyTimer);
            tooLarge(req);
            return;
          }
          if (!slot.charge(chunk.length())) { // counted as they arrive
            refused[0] = true;
            vertx.cancelTimer(bodyTimer);
            overloaded(req, InFlightLimits.Refusal.BYTES);
            return;
          }
          body.appendBuffer(chunk);
        });
    req.exceptionHandler(
        e -> {
          vertx.cancelTimer(bodyTimer);
          done.run();
          LOG.debug("admission request to {} failed: {}", path, e.toString());
        });
    req.endHandler(
        v -> {
          vertx.cancelTimer(bodyTimer);
          if (refused[0]) {
            return;
          }
          var bytes = body.getBytes();
          if (!slot.retain()) {
            return; // the client went away
          }
          vertx
              .executeBlocking(() -> processor.process(path, bytes), false)
              .onComplete(
                  ar -> {
                    slot.release(); // the worker's hold
                    if (ar.failed()) {
                      LOG.error("admission request to {} failed", path, ar.cause());
                      plain(req, 500, "internal error");
                      return;
                    }
                    var outcome = ar.result();
                    if (req.response().ended()) {
                      return;
                    }
                    req.response()
                        .setStatusCode(outcome.status())
                        .putHeader("Content-Type", outcome.contentType())
                        .end(Buffer.buffer(outcome.body()));
                  });
        });
  }

  private void overloaded(HttpServerRequest req, InFlightLimits.Refusal reason) {
    req.response().putHeader("Retry-After", "1");
    plain(
        req,
        429,
        switch (reason) {
          case TOTAL -> "overloaded: " + limits.total() + " admission reviews in flight; retry";
          case CLIENT ->
              "overloaded: this client has "
                  + limits.perClient()
                  + " admission reviews in flight; retry";
          case BYTES ->
              "overloaded: the request bodies in flight hold " + limits.bytes() + " bytes; retry";
        });
  }

  /** 408 for a body that stopped arriving; the connection (HTTP/1.1) or stream (HTTP/2) ends. */
  private static void abort(HttpServerRequest req, String text) {
    if (req.response().ended()) {
      return;
    }
    var written =
        req.response()
            .setStatusCode(408)
            .putHeader("Content-Type", "text/plain; charset=utf-8")
            .end(text + "\n");
    if (req.version() == HttpVersion.HTTP_2) {
      written.onComplete(v -> req.response().reset(0)); // NO_ERROR: the answer is complete
    } else {
      written.onComplete(v -> req.connection().close());
    }
  }

  private void tooLarge(HttpServerRequest req) {
    plain(req, 413, "request body is over the limit of " + maxBodyBytes + " bytes");
  }

  private static void plain(HttpServerRequest req, int status, String text) {
    if (req.response().ended()) {
      return;
    }
    req.response()
        .setStatusCode(status)
        .putHeader("Content-Type", "text/plain; charset=utf-8")
        .end(text + "\n");
  }
}
