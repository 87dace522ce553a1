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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A loopback load generator for the conversion endpoint: the real Vert.x HTTPS server with the
 * field-rename story's plan, driven by the JDK HTTP client over TLS at a fixed rate (open loop:
 * latency is measured from the scheduled send time, so a stall is not hidden) with a configurable
 * concurrency, HTTP/2 or HTTP/1.1 keep-alive. Prints reviews/s and p50/p99/p99.9, and the
 * in-process floor (Jackson parse + serialize of the same review).
 *
 * <p>Usage: {@code ReviewLoad [rate=500] [seconds=20] [objects=1] [padKiB=0] [http=2|1.1]
 * [concurrency=32]}
 */
public final class ReviewLoad {
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
        "review: %d object(s), %d bytes; %s; target %d req/s for %d s; concurrency %d%n",
        objects, body.length, version, rate, seconds, concurrency);
    System.out.printf(
        "floor (Jackson parse + serialize in process): %.1f µs per review%n", floorMicros(body));

    var clientPool = Executors.newFixedThreadPool(concurrency);
    var clients = new ArrayList<HttpClient>();
    int connections = version == HttpClient.Version.HTTP_2 ? 1 : concurrency;
    for (int i = 0; i < connections; i++) {
      clients.add(
          HttpClient.newBuilder()
              .version(version)
              .sslContext(ca.trustingContext())
              .executor(clientPool)
              .build());
    }
    runPhase(
        clients, uri, body, rate, Math.min(5, seconds), new long[rate * 5 + 1], null); // warm-up
    var latencies = new long[rate * seconds];
    var errors = new AtomicInteger();
    long started = System.nanoTime();
    int sent = runPhase(clients, uri, body, rate, seconds, latencies, errors);
    double elapsed = (System.nanoTime() - started) / 1e9;
    var measured = Arrays.copyOf(latencies, sent);
    Arrays.sort(measured);
    System.out.printf(
        "sent %d reviews in %.1f s = %.0f reviews/s; errors %d%n",
        sent, elapsed, sent / elapsed, errors.get());
    System.out.printf(
        "latency p50 %.2f ms, p99 %.2f ms, p99.9 %.2f ms, max %.2f ms%n",
        pct(measured, 0.50),
        pct(measured, 0.99),
        pct(measured, 0.999),
        measured[measured.length - 1] / 1e6);
    clients.forEach(HttpClient::shutdownNow);
    clientPool.shutdownNow();
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  private static int runPhase(
      List<HttpClient> clients,
      URI uri,
      byte[] body,
      int rate,
      int seconds,
      long[] latencies,
      AtomicInteger errors)
      throws InterruptedException {
    int total = rate * seconds;
    long interval = 1_000_000_000L / rate;
    long start = System.nanoTime();
    var done = new CountDownLatch(total);
    for (int i = 0; i < total; i++) {
      long due = start + i * interval;
      long wait = due - System.nanoTime();
      if (wait > 0) {
        TimeUnit.NANOSECONDS.sleep(wait); // pacing the open-loop load
      }
      int index = i;
      var request =
          HttpRequest.newBuilder(uri)
              .header("Content-Type", "application/json")
              .POST(HttpRequest.BodyPublishers.ofByteArray(body))
              .build();
      clients
          .get(i % clients.size())
          .sendAsync(request, HttpResponse.BodyHandlers.ofByteArray())
          .whenComplete(
              (r, t) -> {
                latencies[index] = System.nanoTime() - due;
                if ((t != null || r.statusCode() != 200) && errors != null) {
                  errors.incrementAndGet();
                }
                done.countDown();
              });
    }
    done.await(60, TimeUnit.SECONDS);
    return total;
  }

  private static double pct(long[] sorted, double p) {
    return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p * sorted.length) - 1)] / 1e6;
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
