package dev.versio.webhook;

import dev.versio.webhook.forward.Forwarding;
import dev.versio.webhook.forward.PeerRoutes;
import dev.versio.webhook.forward.ReviewForwarder;
import dev.versio.webhook.http.ConversionEndpoint;
import dev.versio.webhook.http.ConversionListeners;
import dev.versio.webhook.http.OpsEndpoint;
import dev.versio.webhook.metrics.WebhookMetrics;
import dev.versio.webhook.registry.Registry;
import dev.versio.webhook.review.ReviewProcessor;
import dev.versio.webhook.served.ServedTargetsPublication;
import dev.versio.webhook.served.ServedTargetsPublisher;
import dev.versio.webhook.sync.RegistrySync;
import dev.versio.webhook.tls.ServingCertificate;
import dev.versio.webhook.tls.ServingTls;
import dev.versio.webhook.tracing.ReviewTracing;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpVersion;
import java.lang.management.ManagementFactory;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One webhook-server replica. Start-up order: the informers start listing, the ops listener (so
 * {@code /healthz} answers and {@code /readyz} says 503), the serving certificate (fail fast),
 * informer caches and the parallel initial compile (retried until they succeed), then the HTTPS
 * conversion listener, and only then ready. Afterwards changes are applied as they come and the
 * certificate is re-read on an interval; a bad rotation keeps the last good certificate.
 */
