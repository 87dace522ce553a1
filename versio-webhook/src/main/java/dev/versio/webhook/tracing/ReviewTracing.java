package dev.versio.webhook.tracing;

import dev.versio.webhook.review.ReviewOutcome;
import dev.versio.webhook.review.ReviewResult;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.vertx.core.http.HttpServerRequest;

/**
 * One span per ConversionReview, named {@code convert <target>}, child of the caller's W3C trace
 * context when the apiserver sends one. With the no-op OpenTelemetry (the default) this costs a few
 * allocations and records nothing.
 */
public final class ReviewTracing {
  public static final AttributeKey<String> TARGET = AttributeKey.stringKey("versio.target");
  public static final AttributeKey<String> UID = AttributeKey.stringKey("versio.review.uid");
  public static final AttributeKey<String> FROM = AttributeKey.stringKey("versio.from");
  public static final AttributeKey<String> TO = AttributeKey.stringKey("versio.to");
  public static final AttributeKey<Long> OBJECTS = AttributeKey.longKey("versio.objects");
  public static final AttributeKey<String> RESULT = AttributeKey.stringKey("versio.result");
  public static final AttributeKey<Long> STATUS = AttributeKey.longKey("http.response.status_code");

  private static final TextMapGetter<HttpServerRequest> HEADERS =
      new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(HttpServerRequest carrier) {
          return carrier.headers().names();
        }

        @Override
        public String get(HttpServerRequest carrier, String key) {
          return carrier == null ? null : carrier.getHeader(key);
        }
      };

  private final OpenTelemetry openTelemetry;
  private final Tracer tracer;

  public ReviewTracing(OpenTelemetry openTelemetry) {
    this.openTelemetry = openTelemetry;
    this.tracer = openTelemetry.getTracer("dev.versio.webhook");
  }

  /** Tracing off: nothing is recorded or exported. */
  public static ReviewTracing off() {
    return new ReviewTracing(OpenTelemetry.noop());
  }

  /** Starts the span of a review as its request arrives. */
  public Span start(HttpServerRequest request, String target) {
    var parent =
        openTelemetry
            .getPropagators()
            .getTextMapPropagator()
            .extract(Context.root(), request, HEADERS);
    return tracer
        .spanBuilder("convert " + target)
        .setParent(parent)
        .setSpanKind(SpanKind.SERVER)
        .setAttribute(TARGET, target)
        .startSpan();
  }

  /** Ends the span with what the review came to; anything but success is an error status. */
  public void end(Span span, ReviewOutcome outcome) {
    if (outcome.uid() != null) {
      span.setAttribute(UID, outcome.uid());
    }
    if (outcome.from() != null) {
      span.setAttribute(FROM, outcome.from());
    }
    if (outcome.to() != null) {
      span.setAttribute(TO, outcome.to());
    }
    span.setAttribute(OBJECTS, (long) outcome.objects());
    span.setAttribute(RESULT, outcome.result().label());
    span.setAttribute(STATUS, (long) outcome.httpStatus());
    if (outcome.result() != ReviewResult.SUCCESS) {
      span.setStatus(
          StatusCode.ERROR,
          outcome.failure() == null ? outcome.result().label() : outcome.failure());
    }
    span.end();
  }
}
