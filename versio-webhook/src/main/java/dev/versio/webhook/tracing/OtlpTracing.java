package dev.versio.webhook.tracing;

import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporter;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import java.net.URI;
import java.util.concurrent.TimeUnit;

/**
 * Exports review spans over OTLP/HTTP (JDK HTTP client) in batches, sampling a ratio of new traces
 * and following the caller's decision for traces it continues. Closing flushes what is buffered.
 */
public final class OtlpTracing implements AutoCloseable {
  private final OpenTelemetrySdk sdk;

  /**
   * @param endpoint the collector's traces URL, e.g. {@code http://otel-collector:4318/v1/traces}
   * @param sampleRatio the share of new traces recorded, 0..1
   * @param serverName this replica's server name, recorded as {@code service.instance.id}
   */
  public OtlpTracing(URI endpoint, double sampleRatio, String serverName) {
    if (!(sampleRatio >= 0 && sampleRatio <= 1)) {
      throw new IllegalArgumentException(
          "the trace sample ratio must be between 0 and 1, not " + sampleRatio);
    }
    var scheme = endpoint.getScheme();
    if (!"http".equals(scheme) && !"https".equals(scheme)) {
      throw new IllegalArgumentException(
          "the OTLP traces endpoint must be an http(s) URL such as"
              + " http://otel-collector:4318/v1/traces, not '"
              + endpoint
              + "'");
    }
    var exporter = OtlpHttpSpanExporter.builder().setEndpoint(endpoint.toString()).build();
    var provider =
        SdkTracerProvider.builder()
            .setResource(
                Resource.getDefault()
                    .merge(
                        Resource.create(
                            Attributes.builder()
                                .put("service.name", "versio-webhook")
                                .put("service.instance.id", serverName)
                                .build())))
            .setSampler(Sampler.parentBased(Sampler.traceIdRatioBased(sampleRatio)))
            .addSpanProcessor(BatchSpanProcessor.builder(exporter).build())
            .build();
    sdk =
        OpenTelemetrySdk.builder()
            .setTracerProvider(provider)
            .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
            .build();
  }

  public ReviewTracing reviewTracing() {
    return new ReviewTracing(sdk);
  }

  @Override
  public void close() {
    sdk.getSdkTracerProvider().shutdown().join(5, TimeUnit.SECONDS);
  }
}
