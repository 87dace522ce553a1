package dev.versio.bench.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import dev.versio.api.config.CRDConversionConfig;
import dev.versio.bench.handover.ServerReplicas;
import dev.versio.testkit.ControlPlane;
import dev.versio.testkit.Crds;
import dev.versio.testkit.KubeApiServerTest;
import dev.versio.testkit.fleet.Widgets;
import dev.versio.testkit.process.ProcessLedger;
import dev.versio.testkit.tls.CertificateAuthority;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real {@code versio webhook-server} process, serving a target with a Quantity rule, takes the
 * hostile inputs of the security review while a steady legitimate load runs on its own connection:
 * numbers with huge exponents and a million digits, a token in a field that fails to convert,
 * made-up paths, slow clients holding half-sent bodies, a body dense with tiny values and one over
 * the limit. Every legitimate review must succeed within its usual latency, every hostile one be
 * answered with a 4xx or a Failure at once, the metrics gain no series, the heap come back, and no
 * hostile value reach the log.
 */
// a control plane of its own: its config and server must not show up in harnesses that read every
// config of theirs (the move harness failed on it in a shared one)
@KubeApiServerTest(dedicated = true)
class HostileInputIT {
  private static final String SERVER = "hostile";
  private static final String NAMESPACE = "versio-system";
  private static final String GROUP = "hostile.bench.versio.dev";
  private static final String TARGET = "memories." + GROUP;
  private static final String SECRET = "ghp_HostileSecretValue4711";

  /**
   * A legitimate review here takes a few milliseconds; 500 ms leaves room for a loaded 2-core
   * machine running the control plane, the generator and the replica, and is still far below what a
   * replica stalled by a hostile review took (minutes).
   */
  private static final long USUAL_MILLIS = 500;

  private static final String CRD =
      """
      apiVersion: apiextensions.k8s.io/v1
      kind: CustomResourceDefinition
      metadata: {name: memories.hostile.bench.versio.dev}
      spec:
        group: hostile.bench.versio.dev
        scope: Namespaced
        names: {kind: Memory, plural: memories, singular: memory, listKind: MemoryList}
        versions:
        - name: v1
          served: true
          storage: false
          schema:
            openAPIV3Schema:
              type: object
              properties:
                spec: {type: object, properties: {memory: {type: string}}}
        - name: v2
          served: true
          storage: true
          schema:
            openAPIV3Schema:
              type: object
              properties:
                spec: {type: object, properties: {memoryMilli: {type: integer}}}
      """;

  private static final String CONFIG =
      """
      apiVersion: versio.dev/v1alpha1
      kind: CRDConversionConfig
      metadata: {name: memories}
      spec:
        targetCRD: {name: memories.hostile.bench.versio.dev}
        hubVersion: v2
        webhookServerRef: {name: hostile}
        spokes:
        - version: v1
          rules:
          - strategy: Quantity
            quantity: {hubPath: spec.memoryMilli, spokePath: spec.memory}
            acknowledgeLossy: true
      """;

