package dev.versio.bench.handover;

import dev.versio.bench.fleet.WebhookServerArgs;
import dev.versio.testkit.metrics.Exposition;
import dev.versio.testkit.process.LoopbackPorts;
import dev.versio.testkit.process.ManagedProcess;
import dev.versio.testkit.process.ProcessLedger;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The replicas of one ConversionWebhookServer in URL mode: each a {@code versio webhook-server}
 * child JVM on its own port, all behind one {@link LoopbackBalancer}, whose address is the server's
 * URL. Replicas publish their served targets as their "pod" {@code <server>-<i>}.
 */
public final class ServerReplicas implements AutoCloseable {
  private static final Duration READY_TIMEOUT = Duration.ofSeconds(120);

  /** One replica process and its ports. */
  record Replica(String pod, ManagedProcess process, int conversionPort, int opsPort) {}

  private final String server;
  private final List<Replica> replicas;
  private final LoopbackBalancer balancer;

  private ServerReplicas(String server, List<Replica> replicas, LoopbackBalancer balancer) {
    this.server = server;
    this.replicas = List.copyOf(replicas);
    this.balancer = balancer;
  }

  /**
   * Starts {@code count} replicas of {@code server} (Leases in {@code namespace}, TLS from {@code
   * tlsDir}, {@code drain} after a target is gone) and waits until every one is ready.
   */
  public static ServerReplicas start(
      String server,
      int count,
      String namespace,
      Path tlsDir,
      Duration drain,
      Path kubeconfig,
      Path logDir,
      ProcessLedger.Entry ledger)
      throws IOException {
    return start(
        server,
        count,
        namespace,
        tlsDir,
        drain,
        kubeconfig,
        logDir,
        ledger,
        List.of("-Xmx256m"),
        List.of());
  }

  /** The same with the replicas' JVM flags and more {@code versio webhook-server} flags. */
  public static ServerReplicas start(
      String server,
      int count,
      String namespace,
      Path tlsDir,
      Duration drain,
      Path kubeconfig,
      Path logDir,
      ProcessLedger.Entry ledger,
      List<String> jvmArgs,
      List<String> extraArgs)
      throws IOException {
    var replicas = new ArrayList<Replica>();
    LoopbackBalancer balancer = null;
    boolean ok = false;
    try {
      for (int i = 0; i < count; i++) {
        var pod = server + "-" + i;
        var ports = LoopbackPorts.distinct(2);
        int conversionPort = ports[0];
        int opsPort = ports[1];
        var command = new ArrayList<String>();
        command.add(ManagedProcess.currentJava());
        command.addAll(jvmArgs);
        command.addAll(
            List.of("--sun-misc-unsafe-memory-access=allow", "--enable-native-access=ALL-UNNAMED"));
        var flags = new ArrayList<>(List.of("--drain", drain.toMillis() + "ms"));
        flags.addAll(extraArgs);
        if (extraArgs.contains("--forward-reviews")) {
          // behind a front: each replica tells its peers its own address
          flags.addAll(List.of("--advertise-address", "127.0.0.1:" + conversionPort));
        }
        command.addAll(
            WebhookServerArgs.of(
                System.getProperty("java.class.path"),
                server,
                pod,
                namespace,
                tlsDir,
                conversionPort,
                opsPort,
                flags.toArray(String[]::new)));
        var process =
            ManagedProcess.start(
                pod,
                command,
                Map.of("KUBECONFIG", kubeconfig.toString()),
                logDir.resolve(pod + ".log"));
        ledger.recordProcess(process);
        replicas.add(new Replica(pod, process, conversionPort, opsPort));
      }
      for (var replica : replicas) {
        awaitReady(replica);
      }
      balancer = LoopbackBalancer.start(replicas.stream().map(Replica::conversionPort).toList());
      var started = new ServerReplicas(server, replicas, balancer);
      ok = true;
      return started;
    } finally {
      if (!ok) { // whatever went wrong, errors included: no replica outlives a failed start
        replicas.forEach(r -> r.process().stop(Duration.ofSeconds(5)));
        if (balancer != null) {
          balancer.close();
        }
      }
    }
  }

  String server() {
    return server;
  }

  /** The server's URL: its balancer. */
  public String url() {
    return "https://127.0.0.1:" + balancer.port();
  }