public final class WebhookServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(WebhookServer.class);

  /**
   * A connection that neither sends nor receives for this long is closed: longer than the 90 s the
   * apiserver's HTTP client keeps an idle connection, so it is the client that closes first.
   */
  static final Duration IDLE_TIMEOUT = Duration.ofSeconds(120);

  /**
   * HTTP/2 streams one connection may open at once (Vert.x's default is 100): an HTTP/2 client
   * needs several connections, each of which counts against its share of the reviews in flight, to
   * hold many slots.
   */
  static final long MAX_CONCURRENT_STREAMS = 32;

  private final Vertx vertx;
  private final WebhookServerOptions options;
  private final WebhookMetrics metrics;
  private final Registry registry;
  private final RegistrySync sync;
  private final HttpServer ops;
  private volatile ConversionListeners conversion;
  private volatile boolean ready;
  private final java.util.concurrent.atomic.AtomicBoolean closed =
      new java.util.concurrent.atomic.AtomicBoolean();
  private volatile String certificateFingerprint;
  private long reloadTimer = -1;
  private final AtomicBoolean swapping = new AtomicBoolean();
  private final ReviewTracing tracing;
  private final ServedTargetsPublisher publisher;
  private final Forwarding forwarding;
  private final ServedTargetsPublication publication;
  private final KubernetesClient client;
  private final PeerRoutes peers;
  private volatile ReviewForwarder forwarder;

  private WebhookServer(
      KubernetesClient client,
      WebhookServerOptions options,
      Clock clock,
      ReviewTracing tracing,
      ServedTargetsPublication publication,
      Forwarding forwarding) {
    if (forwarding != null && publication == null) {
      throw new IllegalArgumentException(
          "forwarding reviews needs the served-target Leases: give the replica its pod name and"
              + " namespace (--pod-name, --pod-namespace)");
    }
    this.forwarding = forwarding;
    this.publication = publication;
    this.client = client;
    this.peers =
        forwarding == null
            ? null
            : new PeerRoutes(
                clock, publication.identity().namespace() + "/" + publication.identity().podName());
    this.options = options;
    this.tracing = tracing;
    this.metrics = new WebhookMetrics(options.metricsVersionLabels(), clock);
    var seen = metrics.versionsSeen();
    this.publisher =
        publication == null
            ? null
            : new ServedTargetsPublisher(
                client,
                publication.identity(),
                options.serverName(),
                clock,
                publication.heartbeat(),
                forwarding == null ? null : forwarding.advertiseAddress(),
                () ->
                    dev.versio.api.served.VersionsSeenCodec.annotations(
                        seen.snapshot(), seen.since()));
    this.registry =
        new Registry(
            clock,
            snapshot -> {
              metrics.registry(snapshot);
              if (publisher != null) {
                publisher.changed(snapshot);
              }
            });
    this.sync =
        new RegistrySync(
            client,
            options.serverName(),
            registry,
            metrics,
            clock,
            options.configLabelSelector(),
            options.drain());
    // the informers list from the apiserver on their own threads while Vert.x and the ops
    // listener start: on a cold JVM both take hundreds of milliseconds
    sync.startInformers();
    Vertx started = null;
    try {
      started = Vertx.vertx();
      var opsEndpoint = new OpsEndpoint(registry, metrics, () -> ready, options.debugEndpoints());
      this.ops =
          await(
              started
                  .createHttpServer(
                      new HttpServerOptions().setHost(options.host()).setPort(options.opsPort()))
                  .requestHandler(opsEndpoint::handle)
                  .listen(),
              "ops listener on port " + options.opsPort());
      this.vertx = started;
    } catch (RuntimeException e) {
      sync.close();
      if (started != null) {
        awaitQuietly(started.close());
      }
      throw e;
    }
  }

  /** Starts a replica and returns once it is ready (or throws with what to fix). */
  public static WebhookServer start(
      KubernetesClient client, WebhookServerOptions options, Clock clock)
      throws InterruptedException {
    return start(client, options, clock, ReviewTracing.off());
  }

  /** As {@link #start(KubernetesClient, WebhookServerOptions, Clock)}, with review spans. */
  public static WebhookServer start(
      KubernetesClient client, WebhookServerOptions options, Clock clock, ReviewTracing tracing)
      throws InterruptedException {
    return start(client, options, clock, tracing, null);
  }

  /**
   * As {@link #start(KubernetesClient, WebhookServerOptions, Clock, ReviewTracing)}, publishing the
   * served targets into Leases once ready ({@code publication} null: not published).
   */
  public static WebhookServer start(
      KubernetesClient client,
      WebhookServerOptions options,
      Clock clock,
      ReviewTracing tracing,
      ServedTargetsPublication publication)
      throws InterruptedException {
    return start(client, options, clock, tracing, publication, null);
  }

  /**
   * As {@link #start(KubernetesClient, WebhookServerOptions, Clock, ReviewTracing,
   * ServedTargetsPublication)}, behind the pool's front: reviews for targets this replica does not
   * hold are passed on to a replica that does ({@code forwarding} null: answered here).
   */
  public static WebhookServer start(
      KubernetesClient client,
      WebhookServerOptions options,
      Clock clock,
      ReviewTracing tracing,
      ServedTargetsPublication publication,
      Forwarding forwarding)
      throws InterruptedException {
    var server = new WebhookServer(client, options, clock, tracing, publication, forwarding);
    try {
      server.startUp();
      return server;
    } catch (RuntimeException | InterruptedException e) {
      server.close();
      throw e;
    }
  }

  private void startUp() throws InterruptedException {
    LOG.info(
        "webhook server {}: ops listener on {}:{} (/healthz, /readyz, /metrics{})",
        options.serverName(),
        options.host(),
        ops.actualPort(),
        options.debugEndpoints() ? ", /debug/registry" : "");
    long opsListening = jvmUptimeMillis();
    var certificate = ServingCertificate.read(options.tlsCertDir());
    long started = System.nanoTime();
    var initial = syncUntilComplete();
    var took = Duration.ofNanos(System.nanoTime() - started);
    long listenerStarted = System.nanoTime();
    if (peers != null) {
      peers.start(client, publication.identity().namespace());
      sync.followPeers(peers, publication.identity().namespace());
      forwarder =
          new ReviewForwarder(
              vertx, peers, forwarding, publication.identity().podName(), metrics::hedged);
    }
    var endpoint =
        new ConversionEndpoint(
            vertx,
            new ReviewProcessor(registry, options.maxBodyBytes()),
            metrics,
            options.reviewLimits(),
            tracing,
            forwarder,
            sync::handedOverTo);
    var httpsOptions =
        ServingTls.apply(
            new HttpServerOptions()
                .setHost(options.host())
                .setPort(options.conversionPort())
                .setUseAlpn(true)
                .setAlpnVersions(List.of(HttpVersion.HTTP_2, HttpVersion.HTTP_1_1))
                .setIdleTimeout((int) IDLE_TIMEOUT.toSeconds())
                .setIdleTimeoutUnit(TimeUnit.SECONDS)
                .setInitialSettings(
                    new HttpServerOptions()
                        .getInitialSettings()
                        .setMaxConcurrentStreams(MAX_CONCURRENT_STREAMS)),
            certificate.options());
    conversion =
        await(
            ConversionListeners.start(vertx, httpsOptions, endpoint::handle, options.eventLoops()),
            "HTTPS conversion listener on port " + options.conversionPort());
    certificateFingerprint = certificate.fingerprint();
    metrics.certificateExpires(certificate.notAfter());
    metrics.initialSync(initial.targets(), took);
    ready = true;
    LOG.info(
        "webhook server {} ready: initial sync compiled {} target(s) on {} worker(s) in {} ms; conversions at https://{}:{}/convert/<target> on {} event loop(s), review budget {} ms",
        options.serverName(),
        initial.targets(),
        options.initialSyncWorkers(),
        took.toMillis(),
        options.host(),
        conversion.port(),
        conversion.loops(),
        options.reviewBudget().toMillis());
    LOG.info(
        "start-up of webhook server {}: ready {} ms after the JVM started; ops listener at {} ms,"
            + " then informer caches filled in {} ms, initial compile {} ms, HTTPS listener {} ms",
        options.serverName(),
        jvmUptimeMillis(),
        opsListening,
        initial.informers().toMillis(),
        initial.compile().toMillis(),
        Duration.ofNanos(System.nanoTime() - listenerStarted).toMillis());
    sync.startWatching();
    if (publisher != null) {
      publisher.start(registry.snapshot()); // only now: the listener can serve what it reports
    }
    reloadTimer =
        vertx.setPeriodic(options.certReloadInterval().toMillis(), id -> reloadCertificate());
  }

  /** What the initial sync took: waiting for the informer caches, then the compile. */
  private record InitialSync(int targets, Duration informers, Duration compile) {}

  private InitialSync syncUntilComplete() throws InterruptedException {
    long backoff = 500;
    long waiting = System.nanoTime();
    while (true) {
      try {
        if (sync.awaitSynced(Duration.ofSeconds(10))) {
          long synced = System.nanoTime();
          int targets = sync.initialSync(options.initialSyncWorkers());
          return new InitialSync(
              targets,
              Duration.ofNanos(synced - waiting),
              Duration.ofNanos(System.nanoTime() - synced));
        }
        LOG.warn(
            "informer caches are not filled yet (readiness stays 503); check that this replica may list and watch"
                + " versio.dev configs and servers and CustomResourceDefinitions");
      } catch (RuntimeException e) {
        LOG.warn(
            "initial sync failed, retrying in {} ms (readiness stays 503 until it succeeds): {}",
            backoff,
            e.getMessage());
        Thread.sleep(backoff); // back-off between retries of an external dependency
        backoff = Math.min(backoff * 2, 30_000);
      }
    }
  }

  /** Re-reads the certificate files; a change is applied without restart, a bad file is ignored. */
  public void reloadCertificate() {
    if (forwarder != null) {
      forwarder
          .reloadTrust()
          .onFailure(
              e ->
                  LOG.warn(
                      "cannot re-read the peer CA {}; the last one stays trusted: {}",
                      forwarding.peerCa(),
                      e.getMessage()));
    }
    ServingCertificate next;
    try {
      next = ServingCertificate.read(options.tlsCertDir());
    } catch (RuntimeException e) {
      metrics.tlsReload(false);
      LOG.warn(
          "cannot re-read the serving certificate; the last good one keeps serving: {}",
          e.getMessage());
      return;
    }
    if (next.fingerprint().equals(certificateFingerprint)) {
      return;
    }
    // one swap at a time: ticks that pile up (a process stopped for a while, a slow swap) would
    // otherwise start the same swap again, which Vert.x answers with "nothing to change"
    if (!swapping.compareAndSet(false, true)) {
      return;
    }
    io.vertx.core.Future<Boolean> update;
    try {
      update = conversion.updateSSLOptions(ServingTls.swap(next.options()));
    } catch (RuntimeException e) { // e.g. the listener closed meanwhile ("Not listening")
      swapping.set(false);
      metrics.tlsReload(false);
      LOG.warn("the new serving certificate could not be applied: {}", e.getMessage());
      return;
    }
    update.onComplete(
        ar -> {
          if (ar.succeeded()) {
            // false: the listener already has exactly these options (nothing was rejected)
            boolean swapped = Boolean.TRUE.equals(ar.result());
            certificateFingerprint = next.fingerprint();
            swapping.set(false); // after the fingerprint: the next tick compares with it
            metrics.certificateExpires(next.notAfter());
            if (swapped) {
              metrics.tlsReload(true);
              LOG.info("serving certificate reloaded");
            }
          } else {
            swapping.set(false);
            metrics.tlsReload(false);
            LOG.warn(
                "the new serving certificate was rejected; the last good one keeps serving: {}",
                ar.cause().getMessage());
          }
        });
  }

  public boolean ready() {
    return ready;
  }

  /**
   * The first step of a graceful stop: {@code /readyz} answers 503 from now on, so the replica's
   * endpoint is taken out of its Service, while conversions keep being answered until {@link
   * #close()}. Called for the shutdown delay (the image has no shell for a preStop sleep).
   */
  public void stopAdvertising() {
    ready = false;
    metrics.notReady();
  }

  public int conversionPort() {
    return conversion.port();
  }

  public int opsPort() {
    return ops.actualPort();
  }

  /**
   * Behind the front, the server {@code target} was handed over to while this replica drains it
   * (its reviews go there), or null.
   */
  public String handedOverTo(String target) {
    return sync.handedOverTo(target);
  }

  public Registry registry() {
    return registry;
  }

  public RegistrySync sync() {
    return sync;
  }

  /** Stops accepting, lets in-flight reviews finish, and releases everything. */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return; // closed already (the CLI closes after its graceful stop, then on leaving its try)
    }
    ready = false;
    if (publisher != null) {
      publisher.close(); // first: the operator stops counting this replica before it stops serving
    }
    if (reloadTimer >= 0) {
      vertx.cancelTimer(reloadTimer);
    }
    if (conversion != null) {
      awaitQuietly(conversion.shutdown(Duration.ofSeconds(10)));
    }
    if (forwarder != null) {
      forwarder.close();
    }
    if (peers != null) {
      peers.close();
    }
    awaitQuietly(ops.close());
    sync.close();
    awaitQuietly(vertx.close());
  }

  /** Milliseconds since this JVM started (start-up figures in the log). */
  private static long jvmUptimeMillis() {
    return ManagementFactory.getRuntimeMXBean().getUptime();
  }

  private static <T> T await(Future<T> future, String what) {
    try {
      return future.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    } catch (Exception e) {
      var cause = e.getCause() == null ? e : e.getCause();
      throw new IllegalStateException(
          "cannot start the " + what + ": " + cause.getMessage(), cause);
    }
  }

  private static void awaitQuietly(Future<?> future) {
    try {
      future.toCompletionStage().toCompletableFuture().get(15, TimeUnit.SECONDS);
    } catch (Exception e) {
      LOG.debug("shutdown step did not complete cleanly: {}", e.toString());
    }
  }
}
