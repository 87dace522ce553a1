package dev.versio.webhook.http;

import dev.versio.api.http.InFlightLimits;
import dev.versio.webhook.forward.Handovers;
import dev.versio.webhook.forward.ReviewForwarder;
import dev.versio.webhook.metrics.WebhookMetrics;
import dev.versio.webhook.registry.RegistryEntry;
import dev.versio.webhook.review.ReviewOutcome;
import dev.versio.webhook.review.ReviewProcessor;
import dev.versio.webhook.review.ReviewProgress;
import dev.versio.webhook.review.ReviewResult;
import dev.versio.webhook.tracing.ReviewTracing;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpVersion;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * HTTP handling of {@code POST /convert/{target}}: method, content type and size checks, then the
 * pure {@link ReviewProcessor}. A small review whose target runs no script costs time in proportion
 * to its size and is processed on the event loop; every other review runs on a worker under a
 * wall-clock budget, after which it is answered with a Failure naming the budget, so no review
 * holds a listener or waits on another. No stack trace ever reaches a response.
 */
public final class ConversionEndpoint {
  private static final Logger LOG = LoggerFactory.getLogger(ConversionEndpoint.class);
  private static final String PREFIX = "/convert/";
  private static final int INLINE_LIMIT = 64 * 1024;

  /** HTTP/2 error code NO_ERROR. */
  private static final long NO_ERROR = 0x0;

  /** The metric label and span name of a path that names no target this replica holds. */
  public static final String UNKNOWN_TARGET = "unknown";

  /**
   * Threads for reviews off the event loops: enough that a few reviews running for their whole
   * budget leave others a thread, few enough that their memory stays small.
   */
  private static final int WORKERS = Math.max(4, 2 * Runtime.getRuntime().availableProcessors());

  private final Vertx vertx;
  private final ReviewProcessor processor;
  private final WebhookMetrics metrics;
  private final long maxBodyBytes;
  private final InFlightLimits limits;
  private final Duration bodyTimeout;
  private final ReviewTracing tracing;
  private final Duration reviewBudget;
  private final WorkerExecutor workers;
  private final ReviewForwarder forwarder;
  private final Handovers handovers;

  public ConversionEndpoint(
      Vertx vertx, ReviewProcessor processor, WebhookMetrics metrics, long maxBodyBytes) {
    this(vertx, processor, metrics, maxBodyBytes, ReviewTracing.off());
  }

  public ConversionEndpoint(
      Vertx vertx,
      ReviewProcessor processor,
      WebhookMetrics metrics,
      long maxBodyBytes,
      ReviewTracing tracing) {
    this(
        vertx,
        processor,
        metrics,
        maxBodyBytes,
        dev.versio.webhook.WebhookServerOptions.DEFAULT_MAX_IN_FLIGHT,
        tracing);
  }

  /**
   * {@code maxInFlight} reviews at once (one more is refused with 429 and {@code Retry-After: 1} at
   * once, before its body is read), with the default review budget and no share per client.
   */
  public ConversionEndpoint(
      Vertx vertx,
      ReviewProcessor processor,
      WebhookMetrics metrics,
      long maxBodyBytes,
      int maxInFlight,
      ReviewTracing tracing) {
    this(
        vertx,
        processor,
        metrics,
        ReviewLimits.of(
            maxBodyBytes,
            maxInFlight,
            dev.versio.webhook.WebhookServerOptions.DEFAULT_REVIEW_BUDGET),
        tracing);
  }

  public ConversionEndpoint(
      Vertx vertx,
      ReviewProcessor processor,
      WebhookMetrics metrics,
      ReviewLimits limits,
      ReviewTracing tracing) {
    this(vertx, processor, metrics, limits, tracing, null);
  }

  /**
   * As above, behind the pool's front: a review for a target this replica does not hold is passed
   * on by {@code forwarder} (null: answered here, as a review for an unknown target).
   */
  public ConversionEndpoint(
      Vertx vertx,
      ReviewProcessor processor,
      WebhookMetrics metrics,
      ReviewLimits limits,
      ReviewTracing tracing,
      ReviewForwarder forwarder) {
    this(vertx, processor, metrics, limits, tracing, forwarder, Handovers.NONE);
  }