  @Test
  void hostileInputIsAnsweredAtOnceWhileLegitimateReviewsKeepTheirLatency(
      ControlPlane controlPlane, @TempDir Path work) throws Exception {
    var client = controlPlane.adminClient();
    Crds.applyVersioCrds(client);
    client
        .namespaces()
        .resource(
            new NamespaceBuilder().withNewMetadata().withName(NAMESPACE).endMetadata().build())
        .serverSideApply();
    var tls = Files.createDirectories(work.resolve("tls"));
    var ca = CertificateAuthority.create("versio-hostile");
    var cert = ca.issueServer("127.0.0.1", "localhost");
    Files.writeString(tls.resolve("tls.crt"), cert.certificatePem());
    Files.writeString(tls.resolve("tls.key"), cert.privateKeyPem());
    var ledger = new ProcessLedger(ProcessLedger.defaultDirectory(), System.err::println);
    try (var entry = ledger.open("hostile-" + controlPlane.id());
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
                // INFO: the log lines of failed reviews are what the test reads
                List.of("-Xmx256m", "-XX:+UseSerialGC", "-Dbench.log.level=INFO"),
                List.of("--body-timeout", "2s"))) {
      var serialization = client.getKubernetesSerialization();
      client
          .resource(serialization.unmarshal(CRD, CustomResourceDefinition.class))
          .serverSideApply();
      Crds.awaitEstablished(client, TARGET);
      client
          .resource(Widgets.urlServer(SERVER, replicas.url(), ca.material().certificateBase64()))
          .serverSideApply();
      client.resource(serialization.unmarshal(CONFIG, CRDConversionConfig.class)).serverSideApply();
      var port = replicas.conversionPorts().getFirst();
      var uri = URI.create("https://127.0.0.1:" + port + "/convert/" + TARGET);
      var legit = http2(ca.trustingContext());
      awaitServed(legit, uri);
      for (int i = 0; i < 100; i++) {
        assertThat(send(legit, uri, review("512Mi")).body()).contains("\"Success\"");
      }
      junk(http2(ca.trustingContext()), uri.resolve("/convert/warm-up-junk")); // "unknown" exists
      long heapBefore = heapAfterGc(replicas);

      var latencies = Collections.synchronizedList(new ArrayList<Long>());
      var failures = new CopyOnWriteArrayList<String>();
      var running = new AtomicBoolean(true);
      var load =
          Thread.ofPlatform()
              .name("legit-load")
              .start(
                  () -> {
                    while (running.get()) {
                      long t0 = System.nanoTime();
                      try {
                        var answer = send(legit, uri, review("512Mi"));
                        latencies.add(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
                        if (answer.statusCode() != 200 || !answer.body().contains("\"Success\"")) {
                          failures.add(answer.statusCode() + " " + answer.body());
                        }
                        Thread.sleep(20);
                      } catch (Exception e) {
                        failures.add(e.toString());
                      }
                    }
                  });

      var hostile = http2(ca.trustingContext());
      long slowestHostile = 0;
      for (var value : List.of("1e600000000", "1e999999999", "9".repeat(1_000_000))) {
        long t0 = System.nanoTime();
        var answer = send(hostile, uri, review(value));
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        slowestHostile = Math.max(slowestHostile, millis);
        assertThat(millis).as("a hostile number is answered at once").isLessThan(5_000);
        assertThat(answer.statusCode()).isEqualTo(200);
        assertThat(answer.body())
            .contains("\"Failure\"")
            .contains("value too large for a quantity");
      }
      var secret = send(hostile, uri, review(SECRET));
      assertThat(secret.body()).contains("\"Failure\"").contains("is not a Kubernetes quantity");
      long seriesBefore = series(replicas);
      for (int i = 0; i < 300; i++) {
        junk(hostile, uri.resolve("/convert/junk-" + i));
      }
      assertThat(series(replicas))
          .as("metric series after 300 made-up paths")
          .isEqualTo(seriesBefore);
      assertThat(replicas.scrapes().getFirst()).doesNotContain("junk-");
      var dense = new StringBuilder(review("1").replace("\"memory\":\"1\"", "\"n\":["));
      dense.insert(dense.indexOf("\"n\":[") + 5, "0,".repeat(2_000_000) + "0");
      assertThat(send(hostile, uri, dense.toString()).statusCode())
          .as("a body dense with tiny values is refused while it is parsed")
          .isIn(400, 413);
      var slow = new ArrayList<Socket>();
      for (int i = 0; i < 30; i++) {
        slow.add(holdHalfSent(ca.trustingContext(), port));
      }
      for (var socket : slow) {
        assertThat(statusLine(socket.getInputStream()))
            .as("a half-sent body is answered when the body timeout runs out")
            .startsWith("HTTP/1.1 408");
        socket.close();
      }
      var tooLarge =
          HttpRequest.newBuilder(uri)
              .header("Content-Type", "application/json")
              .POST(HttpRequest.BodyPublishers.ofByteArray(new byte[9 * 1024 * 1024]))
              .build();
      assertThat(hostile.send(tooLarge, HttpResponse.BodyHandlers.ofString()).statusCode())
          .as("a body over the limit (a 32nd of the 256 MiB heap)")
          .isEqualTo(413);

      running.set(false);
      load.join(10_000);
      assertThat(failures).as("legitimate reviews that failed").isEmpty();
      var sorted = latencies.stream().sorted().toList();
      assertThat(sorted).as("legitimate reviews during the attack").hasSizeGreaterThan(20);
      long p99 = sorted.get((int) Math.ceil(sorted.size() * 0.99) - 1);
      assertThat(p99)
          .as("p99 of legitimate reviews during the attack, ms")
          .isLessThan(USUAL_MILLIS);
      long heapAfter = heapAfterGc(replicas);
      System.out.printf(
          "hostile input: slowest hostile number answered in %d ms; %d legitimate reviews during"
              + " the attack, p99 %d ms, max %d ms; heap after GC %.1f MiB before, %.1f MiB after%n",
          slowestHostile,
          sorted.size(),
          p99,
          sorted.getLast(),
          heapBefore / 1048576.0,
          heapAfter / 1048576.0);
      assertThat((double) heapAfter)
          .as("heap after the run (before: %d bytes)", heapBefore)
          .isLessThanOrEqualTo(heapBefore * 1.10);
      var log = Files.readString(replicas.logs().getFirst());
      assertThat(log)
          .as("the replica's log")
          .doesNotContain(SECRET)
          .doesNotContain("1e600000000")
          .doesNotContain("9".repeat(40))
          .contains("spoke v1, spoke->hub, rules[0] (Quantity)");
      assertThat(replicas.exited()).isEmpty();
    }
  }

