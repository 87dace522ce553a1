package dev.versio.cli;

import dev.versio.webhook.WebhookServer;
import dev.versio.webhook.WebhookServerOptions;
import dev.versio.webhook.forward.Forwarding;
import dev.versio.webhook.served.ReplicaIdentity;
import dev.versio.webhook.served.ServedTargetsPublication;
import dev.versio.webhook.tracing.OtlpTracing;
import dev.versio.webhook.tracing.ReviewTracing;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code versio webhook-server}: one replica of the conversion webhook runtime. */
@Command(
    name = "webhook-server",
    mixinStandardHelpOptions = true,
    description = {
      "Serve conversion webhooks for every config assigned to one ConversionWebhookServer.",
      "",
      "Watches configs, servers and target CRDs/XRDs, compiles every assigned config, and answers"
          + " POST /convert/<target> over HTTPS (HTTP/2 and HTTP/1.1). Health, readiness (503 until the"
          + " first complete sync), and metrics (and /debug/registry when enabled) are on a separate plain-HTTP port. The"
          + " operator runs this in the server's Deployment."
    },
    footerHeading = "%nExample:%n",
    footer = {"  versio webhook-server --server-name default --tls-cert-dir /tls"})
final class WebhookServerCommand implements Callable<Integer> {
  @Option(
      paramLabel = "NAME",
      names = "--server-name",
      required = true,
      description = "The ConversionWebhookServer this replica belongs to.")
  String serverName;

  @Option(
      paramLabel = "DIR",
      names = "--tls-cert-dir",
      defaultValue = "/tls",
      description = "Folder with tls.crt and tls.key (default: ${DEFAULT-VALUE}).")
  Path tlsCertDir;

  @Option(
      paramLabel = "HOST",
      names = "--bind-address",
      defaultValue = "0.0.0.0",
      description = "Address of both listeners (default: ${DEFAULT-VALUE}).")
  String host;

  @Option(
      paramLabel = "PORT",
      names = "--conversion-port",
      defaultValue = "9443",
      description = "HTTPS conversion port (default: ${DEFAULT-VALUE}).")
  int conversionPort;

  @Option(
      paramLabel = "PORT",
      names = "--ops-port",
      defaultValue = "8080",
      description = "Plain-HTTP health/metrics port (default: ${DEFAULT-VALUE}).")
  int opsPort;

  @Option(
      paramLabel = "DURATION",
      names = "--cert-reload-interval",
      defaultValue = "30s",
      description =
          "How often the certificate files are re-read, e.g. 30s or 5m (default: ${DEFAULT-VALUE}).")
  String certReloadInterval;

  @Option(
      paramLabel = "BYTES",
      names = "--max-body-bytes",
      description =
          "Largest accepted request body; larger ones get 413 (default: a 32nd of the largest"
              + " heap, which handling a review of that size may fill; at least 1 MiB, at most 64"
              + " MiB).")
  Long maxBodyBytes;

  @Option(
      paramLabel = "N",
      names = "--max-in-flight",
      defaultValue = "256",
      description =
          "Reviews a replica holds at once; one more gets 429 with Retry-After at once instead of"
              + " waiting in a queue (default: ${DEFAULT-VALUE}).")
  int maxInFlight;

  @Option(
      paramLabel = "N",
      names = "--max-in-flight-per-client",
      description =
          "Reviews one remote address may hold at once, so that one client cannot take every slot"
              + " from the apiservers (default: half of --max-in-flight).")
  Integer maxInFlightPerClient;

  @Option(
      paramLabel = "BYTES",
      names = "--max-bytes-in-flight",
      description =
          "Request body bytes all reviews together may hold at once; a review beyond it gets 429"
              + " (default: a 32nd of the largest heap, at least --max-body-bytes).")
  Long maxBytesInFlight;

  @Option(
      paramLabel = "DURATION",
      names = "--body-timeout",
      defaultValue = "10s",
      description =
          "How long a request may take to send its whole body; a slower one gets 408 and its"
              + " connection (HTTP/1.1) or stream (HTTP/2) is closed (default: ${DEFAULT-VALUE}).")
  String bodyTimeout;