  /**
   * As above; a review for a target this replica still holds but has handed over (see {@link
   * Handovers}) is passed to the server it was handed over to, and answered here only when none of
   * that server's replicas answers.
   */
  public ConversionEndpoint(
      Vertx vertx,
      ReviewProcessor processor,
      WebhookMetrics metrics,
      ReviewLimits limits,
      ReviewTracing tracing,
      ReviewForwarder forwarder,
      Handovers handovers) {
    this.forwarder = forwarder;
    this.handovers = java.util.Objects.requireNonNull(handovers, "handovers");
    this.vertx = vertx;
    this.processor = processor;
    this.metrics = metrics;
    this.maxBodyBytes = limits.maxBodyBytes();
    this.limits = limits.inFlight();
    this.bodyTimeout = limits.bodyTimeout();
    this.tracing = tracing;
    this.reviewBudget = limits.reviewBudget();
    this.workers =
        vertx.createSharedWorkerExecutor(
            "versio-reviews", WORKERS, reviewBudget.toNanos(), TimeUnit.NANOSECONDS);
    metrics.reviewsInFlight(this.limits::inFlight);
  }

  /** Reviews held now. */
  public int inFlight() {
    return limits.inFlight();
  }

  /** Body bytes held now. */
  public long bytesInFlight() {
    return limits.bytesInFlight();
  }

  public void handle(HttpServerRequest req) {
    var path = req.path();
    if (!path.startsWith(PREFIX)
        || path.length() == PREFIX.length()
        || path.indexOf('/', PREFIX.length()) >= 0) {
      plain(req, 404, "not found: conversions are served at POST /convert/<target>");
      return;
    }
    var target = path.substring(PREFIX.length());
    // metrics and spans name only targets this replica holds: a made-up path is "unknown"
    var label = processor.holds(target) ? target : UNKNOWN_TARGET;
    if (req.method() != HttpMethod.POST) {
      req.response().putHeader("Allow", "POST");
      plain(req, 405, "method not allowed: use POST");
      return;
    }
    var contentType = req.getHeader("Content-Type");
    if (contentType != null
        && !contentType.toLowerCase(Locale.ROOT).startsWith("application/json")) {
      plain(req, 415, "unsupported content type '" + contentType + "': send application/json");
      return;
    }
    long declared;
    try {
      var length = req.getHeader("Content-Length");
      declared = length == null ? 0 : Long.parseLong(length.strip());
    } catch (NumberFormatException e) {
      plain(req, 400, "invalid Content-Length");
      return;
    }
    if (declared > maxBodyBytes) {
      plain(
          req,
          413,
          "request body of " + declared + " bytes is over the limit of " + maxBodyBytes + " bytes");
      return;
    }
    var client = req.remoteAddress() == null ? "" : req.remoteAddress().hostAddress();
    boolean fromPeer = req.getHeader(ReviewForwarder.HOP_HEADER) != null;
    if (!limits.fits(declared)) {
      refuse(req, InFlightLimits.Refusal.BYTES); // at once, before any of the body is read
      return;
    }
    InFlightLimits.Slot slot;
    switch (limits.admit(client)) {
      case InFlightLimits.Admission.Refused(var reason) -> {
        refuse(req, reason);
        return;
      }
      case InFlightLimits.Admission.Admitted(var admitted) -> slot = admitted;
    }
    // the request holds its slot until its answer is written or its connection goes; a worker
    // converting its body holds it too, until it has stopped (a client that goes early does not
    // free the memory its body still takes)
    var progress = new ReviewProgress();
    var requestDone = new AtomicBoolean();
    Runnable done =
        () -> {
          if (requestDone.compareAndSet(false, true)) {
            progress.stop();
            slot.release();
          }
        };
    req.response().endHandler(v -> done.run());
    req.response().closeHandler(v -> done.run());
    long started = System.nanoTime();
    var span = tracing.start(req, label);
    var body = Buffer.buffer();
    var refused = new boolean[1];
    long bodyTimer =
        vertx.setTimer(
            bodyTimeout.toMillis(),
            id -> {
              refused[0] = true;
              span.setAttribute(ReviewTracing.STATUS, 408L).end();
              abort(
                  req,
                  408,
                  "the request body did not arrive within "
                      + bodyTimeout.toMillis()
                      + " ms (--body-timeout)");
            });
    req.handler(
        chunk -> {
          if (refused[0]) {
            return;
          }
          if (body.length() + chunk.length() > maxBodyBytes) {
            refused[0] = true;
            vertx.cancelTimer(bodyTimer);
            span.setAttribute(ReviewTracing.STATUS, 413L).end();
            abort(req, 413, "request body is over the limit of " + maxBodyBytes + " bytes");
            return;
          }
          // bytes are counted as they arrive: a client holds only what it really sent
          if (!slot.charge(chunk.length())) {
            refused[0] = true;
            vertx.cancelTimer(bodyTimer);
            span.setAttribute(ReviewTracing.STATUS, 429L).end();
            metrics.overloaded();
            req.response().putHeader("Retry-After", "1");
            abort(req, 429, refusal(InFlightLimits.Refusal.BYTES));
            return;
          }
          body.appendBuffer(chunk);
        });
    req.exceptionHandler(
        e -> {
          vertx.cancelTimer(bodyTimer);
          done.run();
          span.setStatus(StatusCode.ERROR, "request failed while reading: " + e).end();
          LOG.debug("request to {} failed while reading: {}", label, e.toString());
        });
    req.endHandler(
        v -> {
          vertx.cancelTimer(bodyTimer);
          if (refused[0]) {
            return;
          }
          var bytes = body.getBytes();
          var held = processor.held(target);
          if (held.isEmpty()) {
            if (fromPeer) {
              // the forwarder's view was a moment old: it tries another holder
              span.setAttribute(ReviewTracing.STATUS, 404L).end();
              req.response().putHeader(ReviewForwarder.NOT_HELD_HEADER, "true");
              plain(req, 404, "this replica does not hold " + target);
              return;
            }
            if (forwarder != null) {
              relay(req, slot, progress, target, null, label, body, bytes, started, span);
              return;
            }
          } else if (!fromPeer && forwarder != null) {
            var destination = handovers.destinationOf(target);
            if (destination != null) {
              relay(req, slot, progress, target, destination, label, body, bytes, started, span);
              return;
            }
          }
          metrics.routed(fromPeer ? "from_peer" : "local");
          if (bytes.length <= INLINE_LIMIT && processor.proportional(target)) {
            respond(
                req,
                label,
                process(target, held, bytes, ReviewProgress.unbounded()),
                started,
                span);
          } else {
            processOnWorker(req, slot, progress, target, held, label, bytes, started, span);
          }
        });
  }

