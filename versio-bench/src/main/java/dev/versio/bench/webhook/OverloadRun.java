package dev.versio.bench.webhook;

import dev.versio.bench.handover.ServerReplicas;
import dev.versio.testkit.ControlPlane;
import dev.versio.testkit.ControlPlaneAssets;
import dev.versio.testkit.Crds;
import dev.versio.testkit.fleet.Widgets;
import dev.versio.testkit.metrics.Exposition;
import dev.versio.testkit.process.ProcessLedger;
import dev.versio.testkit.tls.CertificateAuthority;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A real {@code versio webhook-server} process (its own JVM, one target served from a config on a
 * test control plane) driven in three phases by the open-loop generator: {@code rate}/s for 10 s,
 * then 3 × {@code rate}/s for 30 s with up to 4 × 96 requests outstanding (four HTTP/2
 * connections), then {@code rate}/s for 10 s again. Per phase: requests sent, answered, refused
 * (429) and failed, latency of the answered ones; the replica's heap (its own metrics, sampled
 * every 250 ms) before, at its peak and after; whether the process is still alive.
 *
 * <p>Usage: {@code OverloadRun [rate=1000] [maxInFlight=64] [xmx=256m] [objectsPerReview=1]
 * [JVM-flag...]}, the flags after the fourth argument going to the replica's JVM as well (e.g.
 * {@code -XX:MaxRAM=512m}, with {@code 281m}: the chart's default container and heap): a review of
 * many objects (as the apiserver sends for a list) costs the replica that many times more, so a
 * replica's sustainable rate, and an overload beyond it, can be reached with the generator on the
 * same machine. Exits 1 when the replica died, or when the recovery phase failed a request.
 */
public final class OverloadRun {
  private static final String SERVER = "overload";
  private static final String NAMESPACE = "versio-system";

  /**
   * Requests the burst keeps outstanding: just under the 100 concurrent streams a Vert.x server
   * allows per HTTP/2 connection (the JDK client fails a request beyond the peer's limit with an
   * IOException instead of queueing it).
   */
  private static final int CLIENT_STREAMS = 96;

  /** HTTP/2 connections the generator spreads requests over (round robin). */
  private static final int CONNECTIONS = 4;

  private OverloadRun() {}

