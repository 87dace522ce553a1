package dev.versio.webhook.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.versio.engine.json.EngineJson;
import dev.versio.webhook.metrics.WebhookMetrics;
import dev.versio.webhook.registry.Registry;
import io.vertx.core.http.HttpServerRequest;
import java.util.function.BooleanSupplier;

/**
 * The plain-HTTP ops port: {@code /healthz} (the process is alive), {@code /readyz} (503 until the
 * first complete sync), {@code /metrics} (Prometheus text) and, only when switched on, {@code
 * /debug/registry} (what this replica holds, including error-only entries).
 */
public final class OpsEndpoint {
  private final ObjectMapper json = EngineJson.newMapper();
  private final Registry registry;
  private final WebhookMetrics metrics;
  private final BooleanSupplier ready;
  private final boolean debug;

  public OpsEndpoint(
      Registry registry, WebhookMetrics metrics, BooleanSupplier ready, boolean debug) {
    this.registry = registry;
    this.metrics = metrics;
    this.ready = ready;
    this.debug = debug;
  }

  public void handle(HttpServerRequest req) {
    switch (req.path()) {
      case "/healthz" -> ConversionEndpoint.plain(req, 200, "ok");
      case "/readyz" -> {
        if (ready.getAsBoolean()) {
          ConversionEndpoint.plain(req, 200, "ok");
        } else {
          ConversionEndpoint.plain(req, 503, "registry not yet fully synced");
        }
      }
      case "/metrics" ->
          req.response()
              .putHeader("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
              .end(metrics.scrape());
      case "/debug/registry" -> {
        if (debug) {
          req.response().putHeader("Content-Type", "application/json").end(debugRegistry());
        } else {
          ConversionEndpoint.plain(
              req,
              404,
              "/debug/registry is off: start the webhook server with --enable-debug-endpoints");
        }
      }
      default ->
          ConversionEndpoint.plain(
              req,
              404,
              "not found: /healthz, /readyz, /metrics" + (debug ? ", /debug/registry" : ""));
    }
  }

  private String debugRegistry() {
    var array = EngineJson.nodes().arrayNode();
    registry.snapshot().values().stream()
        .sorted((a, b) -> a.target().compareTo(b.target()))
        .forEach(
            e -> {
              var o = array.addObject();
              o.put("target", e.target());
              o.put("ready", e.servable());
              o.put("config", e.config());
              o.put("planHash", e.planHash());
              o.put("compiledAt", e.compiledAt() == null ? null : e.compiledAt().toString());
              o.put("lastError", e.lastError());
              o.put("lastErrorAt", e.lastErrorAt() == null ? null : e.lastErrorAt().toString());
              var versions = o.putArray("versions");
              e.versions().forEach(versions::add);
            });
    try {
      return json.writerWithDefaultPrettyPrinter().writeValueAsString(array);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
