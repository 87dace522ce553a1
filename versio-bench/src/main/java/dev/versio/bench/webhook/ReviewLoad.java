package dev.versio.bench.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.versio.engine.compile.CompileResult;
import dev.versio.engine.compile.Compiler;
import dev.versio.engine.json.EngineJson;
import dev.versio.engine.route.Router;
import dev.versio.engine.rule.ConfigParser;
import dev.versio.engine.schema.ResourceSchemas;
import dev.versio.testkit.tls.CertificateAuthority;
import dev.versio.webhook.http.ConversionEndpoint;
import dev.versio.webhook.metrics.WebhookMetrics;
import dev.versio.webhook.registry.Registry;
import dev.versio.webhook.review.ReviewProcessor;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.net.PemKeyCertOptions;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A loopback load generator for the conversion endpoint: the real Vert.x HTTPS server with the
 * field-rename story's plan, driven by the JDK HTTP client over TLS as an {@link OpenLoop}: a fixed
 * rate, latency from each request's scheduled send time (a stall is not hidden), at most {@code
 * concurrency} requests in flight, a per-request timeout; a request that times out, fails or is
 * unanswered at the end is an error with its cause, never a latency. Prints the achieved rates, the
 * errors by cause, p50/p99/p99.9/max of the answered requests, the in-process floor (Jackson parse
 * + serialize of the same review), and one {@code RESULT} line of JSON with all of it.
 *
 * <p>Usage: {@code ReviewLoad [rate=500] [seconds=20] [objects=1] [padKiB=0] [http=2|1.1]
 * [concurrency=32] [timeoutMs=10000]}
 */
public final class ReviewLoad {
  private static final int WARM_UP_SECONDS = 5;

  private ReviewLoad() {}

