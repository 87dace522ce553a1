package dev.versio.bench.memory;

import dev.versio.api.served.ServedTargetsCodec;
import dev.versio.bench.fleet.WebhookServerArgs;
import dev.versio.testkit.process.ManagedProcess;
import dev.versio.testkit.process.ProcessLedger;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * One {@code versio webhook-server} replica in its own JVM, started the way the product launcher
 * starts it (its JVM flags, {@link #LAUNCHER_FLAGS}) plus the heap ceiling and native memory
 * tracking of the measurement, publishing its served targets as the "pod" it is given.
 */
final class ServerProcess implements AutoCloseable {
  /**
   * The JVM flags of the product launcher ({@code hack/dist/versio}; {@code bin/versio} has the
   * first three), without {@code -Dversio.home} and the AOT cache, which only the download has.
   */
  static final List<String> LAUNCHER_FLAGS =
      List.of(
          "--sun-misc-unsafe-memory-access=allow",
          "--enable-native-access=ALL-UNNAMED",
          "-XX:TrimNativeHeapInterval=1000",
          "-Xlog:disable",
          "-Xlog:all=warning,aot*=off,cds*=off:stderr");

  private static final Duration READY_TIMEOUT = Duration.ofSeconds(180);

  private final String pod;
  private final ManagedProcess process;
  private final int opsPort;
  private final long startedNanos;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  private ServerProcess(String pod, ManagedProcess process, int opsPort, long startedNanos) {
    this.pod = pod;
    this.process = process;
    this.opsPort = opsPort;
    this.startedNanos = startedNanos;
  }

  /** The command line of a replica, without the java binary. */
  static List<String> jvmFlags(String xmx, List<String> extraJvmArgs) {
    var flags = new ArrayList<>(LAUNCHER_FLAGS);
    flags.add("-Xmx" + xmx);
    flags.add("-XX:NativeMemoryTracking=summary");
    flags.addAll(extraJvmArgs);
    return flags;
  }

  static ServerProcess start(
      String server,
      String pod,
      String namespace,
      Path tlsDir,
      int conversionPort,
      int opsPort,
      String xmx,
      List<String> extraJvmArgs,
      String classpath,
      Path kubeconfig,
      Path log,
      ProcessLedger.Entry ledger)
      throws IOException {
    var command = new ArrayList<String>();
    command.add(ManagedProcess.currentJava());
    command.addAll(jvmFlags(xmx, extraJvmArgs));
    command.addAll(
        WebhookServerArgs.of(classpath, server, pod, namespace, tlsDir, conversionPort, opsPort));
    long started = System.nanoTime();
    var process =
        ManagedProcess.start(pod, command, Map.of("KUBECONFIG", kubeconfig.toString()), log);
    ledger.recordProcess(process);
    return new ServerProcess(pod, process, opsPort, started);
  }

  String pod() {
    return pod;
  }

  long pid() {
    return process.pid();
  }

  /** Seconds since the process was started. */
  double uptimeSeconds() {
    return (System.nanoTime() - startedNanos) / 1e9;
  }

  /** Waits until {@code /readyz} answers 200; returns the seconds since the start. */
  double awaitReady() throws InterruptedException {
    var request =
        HttpRequest.newBuilder(ops("/readyz")).timeout(Duration.ofSeconds(2)).GET().build();
    long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      checkAlive();
      try {
        if (http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
          return uptimeSeconds();
        }
      } catch (IOException e) {
        // not listening yet
      }
      Thread.sleep(100); // polling another process
    }
    throw new IllegalStateException(pod + " not ready after " + READY_TIMEOUT.toSeconds() + " s");
  }

  void checkAlive() {
    if (!process.isAlive()) {
      throw new IllegalStateException(
          pod
              + " exited with "
              + process.exitCodeOrNull()
              + "; last lines of its log:\n"
              + process.logTail(20));
    }
  }

  /** The Prometheus text of {@code /metrics}. */
  String scrape() throws IOException, InterruptedException {
    return http.send(
            HttpRequest.newBuilder(ops("/metrics")).timeout(Duration.ofSeconds(10)).GET().build(),
            HttpResponse.BodyHandlers.ofString())
        .body();
  }

  /** One sample of {@code metric} whose labels contain {@code label}, if present. */
  static OptionalLong sample(String scrape, String metric, String label) {
    for (var line : scrape.lines().toList()) {
      if (line.startsWith(metric + "{") && line.contains(label)) {
        return OptionalLong.of(
            (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)));
      }
    }
    return OptionalLong.empty();
  }

  /** The sum of every sample of {@code metric}. */
  static long sum(String scrape, String metric) {
    return (long) dev.versio.testkit.metrics.Exposition.sum(scrape, metric);
  }

  /** Targets with a servable plan, by the replica's own gauge; -1 when it cannot be read. */
  long servable() {
    try {
      return sample(scrape(), "versio_webhook_registry_entries", "state=\"servable\"").orElse(-1);
    } catch (IOException e) {
      return -1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    }
  }

  /** Targets whose compile failed, by the replica's own gauge. */
  long failing() {
    try {
      return sample(scrape(), "versio_webhook_registry_entries", "state=\"error\"").orElse(-1);
    } catch (IOException e) {
      return -1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    }
  }

  /** Targets this replica's served-target Leases list; -1 when they are absent or unreadable. */
  int leasedTargets(KubernetesClient client, String namespace) {
    List<Lease> leases =
        client
            .leases()
            .inNamespace(namespace)
            .withLabel(ServedTargetsCodec.REPLICA_LABEL, pod)
            .list()
            .getItems();
    var parts = leases.stream().map(l -> l.getMetadata().getAnnotations()).toList();
    if (parts.isEmpty()) {
      return -1;
    }
    return switch (ServedTargetsCodec.decode(parts)) {
      case ServedTargetsCodec.Decoded.Readable r -> r.targets().size();
      case ServedTargetsCodec.Decoded.Unreadable u -> -1;
    };
  }

  private URI ops(String path) {
    return URI.create("http://127.0.0.1:" + opsPort + path);
  }

  /** SIGTERM, as a Pod is stopped; the replica deletes its Leases on the way out. */
  @Override
  public void close() {
    process.stop(Duration.ofSeconds(20));
  }
}