  private static HttpClient http2(SSLContext trust) {
    return HttpClient.newBuilder()
        .version(HttpClient.Version.HTTP_2)
        .sslContext(trust)
        .connectTimeout(Duration.ofSeconds(5))
        .build();
  }

  private static String review(String memory) {
    return "{\"apiVersion\":\"apiextensions.k8s.io/v1\",\"kind\":\"ConversionReview\",\"request\":{"
        + "\"uid\":\"u\",\"desiredAPIVersion\":\""
        + GROUP
        + "/v2\",\"objects\":[{\"apiVersion\":\""
        + GROUP
        + "/v1\",\"kind\":\"Memory\",\"metadata\":{\"name\":\"m\",\"namespace\":\"default\"},"
        + "\"spec\":{\"memory\":\""
        + memory
        + "\"}}]}}";
  }

  private static HttpResponse<String> send(HttpClient http, URI uri, String body)
      throws IOException, InterruptedException {
    return http.send(
        HttpRequest.newBuilder(uri)
            .header("Content-Type", "application/json")
            .timeout(Duration.ofSeconds(20))
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static void junk(HttpClient http, URI uri) throws Exception {
    assertThat(send(http, uri, review("1")).body()).contains("no conversion plan registered");
  }

  private static void awaitServed(HttpClient http, URI uri) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (!send(http, uri, review("512Mi")).body().contains("\"Success\"")) {
      assertThat(System.nanoTime())
          .as("the replica serves the target in time")
          .isLessThan(deadline);
      Thread.sleep(250); // the replica compiles the target in its own process
    }
  }

  /** A TLS connection from 127.0.0.9 that sends headers and 5 of 1,000 body bytes. */
  private static Socket holdHalfSent(SSLContext trust, int port) throws IOException {
    var plain = new Socket();
    plain.bind(new InetSocketAddress("127.0.0.9", 0));
    plain.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
    var socket = trust.getSocketFactory().createSocket(plain, "127.0.0.1", port, true);
    socket.setSoTimeout(15_000);
    socket
        .getOutputStream()
        .write(
            ("POST /convert/"
                    + TARGET
                    + " HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                    + "Content-Length: 1000\r\n\r\n{\"api")
                .getBytes(StandardCharsets.US_ASCII));
    socket.getOutputStream().flush();
    return socket;
  }

  private static String statusLine(InputStream in) throws IOException {
    var line = new StringBuilder();
    int b;
    while ((b = in.read()) >= 0 && b != '\n') {
      line.append((char) b);
    }
    return line.toString().strip();
  }

  /** Lines of Versio's own series on the replica's /metrics. */
  private static long series(ServerReplicas replicas) {
    return replicas
        .scrapes()
        .getFirst()
        .lines()
        .filter(l -> l.startsWith("versio_webhook_"))
        .count();
  }

  /** The replica's heap in use right after a full collection. */
  private static long heapAfterGc(ServerReplicas replicas) throws Exception {
    var jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd").toString();
    var gc =
        new ProcessBuilder(jcmd, Long.toString(replicas.pids().getFirst()), "GC.run")
            .redirectErrorStream(true)
            .start();
    gc.getInputStream().readAllBytes();
    assertThat(gc.waitFor(30, TimeUnit.SECONDS)).isTrue();
    return replicas
        .scrapes()
        .getFirst()
        .lines()
        .filter(l -> l.startsWith("jvm_memory_used_bytes{area=\"heap\""))
        .mapToLong(l -> (long) Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
        .sum();
  }
}
