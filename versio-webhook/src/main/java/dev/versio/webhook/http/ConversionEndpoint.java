package dev.versio.webhook.http;

import dev.versio.webhook.metrics.WebhookMetrics;
import dev.versio.webhook.review.ReviewOutcome;
import dev.versio.webhook.review.ReviewProcessor;
import dev.versio.webhook.review.ReviewResult;
import dev.versio.webhook.tracing.ReviewTracing;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * HTTP handling of {@code POST /convert/{target}}: method, content type and size checks, then the
 * pure {@link ReviewProcessor}. Small reviews are processed on the event loop; large ones on a
 * worker, so one big list never stalls other requests. No stack trace ever reaches a response.
 */
public final class ConversionEndpoint {
  private static final Logger LOG = LoggerFactory.getLogger(ConversionEndpoint.class);
  private static final String PREFIX = "/convert/";
  private static final int INLINE_LIMIT = 64 * 1024;

  private final Vertx vertx;
  private final ReviewProcessor processor;
  private final WebhookMetrics metrics;
  private final long maxBodyBytes;
  private final int maxInFlight;
  private final java.util.concurrent.atomic.AtomicInteger inFlight =
      new java.util.concurrent.atomic.AtomicInteger();
  private final ReviewTracing tracing;

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
   * @param maxInFlight reviews this endpoint holds at once (from arrival to the end of the answer);
   *     one more is refused with 429 and {@code Retry-After: 1} at once, before its body is read,
   *     so an overload never builds an unbounded queue of bodies
   */
  public ConversionEndpoint(
      Vertx vertx,
      ReviewProcessor processor,
      WebhookMetrics metrics,
      long maxBodyBytes,
      int maxInFlight,
      ReviewTracing tracing) {
    if (maxInFlight < 1) {
      throw new IllegalArgumentException("maxInFlight must be at least 1, got " + maxInFlight);
    }
    this.vertx = vertx;
    this.processor = processor;
    this.metrics = metrics;
    this.maxBodyBytes = maxBodyBytes;
    this.maxInFlight = maxInFlight;
    this.tracing = tracing;
    metrics.reviewsInFlight(inFlight::get);
  }

  /** Reviews held now. */
  public int inFlight() {
    return inFlight.get();
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
    var length = req.getHeader("Content-Length");
    if (length != null) {
      try {
        if (Long.parseLong(length) > maxBodyBytes) {
          plain(
              req,
              413,
              "request body of "
                  + length
                  + " bytes is over the limit of "
                  + maxBodyBytes
                  + " bytes");
          return;
        }
      } catch (NumberFormatException e) {
        plain(req, 400, "invalid Content-Length");
        return;
      }
    }
    if (inFlight.incrementAndGet() > maxInFlight) {
      inFlight.decrementAndGet();
      metrics.overloaded();
      req.response().putHeader("Retry-After", "1");
      plain(
          req,
          429,
          "overloaded: this replica has "
              + maxInFlight
              + " reviews in flight (--max-in-flight); retry, or add replicas");
      return;
    }
    // the slot is freed once, when the answer is written or the connection goes
    var released = new java.util.concurrent.atomic.AtomicBoolean();
    Runnable release =
        () -> {
          if (released.compareAndSet(false, true)) {
            inFlight.decrementAndGet();
          }
        };
    req.response().endHandler(v -> release.run());
    req.response().closeHandler(v -> release.run());
    long started = System.nanoTime();
    var span = tracing.start(req, target);
    var body = Buffer.buffer();
    var tooLarge = new boolean[1];
    req.handler(
        chunk -> {
          if (tooLarge[0]) {
            return;
          }
          if (body.length() + chunk.length() > maxBodyBytes) {
            tooLarge[0] = true;
            span.setAttribute(ReviewTracing.STATUS, 413L).end();
            plain(req, 413, "request body is over the limit of " + maxBodyBytes + " bytes");
            return;
          }
          body.appendBuffer(chunk);
        });
    req.exceptionHandler(
        e -> {
          release.run();
          span.setStatus(StatusCode.ERROR, "request failed while reading: " + e).end();
          LOG.debug("request to {} failed while reading: {}", target, e.toString());
        });
    req.endHandler(
        v -> {
          if (tooLarge[0]) {
            return;
          }
          var bytes = body.getBytes();
          if (bytes.length <= INLINE_LIMIT) {
            respond(req, target, process(target, bytes), started, span);
          } else {
            vertx
                .<ReviewOutcome>executeBlocking(() -> process(target, bytes), false)
                .onComplete(
                    ar ->
                        respond(
                            req,
                            target,
                            ar.succeeded()
                                ? ar.result()
                                : processor.internalFailure(target, bytes, ar.cause()),
                            started,
                            span));
          }
        });
  }

  /**
   * Processes a review; whatever breaks inside (a bug) becomes a Failure review, never a bare 500
   * or an unanswered request. Only a JVM in trouble (out of memory) is left to the JVM.
   */
  private ReviewOutcome process(String target, byte[] bytes) {
    try {
      return processor.process(target, bytes);
    } catch (VirtualMachineError e) {
      if (!(e instanceof StackOverflowError)) {
        throw e;
      }
      return processor.internalFailure(target, bytes, e);
    } catch (RuntimeException | Error e) {
      return processor.internalFailure(target, bytes, e);
    }
  }

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
    req.response()
        .setStatusCode(outcome.httpStatus())
        .putHeader("Content-Type", "application/json")
        .end(Buffer.buffer(processor.write(outcome.body())));
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