  public static void main(String[] args) throws Exception {
    int rate = arg(args, 0, 500);
    int seconds = arg(args, 1, 20);
    int objects = arg(args, 2, 1);
    int padKiB = arg(args, 3, 0);
    var version =
        args.length > 4 && args[4].equals("1.1")
            ? HttpClient.Version.HTTP_1_1
            : HttpClient.Version.HTTP_2;
    int concurrency = arg(args, 5, 32);
    var timeout = Duration.ofMillis(arg(args, 6, 10_000));
    var settings = new OpenLoop.Settings(rate, Duration.ofSeconds(seconds), concurrency, timeout);

    var registry = new Registry(Clock.systemUTC(), s -> {});
    registry.set("caches.example.com", storyRouter(), "crd/caches.example.com", "gen=1");
    var ca = CertificateAuthority.create("load");
    var cert = ca.issueServer("127.0.0.1");
    var vertx = Vertx.vertx();
    var endpoint =
        new ConversionEndpoint(
            vertx, new ReviewProcessor(registry), new WebhookMetrics(), 64L * 1024 * 1024);
    var server =
        vertx
            .createHttpServer(
                new HttpServerOptions()
                    .setHost("127.0.0.1")
                    .setPort(0)
                    .setSsl(true)
                    .setUseAlpn(true)
                    .setAlpnVersions(List.of(HttpVersion.HTTP_2, HttpVersion.HTTP_1_1))
                    .setKeyCertOptions(
                        new PemKeyCertOptions()
                            .setCertValue(Buffer.buffer(cert.certificatePem()))
                            .setKeyValue(Buffer.buffer(cert.privateKeyPem()))))
            .requestHandler(endpoint::handle)
            .listen()
            .toCompletionStage()
            .toCompletableFuture()
            .get();
    var body = review(objects, padKiB);
    var uri =
        URI.create("https://127.0.0.1:" + server.actualPort() + "/convert/caches.example.com");
    System.out.printf(
        "review: %d object(s), %d bytes; %s; %d req/s for %d s; at most %d in flight; timeout %d"
            + " ms%n",
        objects, body.length, version, rate, seconds, concurrency, timeout.toMillis());
    double floor = floorMicros(body);
    System.out.printf("floor (Jackson parse + serialize in process): %.1f µs per review%n", floor);

    var callbacks = Executors.newFixedThreadPool(4);
    var client =
        HttpClient.newBuilder()
            .version(version)
            .sslContext(ca.trustingContext())
            .executor(callbacks)
            .build();
    var request =
        HttpRequest.newBuilder(uri)
            .header("Content-Type", "application/json")
            .timeout(timeout)
            .POST(HttpRequest.BodyPublishers.ofByteArray(body))
            .build();
    OpenLoop.Sender send =
        i ->
            client
                .sendAsync(request, HttpResponse.BodyHandlers.ofByteArray())
                .thenApply(HttpResponse::statusCode);
    var warmUp =
        OpenLoop.run(
            new OpenLoop.Settings(
                rate, Duration.ofSeconds(Math.min(WARM_UP_SECONDS, seconds)), concurrency, timeout),
            send);
    var result = OpenLoop.run(settings, send);
    System.out.printf(
        "warm-up: %d scheduled, %d answered, %d failed%n",
        warmUp.scheduled(), warmUp.answered(), warmUp.failed());
    System.out.printf(
        "scheduled %d at %d/s: sent in %.1f s (%d sent more than 1 ms late), answered %d in %.1f s"
            + " = %.0f/s; errors %d%s%n",
        result.scheduled(),
        rate,
        result.sendSeconds(),
        result.late(),
        result.answered(),
        result.wallSeconds(),
        result.answeredPerSecond(),
        result.failed(),
        result.errors().isEmpty() ? "" : " " + result.errors());
    System.out.printf(
        "latency of answered requests from their scheduled send: p50 %.2f ms, p99 %.2f ms, p99.9"
            + " %.2f ms, max %.2f ms%n",
        result.latencyMillis(0.50),
        result.latencyMillis(0.99),
        result.latencyMillis(0.999),
        result.latencyMillis(1.0));
    System.out.println("RESULT " + resultJson(settings, objects, padKiB, version, floor, result));
    client.shutdownNow();
    callbacks.shutdownNow();
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  /** The run as one JSON object: parameters, rates, errors by cause, latency percentiles. */
  static String resultJson(
      OpenLoop.Settings settings,
      int objects,
      int padKiB,
      HttpClient.Version version,
      double floorMicros,
      OpenLoop.Result result) {
    var json = EngineJson.newMapper().createObjectNode();
    json.put("objects", objects)
        .put("padKiB", padKiB)
        .put("http", version == HttpClient.Version.HTTP_2 ? "2" : "1.1")
        .put("rate", settings.rate())
        .put("seconds", settings.duration().toSeconds())
        .put("maxInFlight", settings.maxInFlight())
        .put("timeoutMs", settings.timeout().toMillis())
        .put("floorMicros", Math.round(floorMicros * 10) / 10.0)
        .put("scheduled", result.scheduled())
        .put("answered", result.answered())
        .put("failed", result.failed())
        .put("late", result.late())
        .put("answeredPerSecond", Math.round(result.answeredPerSecond() * 10) / 10.0);
    var errors = json.putObject("errors");
    result.errors().forEach(errors::put);
    var latency = json.putObject("latencyMs");
    var quantiles = new java.util.LinkedHashMap<String, Double>();
    quantiles.put("p50", 0.50);
    quantiles.put("p99", 0.99);
    quantiles.put("p99.9", 0.999);
    quantiles.put("max", 1.0);
    quantiles.forEach(
        (key, p) -> {
          double value = result.latencyMillis(p);
          if (Double.isNaN(value)) {
            latency.putNull(key); // nothing answered
          } else {
            latency.put(key, Math.round(value * 100) / 100.0);
          }
        });
    return json.toString();
  }

  private static double floorMicros(byte[] body) throws Exception {
    var json = EngineJson.newMapper();
    long n = 0;
    long t0 = System.nanoTime();
    while (System.nanoTime() - t0 < 3_000_000_000L) {
      JsonNode tree = json.readTree(body);
      json.writeValueAsBytes(tree);
      n++;
    }
    long t1 = System.nanoTime();
    for (int i = 0; i < n; i++) {
      json.writeValueAsBytes(json.readTree(body));
    }
    return (System.nanoTime() - t1) / 1e3 / n;
  }

  static Router storyRouter() throws Exception {
    var yaml = EngineJson.configure(YAMLMapper.builder()).build();
    var story = Path.of(System.getProperty("versio.examples", "examples")).resolve("field-rename");
    var crd = yaml.readTree(Files.readString(story.resolve("crd.yaml")));
    var spec = yaml.readTree(Files.readString(story.resolve("config.yaml"))).path("spec");
    var config = ((ConfigParser.Result.Parsed) new ConfigParser().parse(spec)).config();
    var compiled =
        ((CompileResult.Compiled) new Compiler().compile(config, ResourceSchemas.crd(crd)))
            .config();
    return new Router(compiled, "example.com");
  }

  static byte[] review(int objects, int padKiB) throws Exception {
    ObjectMapper json = EngineJson.newMapper();
    var review = json.createObjectNode();
    review.put("apiVersion", "apiextensions.k8s.io/v1").put("kind", "ConversionReview");
    var request = review.putObject("request");
    request
        .put("uid", "0b2a6e8e-0000-4000-8000-000000000000")
        .put("desiredAPIVersion", "example.com/v2");
    var list = request.putArray("objects");
    for (int i = 0; i < objects; i++) {
      var o = list.addObject();
      o.put("apiVersion", "example.com/v1").put("kind", "Cache");
      var md = o.putObject("metadata");
      md.put("name", "cache-" + i)
          .put("namespace", "default")
          .put("uid", "uid-" + i)
          .put("resourceVersion", "12345");
      md.putObject("labels").put("app", "cache").put("team", "web");
      if (padKiB > 0) {
        md.putObject("annotations").put("pad", "x".repeat(padKiB * 1024));
      }
      o.putObject("spec").put("size", 3).put("memoryMiB", 512).put("engine", "redis");
      o.putObject("status").put("phase", "Ready");
    }
    return json.writeValueAsBytes(review);
  }

  private static int arg(String[] args, int i, int fallback) {
    return args.length > i ? Integer.parseInt(args[i]) : fallback;
  }
}