  List<Replica> replicas() {
    return replicas;
  }

  /** Each replica's process id, in replica order. */
  public List<Long> pids() {
    return replicas.stream().map(r -> r.process().pid()).toList();
  }

  /** Each replica's log file, in replica order. */
  public List<Path> logs() {
    return replicas.stream().map(r -> r.process().log()).toList();
  }

  /** Each replica's own ops port, in replica order. */
  public List<Integer> opsPorts() {
    return replicas.stream().map(Replica::opsPort).toList();
  }

  /** Each replica's own conversion port, in replica order (the balancer's is {@link #url()}). */
  public List<Integer> conversionPorts() {
    return replicas.stream().map(Replica::conversionPort).toList();
  }

  /** Connections the balancer gave each replica so far. */
  public List<Long> connectionsPerReplica() {
    return balancer.connectionsPerBackend();
  }

  /** Conversion reviews each replica answered so far (its own metrics); -1 for one unreadable. */
  public List<Long> reviewsPerReplica() {
    return scrapes().stream()
        .map(
            body ->
                body.isEmpty()
                    ? -1L
                    : (long)
                        Exposition.sum(body, "versio_webhook_conversion_review_requests_total"))
        .toList();
  }

  /** Each replica's {@code /metrics} now, in replica order; empty for one that did not answer. */
  public List<String> scrapes() {
    // HTTP/1.1, as Prometheus scrapes: the JDK client's default (HTTP/2 over cleartext, by an
    // upgrade) once waited for minutes on a body the replica had sent; and the whole exchange is
    // bounded, since a request's timeout covers only the wait for the response's headers
    var http =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2))
            .build();
    var out = new ArrayList<String>();
    for (var replica : replicas) {
      try {
        out.add(
            http.sendAsync(
                    HttpRequest.newBuilder(opsUri(replica, "/metrics"))
                        .timeout(Duration.ofSeconds(5))
                        .build(),
                    HttpResponse.BodyHandlers.ofString())
                .get(10, TimeUnit.SECONDS)
                .body());
      } catch (ExecutionException | TimeoutException e) {
        out.add("");
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        out.add("");
      }
    }
    return out;
  }

  /**
   * Stops every replica process ({@code SIGSTOP}), as a CPU-throttled or paused process is: it
   * neither answers nor sees events until {@link #resume()}.
   */
  void pause() {
    replicas.forEach(r -> signal("-STOP", r.process().pid()));
  }

  void resume() {
    replicas.forEach(r -> signal("-CONT", r.process().pid()));
  }

  /** Replicas that exited, with their exit codes (empty while all run). */
  public List<String> exited() {
    return replicas.stream()
        .filter(r -> !r.process().isAlive())
        .map(r -> r.pod() + " exited with " + r.process().exitCodeOrNull())
        .toList();
  }

  private static void signal(String signal, long pid) {
    try {
      var kill = new ProcessBuilder("kill", signal, Long.toString(pid)).inheritIO().start();
      if (kill.waitFor() != 0) {
        throw new IllegalStateException("kill " + signal + " " + pid + " failed");
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while signalling " + pid, e);
    }
  }

  private static URI opsUri(Replica replica, String path) {
    return URI.create("http://127.0.0.1:" + replica.opsPort() + path);
  }

  private static void awaitReady(Replica replica) {
    var http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
    var request =
        HttpRequest.newBuilder(opsUri(replica, "/readyz")).timeout(Duration.ofSeconds(2)).build();
    long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      if (!replica.process().isAlive()) {
        throw new IllegalStateException(
            replica.pod()
                + " exited while starting; last lines of "
                + replica.process().log()
                + ":\n"
                + replica.process().logTail(20));
      }
      try {
        if (http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
          return;
        }
      } catch (IOException e) {
        // not listening yet
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for " + replica.pod(), e);
      }
      try {
        Thread.sleep(200); // polling another process
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for " + replica.pod(), e);
      }
    }
    throw new IllegalStateException(
        replica.pod() + " not ready after " + READY_TIMEOUT + "; log " + replica.process().log());
  }

  @Override
  public void close() throws IOException {
    balancer.close();
    resume();
    replicas.forEach(r -> r.process().stop(Duration.ofSeconds(10)));
  }
}