  public static void main(String[] args) throws Exception {
    int rate = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
    int maxInFlight = args.length > 1 ? Integer.parseInt(args[1]) : 64;
    var xmx = args.length > 2 ? args[2] : "256m";
    int objects = args.length > 3 ? Integer.parseInt(args[3]) : 1;
    var jvmFlags = new ArrayList<String>(List.of("-Xmx" + xmx));
    jvmFlags.addAll(args.length > 4 ? List.of(args).subList(4, args.length) : List.of());
    var work = Files.createTempDirectory("versio-overload-");
    boolean ok;
    try (var controlPlane =
            ControlPlane.start(
                ControlPlaneAssets.locate(), work.resolve("cluster"), System.err::println);
        var client = controlPlane.adminClient()) {
      Crds.applyVersioCrds(client);
      client
          .namespaces()
          .resource(
              new NamespaceBuilder().withNewMetadata().withName(NAMESPACE).endMetadata().build())
          .serverSideApply();
      var tls = Files.createDirectories(work.resolve("tls"));
      var ca = CertificateAuthority.create("versio-overload");
      var cert = ca.issueServer("127.0.0.1", "localhost");
      Files.writeString(tls.resolve("tls.crt"), cert.certificatePem());
      Files.writeString(tls.resolve("tls.key"), cert.privateKeyPem());
      var ledger = new ProcessLedger(ProcessLedger.defaultDirectory(), System.err::println);
      try (var entry = ledger.open("overload-" + controlPlane.id());
          var replicas =
              ServerReplicas.start(
                  SERVER,
                  1,
                  NAMESPACE,
                  tls,
                  Duration.ofSeconds(1),
                  controlPlane.kubeconfig(),
                  work.resolve("logs"),
                  entry,
                  jvmFlags,
                  List.of("--max-in-flight", Integer.toString(maxInFlight)))) {
        var group = "overload.bench.versio.dev";
        var crd = Widgets.crd(group, "widgets", "Widget");
        client.resource(crd).serverSideApply();
        Crds.awaitEstablished(client, crd.getMetadata().getName());
        client
            .resource(Widgets.urlServer(SERVER, replicas.url(), ca.material().certificateBase64()))
            .serverSideApply();
        client
            .resource(Widgets.renameConfig("widgets", crd.getMetadata().getName(), SERVER))
            .serverSideApply();
        var port = replicas.conversionPorts().getFirst();
        var uri =
            URI.create("https://127.0.0.1:" + port + "/convert/" + crd.getMetadata().getName());
        // several connections, as an apiserver opens under load: each HTTP/2 connection is read by
        // one event loop of the replica, so one connection alone cannot fill its in-flight limit
        var clients = new ArrayList<HttpClient>();
        for (int c = 0; c < CONNECTIONS; c++) {
          clients.add(
              HttpClient.newBuilder()
                  .version(HttpClient.Version.HTTP_2)
                  .sslContext(ca.trustingContext())
                  .executor(Executors.newFixedThreadPool(2))
                  .build());
        }
        var http = clients.getFirst();
        var body = review(group, objects).getBytes(StandardCharsets.UTF_8);
        var request =
            HttpRequest.newBuilder(uri)
                .header("Content-Type", "application/json")
                .timeout(Duration.ofSeconds(10))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                .build();
        OpenLoop.Sender send =
            i ->
                clients
                    .get((int) (i % CONNECTIONS))
                    .sendAsync(request, HttpResponse.BodyHandlers.discarding())
                    .thenApply(HttpResponse::statusCode);
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
          if (http.send(request, HttpResponse.BodyHandlers.ofString())
              .body()
              .contains("\"Success\"")) {
            break;
          }
          Thread.sleep(250); // waiting for the replica to compile its target (an outside process)
        }
        var heap = new HeapSampler(replicas);
        heap.start();
        System.out.printf(
            Locale.ROOT,
            "webhook-server process %s --max-in-flight %d; reviews of %d object(s) (%d bytes)"
                + " over HTTP/2; heap in use %.1f MiB before warm-up%n",
            String.join(" ", jvmFlags),
            maxInFlight,
            objects,
            body.length,
            heap.now() / 1048576.0);
        OpenLoop.run(
            new OpenLoop.Settings(rate, Duration.ofSeconds(10), 64, Duration.ofSeconds(10)), send);
        double before = heap.now();
        heap.resetPeak();
        var sustained =
            OpenLoop.run(
                new OpenLoop.Settings(rate, Duration.ofSeconds(10), 64, Duration.ofSeconds(10)),
                send);
        report("sustained " + rate + "/s, 10 s", sustained);
        var burst =
            OpenLoop.run(
                new OpenLoop.Settings(
                    3 * rate,
                    Duration.ofSeconds(30),
                    CLIENT_STREAMS * CONNECTIONS,
                    Duration.ofSeconds(10)),
                send);
        report("burst " + 3 * rate + "/s, 30 s", burst);
        double peak = heap.peak();
        var after =
            OpenLoop.run(
                new OpenLoop.Settings(rate, Duration.ofSeconds(10), 64, Duration.ofSeconds(10)),
                send);
        report("after, " + rate + "/s, 10 s", after);
        heap.stop();
        System.out.printf(
            Locale.ROOT,
            "heap in use (the replica's own jvm_memory_used_bytes, every 250 ms): before %.1f MiB,"
                + " peak %.1f MiB (-Xmx%s), after %.1f MiB%n",
            before / 1048576.0,
            peak / 1048576.0,
            xmx,
            heap.now() / 1048576.0);
        var rejections =
            Exposition.sum(
                replicas.scrapes().getFirst(), "versio_webhook_overload_rejections_total");
        boolean alive = replicas.exited().isEmpty();
        System.out.println(
            "replica's collector (jvm_gc_pause_seconds by gc: pauses, seconds): "
                + gcPauses(replicas.scrapes().getFirst()));
        System.out.printf(
            Locale.ROOT,
            "replica refusals counted by its metric: %.0f; replica alive: %s%n",
            rejections,
            alive);
        ok = alive && after.failed() == 0;
        System.out.println(ok ? "PASS" : "FAIL");
      }
    }
    System.exit(ok ? 0 : 1);
  }

  private static void report(String phase, OpenLoop.Result result) {
    int refused = result.errors().getOrDefault("HTTP 429", 0);
    System.out.printf(
        Locale.ROOT,
        "%-24s scheduled %6d, answered %6d (%.0f/s), refused 429 %6d, failed otherwise %5d %s;"
            + " answered p50 %.2f ms, p99 %.2f ms%n",
        phase,
        result.scheduled(),
        result.answered(),
        result.answeredPerSecond(),
        refused,
        result.failed() - refused,
        result.errors(),
        result.latencyMillis(0.5),
        result.latencyMillis(0.99));
  }

  private static String review(String group, int objects) {
    var items = new StringBuilder();
    for (int i = 0; i < objects; i++) {
      items
          .append(i == 0 ? "" : ",")
          .append("{\"apiVersion\":\"")
          .append(group)
          .append("/v2\",\"kind\":\"Widget\",\"metadata\":{\"name\":\"w")
          .append(i)
          .append("\",\"namespace\":\"default\",\"labels\":{\"app\":\"a\",\"tier\":\"t\"}},")
          .append("\"spec\":{\"replicas\":")
          .append(i)
          .append(",\"engine\":\"x\"}}");
    }
    return "{\"apiVersion\":\"apiextensions.k8s.io/v1\",\"kind\":\"ConversionReview\",\"request\":{"
        + "\"uid\":\"u\",\"desiredAPIVersion\":\""
        + group
        + "/v1\",\"objects\":["
        + items
        + "]}}";
  }

  /** Samples the replica's heap in use every 250 ms, keeping the peak. */
  /** The pauses of each collector the replica's metrics name: which one the JVM picked. */
  private static String gcPauses(String exposition) {
    var out = new java.util.TreeMap<String, String>();
    for (var line : exposition.lines().toList()) {
      if (line.startsWith("jvm_gc_pause_seconds_count{")) {
        int at = line.indexOf("gc=\"") + 4;
        var gc = line.substring(at, line.indexOf('"', at));
        out.merge(
            gc,
            String.format(
                Locale.ROOT,
                "%.0f, %.3f s",
                Exposition.sum(exposition, "jvm_gc_pause_seconds_count", "gc=\"" + gc + "\""),
                Exposition.sum(exposition, "jvm_gc_pause_seconds_sum", "gc=\"" + gc + "\"")),
            (a, b) -> a);
      }
    }
    return out.isEmpty() ? "(none reported)" : out.toString();
  }

  private static final class HeapSampler {
    private final ServerReplicas replicas;
    private final AtomicLong peak = new AtomicLong();
    private final AtomicLong last = new AtomicLong();
    private volatile boolean running = true;
    private Thread thread;

    HeapSampler(ServerReplicas replicas) {
      this.replicas = replicas;
    }

    void start() {
      sample();
      thread =
          Thread.ofPlatform()
              .daemon()
              .start(
                  () -> {
                    while (running) {
                      sample();
                      try {
                        Thread.sleep(250);
                      } catch (InterruptedException e) {
                        return;
                      }
                    }
                  });
    }

    private void sample() {
      var body = replicas.scrapes().getFirst();
      if (!body.isEmpty()) {
        long used = (long) Exposition.sum(body, "jvm_memory_used_bytes", "area=\"heap\"");
        last.set(used);
        peak.accumulateAndGet(used, Math::max);
      }
    }

    double now() {
      sample();
      return last.get();
    }

    double peak() {
      return peak.get();
    }

    void resetPeak() {
      peak.set(last.get());
    }

    void stop() {
      running = false;
      thread.interrupt();
    }
  }
}