  /**
   * Passes a review for a target this replica does not hold (or has handed over to {@code server};
   * null: any holder) to a replica that does and answers with its answer; with no holder it is
   * answered here (no plan registered, or the plan still held), and when no holder answers in time,
   * with the plan still held or else a Failure naming what was tried. A handed-over target's review
   * waits for the destination only as long as the hedge: then the plan held here answers it, so a
   * stalled destination costs it a quarter of a second, not the forwarding budget.
   */
  private void relay(
      HttpServerRequest req,
      InFlightLimits.Slot slot,
      ReviewProgress progress,
      String target,
      String server,
      String label,
      Buffer body,
      byte[] bytes,
      long started,
      Span span) {
    if (!slot.retain()) {
      return; // the request went away meanwhile
    }
    long forwardStarted = System.nanoTime();
    var contentType = req.getHeader("Content-Type");
    var settled = new AtomicBoolean();
    long fallback =
        server == null || !forwarder.hedgeAfter().isPositive()
            ? -1
            : vertx.setTimer(
                forwarder.hedgeAfter().toMillis(),
                id -> {
                  if (processor.held(target).isPresent() && settled.compareAndSet(false, true)) {
                    metrics.forwarded("held_plan", 0);
                    answerHere(req, slot, progress, target, label, bytes, started, span);
                  }
                });
    (server == null
            ? forwarder.forward(target, body, contentType)
            : forwarder.forward(target, server, body, contentType))
        .onComplete(
            ar -> {
              slot.release(); // the forward's hold: its body is no longer needed
              if (fallback >= 0) {
                vertx.cancelTimer(fallback);
              }
              if (!settled.compareAndSet(false, true)) {
                return; // answered here already, with the plan held here
              }
              var answer =
                  ar.succeeded()
                      ? ar.result()
                      : new ReviewForwarder.Answer.Failed(String.valueOf(ar.cause()));
              switch (answer) {
                case ReviewForwarder.Answer.Relayed relayed -> {
                  metrics.forwarded("answered", System.nanoTime() - forwardStarted);
                  // a review of a target held here but handed over counts apart: a move's effect
                  metrics.routed(server == null ? "forwarded" : "handed_over");
                  span.setAttribute(ReviewTracing.STATUS, (long) relayed.status()).end();
                  if (!req.response().ended()) {
                    req.response()
                        .setStatusCode(relayed.status())
                        .putHeader(
                            "Content-Type",
                            relayed.contentType() == null
                                ? "application/json"
                                : relayed.contentType())
                        .end(relayed.body());
                  }
                }
                case ReviewForwarder.Answer.NoHolder ignored -> {
                  metrics.forwarded("no_holder", 0);
                  // answered here: "no plan registered", or the plan a handed-over target keeps
                  answerHere(req, slot, progress, target, label, bytes, started, span);
                }
                case ReviewForwarder.Answer.Failed failed
                    when processor.held(target).isPresent() -> {
                  metrics.forwarded("failed", 0);
                  LOG.warn(
                      "forwarding a review for {} failed: {}; answered with the plan held here",
                      target,
                      failed.reason());
                  answerHere(req, slot, progress, target, label, bytes, started, span);
                }
                case ReviewForwarder.Answer.Failed failed -> {
                  metrics.forwarded("failed", 0);
                  LOG.warn("forwarding a review for {} failed: {}", target, failed.reason());
                  // the UID is read back from a small body only: a large one is not parsed on
                  // the event loop for an answer that fails anyway
                  respond(
                      req,
                      label,
                      processor.forwardFailed(
                          target,
                          bytes.length <= INLINE_LIMIT ? bytes : new byte[0],
                          failed.reason()),
                      started,
                      span);
                }
              }
            });
  }

