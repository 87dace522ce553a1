package dev.versio.bench.handover;

import dev.versio.bench.webhook.OpenLoop;
import dev.versio.testkit.Crds;
import dev.versio.testkit.fleet.Widgets;
import dev.versio.testkit.process.ProcessLedger;
import dev.versio.testkit.tls.CertificateAuthority;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * How many single-object reviews one real {@code versio webhook-server} process answers with p99 ≤
 * 5 ms, with one conversion event loop against one per core: two servers of one replica each, a
 * target each, the replica flags identical but {@code --event-loops 1} on one of them; the JVM of
 * each sized as a replica at the chart's default memory limit ({@code -XX:MaxRAM=512m}, the heap
 * the operator gives it there, 281 MiB, and Serial, the collector a container's JVM picks under
 * 1,792 MiB: {@code -XX:MaxRAM} alone leaves a JVM on a larger machine on G1). The generator is
 * this process (a separate JVM from both servers), open loop ({@link OpenLoop}: latency from each
 * request's due time, at most 32 in flight per connection, a request unanswered after 10 s an
 * error), over {@code connections} HTTP/2 connections to the replica (one per kube-apiserver
 * sending to it), each request on the connection with the fewest in flight. Every rate of the
 * ladder runs against both servers in turn (which goes first alternates by round; each step starts
 * with 2 s that are not counted), round after round, so a noisy moment of the machine hits both. A
 * review counts as answered only when the replica says {@code Success}.
 *
 * <p>Usage: {@code ReplicaCapacity [secondsPerRate=10] [rounds=3] [connections=1,3]
 * [rates=500,1000,2000,3000,4000] [comparison=event-loops]}; prints every run, then per server and
 * connection count the median p99 of each rate with its spread and the highest rate within the
 * bound. The comparison names the two servers: {@code event-loops} (one loop against one per core),
 * {@code c1-only} (the replica JVM against the same with {@code -XX:TieredStopAtLevel=1}, both one
 * loop per core).
 */
public final class ReplicaCapacity {
  private static final String NAMESPACE = "versio-system";
  private static final double P99_BOUND_MS = 5.0;
  private static final int STREAMS_PER_CONNECTION = 32;
  private static final List<String> REPLICA_JVM =
      List.of("-XX:MaxRAM=512m", "-Xmx281m", "-XX:+UseSerialGC");

  private ReplicaCapacity() {}

  /** A server under test: its name, its JVM flags and server flags, its target. */
  private record Variant(
      String server, String label, List<String> jvm, List<String> flags, String group) {
    String target() {
      return "widgets." + group;
    }
  }

  /** One run: a variant, a connection count, a rate, a round. */
  private record Run(Variant variant, int connections, int rate, OpenLoop.Result result) {}