  @Option(
      paramLabel = "DURATION",
      names = "--review-timeout",
      defaultValue = "5s",
      description =
          "Wall-clock budget of a review that runs off the event loops (large, or its target runs"
              + " CEL or JSON Patch); past it the apiserver gets a Failure naming the budget. Keep it"
              + " under the apiserver's 30s conversion timeout (default: ${DEFAULT-VALUE}).")
  String reviewTimeout;

  @Option(
      paramLabel = "N",
      names = "--event-loops",
      description =
          "Event loops of the HTTPS conversion listener, one server each (default: one per"
              + " available core).")
  Integer eventLoops;

  @Option(
      paramLabel = "N",
      names = "--initial-sync-workers",
      description = "Threads of the initial compile (default: available processors).")
  Integer initialSyncWorkers;

  @Option(
      paramLabel = "SELECTOR",
      names = "--config-selector",
      description =
          "Label selector limiting which configs this replica watches, e.g. team=payments.")
  String configSelector;

  @Option(
      names = "--otlp-traces-endpoint",
      paramLabel = "URL",
      description =
          "Send one span per ConversionReview to this OTLP/HTTP traces URL, e.g."
              + " http://otel-collector:4318/v1/traces (default: tracing off).")
  java.net.URI otlpTracesEndpoint;

  @Option(
      paramLabel = "RATIO",
      names = "--trace-sample-ratio",
      defaultValue = "0.1",
      description =
          "Share of new traces recorded when tracing is on; traces the apiserver started follow"
              + " its decision (default: ${DEFAULT-VALUE}).")
  double traceSampleRatio;

  @Option(
      paramLabel = "NAME",
      names = "--pod-name",
      defaultValue = "${env:POD_NAME}",
      description =
          "This replica's Pod, which names its served-target Leases (default: $POD_NAME from the"
              + " downward API). With --pod-namespace it turns publishing on.")
  String podName;

  @Option(
      paramLabel = "UID",
      names = "--pod-uid",
      defaultValue = "${env:POD_UID}",
      description = "The Pod's UID, which owns the Leases (default: $POD_UID).")
  String podUid;

  @Option(
      paramLabel = "NAMESPACE",
      names = "--pod-namespace",
      defaultValue = "${env:POD_NAMESPACE}",
      description = "Where the Leases live (default: $POD_NAMESPACE).")
  String podNamespace;

  @Option(
      paramLabel = "DURATION",
      names = "--served-targets-heartbeat",
      defaultValue = "30s",
      description =
          "How often the served-target Lease is renewed; the operator counts a replica live for"
              + " three (default: ${DEFAULT-VALUE}).")
  String servedTargetsHeartbeat;

  @Option(
      paramLabel = "DURATION",
      names = "--drain",
      defaultValue = "30s",
      description =
          "How long a target is still served after it is neither assigned to this server nor named"
              + " by the live CRD's spec.conversion (default: ${DEFAULT-VALUE}).")
  String drain;

  @Option(
      paramLabel = "DURATION",
      names = "--shutdown-delay",
      defaultValue = "5s",
      description =
          "On SIGTERM, how long /readyz answers 503 while conversions are still served, so the"
              + " replica leaves its Service's endpoints before it stops (default: ${DEFAULT-VALUE}).")
  String shutdownDelay;

  @Option(
      names = "--metrics-version-labels",
      description =
          "Label review metrics with the from and to versions too (default: off; they multiply"
              + " every target's series by its version pairs).")
  boolean metricsVersionLabels;

  @Option(
      names = "--enable-debug-endpoints",
      description =
          "Serve /debug/registry on the ops port: every config, plan hash and error this replica"
              + " holds (default: off).")
  boolean debugEndpoints;

  @Option(
      names = "--forward-reviews",
      description =
          "Behind the pool's front: pass a review for a target this replica does not hold to a"
              + " live replica that does (found in the served-target Leases), instead of failing"
              + " it. Needs --pod-name, --pod-namespace and an address for the peers (default:"
              + " off; the operator turns it on for servers behind the front).")
  boolean forwardReviews;

  @Option(
      paramLabel = "HOST:PORT",
      names = "--advertise-address",
      description =
          "Where the other replicas reach this replica's conversion listener (default:"
              + " $POD_IP:<conversion port>).")
  String advertiseAddress;

  @Option(
      paramLabel = "FILE",
      names = "--peer-ca",
      description =
          "PEM CA that signs the peers' serving certificates (default: ca.crt in --tls-cert-dir).")
  Path peerCa;