  /** Answers a review that was not forwarded after all here, as any review. */
  private void answerHere(
      HttpServerRequest req,
      InFlightLimits.Slot slot,
      ReviewProgress progress,
      String target,
      String label,
      byte[] bytes,
      long started,
      Span span) {
    metrics.routed("local");
    var held = processor.held(target);
    // a large body off the event loop
    if (bytes.length <= INLINE_LIMIT) {
      respond(req, label, process(target, held, bytes, ReviewProgress.unbounded()), started, span);
    } else {
      processOnWorker(req, slot, progress, target, held, label, bytes, started, span);
    }
  }

  /**
   * Processes a review on a worker; if it has not finished when its budget runs out, it is answered
   * with a Failure naming the budget and asked to stop before its next object. The review keeps its
   * slot (and so its bytes) until the worker is done, even when its client went away or the budget
   * answered it: reviews waiting for a worker are bounded by the slots.
   */
  private void processOnWorker(
      HttpServerRequest req,
      InFlightLimits.Slot slot,
      ReviewProgress progress,
      String target,
      Optional<RegistryEntry> held,
      String label,
      byte[] bytes,
      long started,
      Span span) {
    if (!slot.retain()) {
      return; // the request went away meanwhile
    }
    var answered = new AtomicBoolean(); // the timer and the worker's result race for the answer
    long timer =
        vertx.setTimer(
            Math.max(1, reviewBudget.toMillis()),
            id -> {
              if (answered.compareAndSet(false, true)) {
                progress.stop();
                respond(
                    req,
                    label,
                    processor.overBudget(target, progress, reviewBudget),
                    started,
                    span);
              }
            });
    workers
        .<ReviewOutcome>executeBlocking(() -> process(target, held, bytes, progress), false)
        .onComplete(
            ar -> {
              slot.release(); // the worker's hold: the body is no longer needed
              vertx.cancelTimer(timer);
              if (answered.compareAndSet(false, true)) {
                respond(
                    req,
                    label,
                    ar.succeeded()
                        ? ar.result()
                        : processor.internalFailure(target, bytes, ar.cause()),
                    started,
                    span);
              }
            });
  }