  public static void main(String[] args) throws Exception {
    int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    var connectionCounts = ints(args.length > 2 ? args[2] : "1,3");
    var rates = ints(args.length > 3 ? args[3] : "500,1000,2000,3000,4000");
    var comparison = args.length > 4 ? args[4] : "event-loops";
    var work = Files.createTempDirectory("versio-capacity-");
    var variants = variants(comparison);
    System.out.printf(
        Locale.ROOT,
        "# Versio replica capacity, %d cores; comparison %s; replica JVM %s; %d s per rate,"
            + " %d rounds; connections %s; rates %s; p99 bound %.0f ms%n",
        Runtime.getRuntime().availableProcessors(),
        comparison,
        String.join(" ", REPLICA_JVM),
        seconds,
        rounds,
        connectionCounts,
        rates,
        P99_BOUND_MS);
    var runs = new ArrayList<Run>();
    try (var lab = ReplicaLab.start(work, NAMESPACE, "versio-capacity")) {
      var controlPlane = lab.controlPlane();
      var client = lab.client();
      var ca = lab.ca();
      for (var variant : variants) {
        var crd = Widgets.crd(variant.group(), "widgets", "Widget");
        client.resource(crd).serverSideApply();
        Crds.awaitEstablished(client, crd.getMetadata().getName());
      }
      var ledger = new ProcessLedger(ProcessLedger.defaultDirectory(), System.err::println);
      try (var entry = ledger.open("capacity-" + controlPlane.id());
          var first =
              lab.oneReplica(
                  variants.get(0).server(), entry, variants.get(0).jvm(), variants.get(0).flags());
          var second =
              lab.oneReplica(
                  variants.get(1).server(),
                  entry,
                  variants.get(1).jvm(),
                  variants.get(1).flags())) {
        var bundle = ca.material().certificateBase64();
        var replicas = Map.of(variants.get(0), first, variants.get(1), second);
        for (var variant : variants) {
          client
              .resource(Widgets.urlServer(variant.server(), replicas.get(variant).url(), bundle))
              .serverSideApply();
          client
              .resource(Widgets.renameConfig(variant.server(), variant.target(), variant.server()))
              .serverSideApply();
        }
        var loads = new LinkedHashMap<String, Load>();
        for (var variant : variants) {
          int port = replicas.get(variant).conversionPorts().getFirst();
          for (int connections : connectionCounts) {
            var load = new Load(ca, port, variant, connections);
            load.awaitSuccess();
            loads.put(variant.server() + "/" + connections, load);
          }
        }
        for (var load : loads.values()) { // warm-up: both JITs, the generator, every connection
          OpenLoop.run(settings(1000, 10, load.connections()), load::send);
        }
        for (int r = 1; r <= rounds; r++) {
          for (int connections : connectionCounts) {
            for (int rate : rates) {
              // the variants take turns going first; each step starts with 2 s at its rate that
              // are not counted, as a ladder's steps do, so no run pays for the step before it
              var order = r % 2 == 1 ? variants : variants.reversed();
              for (var variant : order) {
                var load = loads.get(variant.server() + "/" + connections);
                OpenLoop.run(settings(rate, 2, connections), load::send);
                var result = OpenLoop.run(settings(rate, seconds, connections), load::send);
                runs.add(new Run(variant, connections, rate, result));
                System.out.printf(
                    Locale.ROOT,
                    "round %d, %d connection(s), %5d/s, %-33s answered %6.0f/s, p50 %6.2f ms,"
                        + " p99 %7.2f ms, p99.9 %7.2f ms, errors %d%s, sent late %d%n",
                    r,
                    connections,
                    rate,
                    variant.label() + ":",
                    result.answeredPerSecond(),
                    result.latencyMillis(0.50),
                    result.latencyMillis(0.99),
                    result.latencyMillis(0.999),
                    result.failed(),
                    result.errors().isEmpty() ? "" : " " + result.errors(),
                    result.late());
              }
            }
          }
        }
        loads.values().forEach(Load::close);
      }
    }
    summarize(runs, variants, connectionCounts, rates, rounds);
  }

  /** The two servers a comparison runs against each other. */
  private static List<Variant> variants(String comparison) {
    var c1 = new ArrayList<>(REPLICA_JVM);
    c1.add("-XX:TieredStopAtLevel=1");
    return switch (comparison) {
      case "event-loops" ->
          List.of(
              new Variant(
                  "one-loop",
                  "1 event loop",
                  REPLICA_JVM,
                  List.of("--event-loops", "1"),
                  "one.capacity.bench.versio.dev"),
              new Variant(
                  "per-core",
                  "one event loop per core (default)",
                  REPLICA_JVM,
                  List.of(),
                  "cores.capacity.bench.versio.dev"));
      case "c1-only" ->
          List.of(
              new Variant(
                  "tiered",
                  "C1 and C2 (JVM default)",
                  REPLICA_JVM,
                  List.of(),
                  "tiered.capacity.bench.versio.dev"),
              new Variant(
                  "c1-only",
                  "C1 only (TieredStopAtLevel=1)",
                  List.copyOf(c1),
                  List.of(),
                  "c1.capacity.bench.versio.dev"));
      default ->
          throw new IllegalArgumentException(
              "unknown comparison " + comparison + "; use event-loops or c1-only");
    };
  }

  /**
   * Per variant and connection count: the median p99 of each rate over the rounds with its spread,
   * and the highest rate whose median p99 is within the bound with no error in any round.
   */
  private static void summarize(
      List<Run> runs,
      List<Variant> variants,
      List<Integer> connectionCounts,
      List<Integer> rates,
      int rounds) {
    System.out.println();
    System.out.println(
        "=== p99 per rate, median of " + rounds + " rounds (min-max); errors in all");
    for (int connections : connectionCounts) {
      for (var variant : variants) {
        Integer best = null;
        var line = new StringBuilder();
        for (int rate : rates) {
          var step =
              runs.stream()
                  .filter(
                      run ->
                          run.variant() == variant
                              && run.connections() == connections
                              && run.rate() == rate)
                  .toList();
          var p99s =
              step.stream().mapToDouble(run -> run.result().latencyMillis(0.99)).sorted().toArray();
          int errors = step.stream().mapToInt(run -> run.result().failed()).sum();
          double median = p99s[p99s.length / 2];
          line.append(
              String.format(
                  Locale.ROOT,
                  "  %d/s: %.2f (%.2f-%.2f) ms, %d errors%n",
                  rate,
                  median,
                  p99s[0],
                  p99s[p99s.length - 1],
                  errors));
          if (errors == 0 && median <= P99_BOUND_MS) {
            best = rate;
          }
        }
        System.out.printf(
            Locale.ROOT,
            "%s, %d connection(s): highest rate with median p99 <= %.0f ms and no error: %s%n%s",
            variant.label(),
            connections,
            P99_BOUND_MS,
            best == null ? "none of the ladder" : best + "/s",
            line);
      }
    }
  }