  @Option(
      paramLabel = "DURATION",
      names = "--forward-timeout",
      defaultValue = "5s",
      description =
          "The most one forwarded review may take, one retry on another holder included; keep it"
              + " well inside the apiserver's webhook timeout (default: ${DEFAULT-VALUE}).")
  String forwardTimeout;

  @Option(
      paramLabel = "DURATION",
      names = "--forward-hedge-after",
      description =
          "When a holder has not answered a forwarded review within this, ask the next holder too"
              + " and take the first answer, so a frozen peer costs this long, not the timeout;"
              + " shorter than --forward-timeout; 0s: never (default: 250ms, or never when"
              + " --forward-timeout is not longer).")
  String forwardHedgeAfter;

  /** Forwarding, when asked for, with its defaults filled in. */
  Forwarding forwarding() {
    if (!forwardReviews) {
      return null;
    }
    var address = advertiseAddress;
    if (address == null || address.isBlank()) {
      var podIp = System.getenv("POD_IP");
      if (podIp == null || podIp.isBlank() || conversionPort == 0) {
        throw new IllegalArgumentException(
            "--forward-reviews needs --advertise-address HOST:PORT (or $POD_IP and a fixed"
                + " --conversion-port)");
      }
      address = (podIp.contains(":") ? "[" + podIp + "]" : podIp) + ":" + conversionPort;
    }
    var ca = peerCa == null ? tlsCertDir.resolve("ca.crt") : peerCa;
    if (!java.nio.file.Files.isReadable(ca)) {
      throw new IllegalArgumentException(
          "--forward-reviews needs the CA of the peers' certificates: "
              + ca
              + " cannot be read (--peer-ca)");
    }
    var timeout = Durations.parse(forwardTimeout);
    return new Forwarding(
        address,
        ca,
        timeout,
        forwardHedgeAfter == null
            ? Forwarding.defaultHedge(timeout)
            : Durations.parse(forwardHedgeAfter));
  }

  /** Publishing is on when the replica knows its pod name and namespace. */
  ServedTargetsPublication publication() {
    if (podName == null || podName.isBlank() || podNamespace == null || podNamespace.isBlank()) {
      return null;
    }
    return new ServedTargetsPublication(
        new ReplicaIdentity(podName, podUid, podNamespace),
        Durations.parse(servedTargetsHeartbeat));
  }

  @Override
  public Integer call() throws Exception {
    long maxBodyBytes =
        this.maxBodyBytes == null ? WebhookServerOptions.defaultMaxBodyBytes() : this.maxBodyBytes;
    var options =
        new WebhookServerOptions(
            serverName,
            tlsCertDir,
            host,
            conversionPort,
            opsPort,
            Durations.parse(certReloadInterval),
            maxBodyBytes,
            initialSyncWorkers == null
                ? Runtime.getRuntime().availableProcessors()
                : initialSyncWorkers,
            configSelector,
            Durations.parse(drain),
            debugEndpoints,
            metricsVersionLabels,
            maxInFlight,
            Durations.parse(reviewTimeout),
            eventLoops == null ? WebhookServerOptions.defaultEventLoops() : eventLoops,
            maxInFlightPerClient == null
                ? WebhookServerOptions.defaultPerClient(maxInFlight)
                : maxInFlightPerClient,
            maxBytesInFlight == null
                ? WebhookServerOptions.defaultBytesInFlight(maxBodyBytes)
                : maxBytesInFlight,
            Durations.parse(bodyTimeout));
    var stop = StopSignal.install(Duration.ofSeconds(30));
    var otlp =
        otlpTracesEndpoint == null
            ? null
            : new OtlpTracing(otlpTracesEndpoint, traceSampleRatio, serverName);
    var tracing = otlp == null ? ReviewTracing.off() : otlp.reviewTracing();
    try (var client = new KubernetesClientBuilder().build();
        var server =
            WebhookServer.start(
                client, options, Clock.systemUTC(), tracing, publication(), forwarding())) {
      stop.await();
      // out of the Service's endpoints first, still serving what the apiserver already sends
      server.stopAdvertising();
      Thread.sleep(Durations.parse(shutdownDelay).toMillis());
      server.close(); // stop accepting, finish in-flight reviews
    } finally {
      if (otlp != null) {
        otlp.close(); // flush buffered spans
      }
      stop.stopped();
    }
    return 0;
  }
}