  /**
   * Processes a review; whatever breaks inside (a bug) becomes a Failure review, never a bare 500
   * or an unanswered request. Only a JVM in trouble (out of memory) is left to the JVM.
   */
  private ReviewOutcome process(
      String target, Optional<RegistryEntry> held, byte[] bytes, ReviewProgress progress) {
    try {
      return processor.process(target, held, bytes, progress);
    } catch (VirtualMachineError e) {
      if (!(e instanceof StackOverflowError)) {
        throw e;
      }
      return processor.internalFailure(target, bytes, e);
    } catch (RuntimeException | Error e) {
      return processor.internalFailure(target, bytes, e);
    }
  }

  /** Answers {@code outcome}; {@code target} is the metric label (a held target or unknown). */
  private void respond(
      HttpServerRequest req, String target, ReviewOutcome outcome, long started, Span span) {
    tracing.end(span, outcome);
    if (outcome.result() == ReviewResult.INTERNAL_ERROR) {
      // a bug: logged once, here, with its stack trace, and counted
      metrics.unexpected("review");
      LOG.error(
          "conversion of target {} failed inside Versio (request {}): {}",
          target,
          outcome.uid(),
          outcome.failure(),
          outcome.cause());
    } else if (outcome.result() == ReviewResult.BAD_REQUEST) {
      LOG.debug("bad conversion request for {}: {}", target, outcome.failure());
    } else if (outcome.failure() != null) {
      LOG.info(
          "conversion review for {} (request {}) failed: {}",
          target,
          outcome.uid(),
          outcome.failure());
    }
    metrics.review(target, outcome, System.nanoTime() - started);
    if (req.response().ended()) {
      return;
    }
    if (outcome.body() == null) {
      plain(req, outcome.httpStatus(), outcome.text());
      return;
    }
    byte[] answer;
    try {
      answer = processor.write(outcome.body());
    } catch (RuntimeException e) {
      // e.g. a converted object nested deeper than the writer allows: still an answer
      metrics.unexpected("write");
      LOG.error(
          "the answer to the review for {} (request {}) could not be written",
          target,
          outcome.uid(),
          e);
      answer = processor.write(processor.unwritable(outcome, e).body());
    }
    req.response()
        .setStatusCode(outcome.httpStatus())
        .putHeader("Content-Type", "application/json")
        .end(Buffer.buffer(answer));
  }

  /**
   * Answers a request refused by a limit: 429 with {@code Retry-After: 1}, counted. The connection
   * stays open (what the client still sends is discarded), so a client sees the answer, not a
   * broken pipe.
   */
  private void refuse(HttpServerRequest req, InFlightLimits.Refusal reason) {
    metrics.overloaded();
    req.response().putHeader("Retry-After", "1");
    plain(req, 429, refusal(reason));
  }

  private String refusal(InFlightLimits.Refusal reason) {
    return switch (reason) {
      case TOTAL ->
          "overloaded: this replica has "
              + limits.total()
              + " reviews in flight (--max-in-flight); retry, or add replicas";
      case CLIENT ->
          "overloaded: this client has "
              + limits.perClient()
              + " reviews in flight, its share (--max-in-flight-per-client); retry";
      case BYTES ->
          "overloaded: the bodies in flight hold this replica's budget of "
              + limits.bytes()
              + " bytes, or this client's share of it (--max-bytes-in-flight); retry, or add"
              + " replicas";
    };
  }

  /**
   * Answers a request whose body stopped arriving, and stops waiting for it: HTTP/1.1 closes the
   * connection once the answer is written, HTTP/2 resets only the stream, with NO_ERROR (RFC 9113
   * §8.1: a complete answer, and the client may stop sending).
   */
  private static void abort(HttpServerRequest req, int status, String text) {
    if (req.response().ended()) {
      return;
    }
    var written =
        req.response()
            .setStatusCode(status)
            .putHeader("Content-Type", "text/plain; charset=utf-8")
            .end(text + "\n");
    if (req.version() == HttpVersion.HTTP_2) {
      written.onComplete(v -> req.response().reset(NO_ERROR));
    } else {
      written.onComplete(v -> req.connection().close());
    }
  }

  static void plain(HttpServerRequest req, int status, String text) {
    if (req.response().ended()) {
      return;
    }
    req.response()
        .setStatusCode(status)
        .putHeader("Content-Type", "text/plain; charset=utf-8")
        .end(text + "\n");
  }
}