  /**
   * At most {@link #STREAMS_PER_CONNECTION} in flight per connection: the replica allows that many
   * streams on one connection, and the JDK client fails a request beyond them where the apiserver's
   * client would open another connection.
   */
  private static OpenLoop.Settings settings(int rate, int seconds, int connections) {
    return new OpenLoop.Settings(
        rate,
        Duration.ofSeconds(seconds),
        STREAMS_PER_CONNECTION * connections,
        Duration.ofSeconds(10));
  }

  private static List<Integer> ints(String csv) {
    return Arrays.stream(csv.split(",")).map(String::trim).map(Integer::parseInt).toList();
  }

  /**
   * Reviews to one replica over {@code connections} HTTP/2 connections (one client each); an answer
   * is a 200 only when the review says Success.
   */
  private static final class Load implements AutoCloseable {
    private final List<HttpClient> clients = new ArrayList<>();
    private final java.util.concurrent.ExecutorService callbacks = Executors.newFixedThreadPool(2);
    private final HttpRequest request;
    private final AtomicInteger turn = new AtomicInteger();

    int connections() {
      return clients.size();
    }

    private final java.util.concurrent.atomic.AtomicIntegerArray inFlight;

    Load(CertificateAuthority ca, int port, Variant variant, int connections) {
      this.inFlight = new java.util.concurrent.atomic.AtomicIntegerArray(connections);
      for (int i = 0; i < connections; i++) {
        clients.add(
            HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_2)
                .sslContext(ca.trustingContext())
                .executor(callbacks)
                .build());
      }
      this.request =
          HttpRequest.newBuilder(
                  URI.create("https://127.0.0.1:" + port + "/convert/" + variant.target()))
              .header("Content-Type", "application/json")
              .timeout(Duration.ofSeconds(10))
              .POST(
                  HttpRequest.BodyPublishers.ofByteArray(
                      ReplicaLab.review(variant.group()).getBytes(StandardCharsets.UTF_8)))
              .build();
    }

    /**
     * Sends on the connection with the fewest reviews in flight (ties in turn), so that none
     * carries more than the replica's stream limit while the total stays within the generator's
     * bound.
     */
    CompletableFuture<Integer> send(int index) {
      int start = Math.floorMod(turn.getAndIncrement(), clients.size());
      int chosen = start;
      for (int k = 1; k < clients.size(); k++) {
        int i = (start + k) % clients.size();
        if (inFlight.get(i) < inFlight.get(chosen)) {
          chosen = i;
        }
      }
      int connection = chosen;
      inFlight.incrementAndGet(connection);
      return clients
          .get(connection)
          .sendAsync(request, HttpResponse.BodyHandlers.ofString())
          .whenComplete((response, failure) -> inFlight.decrementAndGet(connection))
          .thenApply(
              response ->
                  response.statusCode() == 200 && !response.body().contains("\"Success\"")
                      ? 599 // answered, but not converted: an error, never a latency
                      : response.statusCode());
    }

    /** Waits until every connection gets a successful review (the replica compiled the plan). */
    void awaitSuccess() throws Exception {
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      for (var client : clients) {
        while (true) {
          var answer = client.send(request, HttpResponse.BodyHandlers.ofString()).body();
          if (answer.contains("\"Success\"")) {
            break;
          }
          if (System.nanoTime() > deadline) {
            throw new IllegalStateException("no successful review within 60 s: " + answer);
          }
          Thread.sleep(250); // waiting for outside processes to compile and publish
        }
      }
    }

    @Override
    public void close() {
      clients.forEach(HttpClient::shutdownNow);
      callbacks.shutdownNow();
    }
  }
}
