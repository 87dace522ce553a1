package dev.versio.operator.admission;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * HTTP transport of the admission webhook: path, method, content type and size checks, then the
 * {@link AdmissionProcessor} on a worker thread (it reads from the apiserver, which must never
 * block the event loop). It only moves bytes.
 */
public final class AdmissionEndpoint {
  /**
   * Larger request bodies are refused with 413 (the apiserver's own objects stay below 1.5 MiB).
   */
  public static final long MAX_BODY_BYTES = 3L * 1024 * 1024;

  private static final Logger LOG = LoggerFactory.getLogger(AdmissionEndpoint.class);

  private final Vertx vertx;
  private final AdmissionProcessor processor;
  private final long maxBodyBytes;

  public AdmissionEndpoint(Vertx vertx, AdmissionProcessor processor, long maxBodyBytes) {
    this.vertx = vertx;
    this.processor = processor;
    this.maxBodyBytes = maxBodyBytes;
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
    if (length != null) {
      try {
        if (Long.parseLong(length.strip()) > maxBodyBytes) {
          tooLarge(req);
          return;
        }
      } catch (NumberFormatException e) {
        plain(req, 400, "invalid Content-Length '" + length + "'");
        return;
      }
    }
    var body = Buffer.buffer();
    var refused = new boolean[1];
    req.handler(
        chunk -> {
          if (refused[0]) {
            return;
          }
          if (body.length() + chunk.length() > maxBodyBytes) {
            refused[0] = true;
            tooLarge(req);
            return;
          }
          body.appendBuffer(chunk);
        });
    req.exceptionHandler(e -> LOG.debug("admission request to {} failed: {}", path, e.toString()));
    req.endHandler(
        v -> {
          if (refused[0]) {
            return;
          }
          var bytes = body.getBytes();
          vertx
              .executeBlocking(() -> processor.process(path, bytes), false)
              .onComplete(
                  ar -> {
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
