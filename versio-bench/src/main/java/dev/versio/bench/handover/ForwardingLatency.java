package dev.versio.bench.handover;

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
import java.util.List;
import java.util.Locale;

/**
 * What the forwarding hop adds to one review, on loopback: two {@code versio webhook-server}
 * processes behind the front ({@code --forward-reviews}), {@code alpha} holding the one target and
 * {@code beta} holding nothing, and a client on one HTTP/2 connection per replica sending one small
 * review at a time, in turn straight to alpha and to beta (which passes it on to alpha). Per round
 * the p50 and p99 of both and their difference; the median of the rounds and their spread.
 *
 * <p>Usage: {@code ForwardingLatency [reviewsPerRound=5000] [rounds=5] [warmUp=25000] [replica JVM
 * flags...]}. The warm-up sends {@code warmUp} reviews each way before the first round: three JVMs
 * (the client and both replicas) compile on two cores for about twenty seconds, and a round inside
 * that time measures the compiler, not the hop (rounds of 3,000 after a warm-up of 2,000 had a
 * direct p99 of 2.3–5.1 ms until the eighth round, 0.4–0.8 ms from then on). Nothing else runs:
 * this is the hop's own cost, not the cost on a loaded machine ({@link MovesUnderLoad} measures
 * that). The replicas run as the chart runs them by default: a 512 MiB memory limit (on which a
 * container's JVM picks the Serial collector; {@code -XX:MaxRAM} alone does not make this machine's
 * JVM pick it, so it is named) and the heap the operator gives that limit, as {@link
 * ReplicaCapacity} does; other flags replace these.
 */
public final class ForwardingLatency {
  private static final String NAMESPACE = "versio-system";
  private static final String GROUP = "forward.bench.versio.dev";
  private static final List<String> REPLICA_JVM =
      List.of("-XX:MaxRAM=512m", "-Xmx281m", "-XX:+UseSerialGC");
  private static final List<String> REPLICA_FLAGS = List.of("--forward-reviews");
  private static final int WARM_UP = 25_000;

  private ForwardingLatency() {}

  public static void main(String[] args) throws Exception {
    int perRound = args.length > 0 ? Integer.parseInt(args[0]) : 5000;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    int flagsFrom = args.length > 2 && args[2].matches("\\d+") ? 3 : 2;
    int warmUp = flagsFrom == 3 ? Integer.parseInt(args[2]) : WARM_UP;
    var jvm = args.length > flagsFrom ? List.of(args).subList(flagsFrom, args.length) : REPLICA_JVM;
    var work = Files.createTempDirectory("versio-forwarding-");
    System.out.printf(
        Locale.ROOT,
        "# Versio forwarding latency, %d cores, %d reviews per round, %d rounds after a warm-up of"
            + " %d, replicas: %s%n",
        Runtime.getRuntime().availableProcessors(),
        perRound,
        rounds,
        warmUp,
        String.join(" ", jvm));
    try (var lab = ReplicaLab.start(work, NAMESPACE, "versio-forwarding")) {
      var controlPlane = lab.controlPlane();
      var client = lab.client();
      var ca = lab.ca();
      var crd = Widgets.crd(GROUP, "widgets", "Widget");
      client.resource(crd).serverSideApply();
      Crds.awaitEstablished(client, crd.getMetadata().getName());
      var target = crd.getMetadata().getName();
      var ledger = new ProcessLedger(ProcessLedger.defaultDirectory(), System.err::println);
      try (var entry = ledger.open("forwarding-" + controlPlane.id());
          var alpha = lab.oneReplica("alpha", entry, jvm, REPLICA_FLAGS);
          var beta = lab.oneReplica("beta", entry, jvm, REPLICA_FLAGS)) {
        var bundle = ca.material().certificateBase64();
        var alphaServer = Widgets.urlServer("alpha", alpha.url(), bundle);
        alphaServer.getSpec().isDefault = true;
        client.resource(alphaServer).serverSideApply();
        client.resource(Widgets.urlServer("beta", beta.url(), bundle)).serverSideApply();
        client.resource(Widgets.renameConfig("widgets", target, "alpha")).serverSideApply();
        var body = ReplicaLab.review(GROUP).getBytes(StandardCharsets.UTF_8);
        var direct = new Endpoint(ca, alpha.conversionPorts().getFirst(), target, body);
        var forwarded = new Endpoint(ca, beta.conversionPorts().getFirst(), target, body);
        direct.awaitSuccess();
        forwarded.awaitSuccess(); // beta sees alpha's Lease
        for (int i = 0; i < warmUp; i++) { // until the three JVMs have compiled what they run
          direct.send();
          forwarded.send();
        }
        var added50 = new double[rounds];
        var added99 = new double[rounds];
        for (int r = 0; r < rounds; r++) {
          var d = new long[perRound];
          var f = new long[perRound];
          for (int i = 0; i < perRound; i++) {
            d[i] = direct.send();
            f[i] = forwarded.send();
          }
          Arrays.sort(d);
          Arrays.sort(f);
          double d50 = millis(d, 0.50);
          double d99 = millis(d, 0.99);
          double f50 = millis(f, 0.50);
          double f99 = millis(f, 0.99);
          added50[r] = f50 - d50;
          added99[r] = f99 - d99;
          System.out.printf(
              Locale.ROOT,
              "round %d: direct p50 %.3f ms p99 %.3f ms; forwarded p50 %.3f ms p99 %.3f ms;"
                  + " added p50 %.3f ms p99 %.3f ms%n",
              r + 1,
              d50,
              d99,
              f50,
              f99,
              added50[r],
              added99[r]);
        }
        Arrays.sort(added50);
        Arrays.sort(added99);
        System.out.printf(
            Locale.ROOT,
            "added by the hop: p50 median %.3f ms (%.3f–%.3f), p99 median %.3f ms (%.3f–%.3f)%n",
            added50[rounds / 2],
            added50[0],
            added50[rounds - 1],
            added99[rounds / 2],
            added99[0],
            added99[rounds - 1]);
      }
    }
  }

  private static double millis(long[] sortedNanos, double q) {
    return sortedNanos[Math.min(sortedNanos.length - 1, (int) (q * sortedNanos.length))] / 1e6;
  }

  /** One replica's conversion endpoint on a connection of its own. */
  private static final class Endpoint {
    private final HttpClient http;
    private final HttpRequest request;

    Endpoint(CertificateAuthority ca, int port, String target, byte[] body) {
      this.http =
          HttpClient.newBuilder()
              .version(HttpClient.Version.HTTP_2)
              .sslContext(ca.trustingContext())
              .build();
      this.request =
          HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + port + "/convert/" + target))
              .header("Content-Type", "application/json")
              .timeout(Duration.ofSeconds(10))
              .POST(HttpRequest.BodyPublishers.ofByteArray(body))
              .build();
    }

    void awaitSuccess() throws Exception {
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      var last = new ArrayList<String>();
      while (System.nanoTime() < deadline) {
        var answer = http.send(request, HttpResponse.BodyHandlers.ofString()).body();
        if (answer.contains("\"Success\"")) {
          return;
        }
        last.add(answer);
        Thread.sleep(250); // waiting for outside processes to compile and publish
      }
      throw new IllegalStateException("no successful review within 60 s: " + last.getLast());
    }

    /** One review; its latency in nanoseconds (a failed one throws). */
    long send() throws Exception {
      long t0 = System.nanoTime();
      var response = http.send(request, HttpResponse.BodyHandlers.ofString());
      long took = System.nanoTime() - t0;
      if (response.statusCode() != 200 || !response.body().contains("\"Success\"")) {
        throw new IllegalStateException("review failed: " + response.body());
      }
      return took;
    }
  }
}
