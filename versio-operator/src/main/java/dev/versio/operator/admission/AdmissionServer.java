package dev.versio.operator.admission;

import dev.versio.api.tls.TlsPolicy;
import dev.versio.operator.OperatorOptions;
import dev.versio.operator.cluster.ClusterCache;
import dev.versio.operator.tls.TlsMaterial;
import dev.versio.operator.tls.TlsSecret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.net.PemKeyCertOptions;
import io.vertx.core.net.ServerSSLOptions;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The operator's validating admission webhook for Versio's three kinds. Start-up: make sure the
 * self-signed TLS material in the admission Secret is valid for the names the apiserver uses,
 * listen on HTTPS, then server-side apply the ValidatingWebhookConfiguration that trusts the
 * Secret's CA. Every {@link #REFRESH_INTERVAL} the same steps run again, so material renewed by
 * this or another replica is picked up without a restart and a changed or deleted configuration is
 * put back.
 */
public final class AdmissionServer implements AutoCloseable {
  /** How often TLS material and the webhook configuration are checked again. */
  public static final Duration REFRESH_INTERVAL = Duration.ofMinutes(10);

  private static final Logger LOG = LoggerFactory.getLogger(AdmissionServer.class);
  private static final String COMMON_NAME = "versio-operator-admission";

  private final KubernetesClient client;
  private final Supplier<ClusterView> views;
  private final Supplier<ClusterView> confirmDenials;
  private final OperatorOptions options;
  private final TlsSecret secret;
  private final List<String> hosts;
  private final Vertx vertx = Vertx.vertx();
  private volatile HttpServer https;
  private volatile TlsMaterial material;
  private volatile boolean serving;
  private volatile boolean registered; // set once by register(), never reset
  private long refreshTimer = -1;

  private AdmissionServer(
      KubernetesClient client,
      OperatorOptions options,
      Clock clock,
      Supplier<ClusterView> views,
      Supplier<ClusterView> confirmDenials) {
    this.client = Objects.requireNonNull(client, "client");
    this.views = Objects.requireNonNull(views, "views");
    this.confirmDenials = confirmDenials;
    this.options = Objects.requireNonNull(options, "options");
    var admission =
        Objects.requireNonNull(
            options.admission(), "the admission webhook is not configured (options.admission)");
    this.hosts = WebhookRegistration.hosts(options);
    this.secret = new TlsSecret(client, options.namespace(), admission.tlsSecret(), clock);
  }

  /**
   * Ensures TLS material, listens, then registers the ValidatingWebhookConfiguration; checks that
   * read the cluster list from the apiserver on each request (for a webhook run on its own).
   */
  public static AdmissionServer start(
      KubernetesClient client, OperatorOptions options, Clock clock) {
    return start(client, options, clock, () -> new LiveClusterView(client), null);
  }

  /**
   * What the operator runs: checks that read its synced informer {@code cache} (no list per
   * request, so an admission call costs the same with 10 or 10,000 configs; a denial is checked
   * against the apiserver before it is answered, since the cache can lag a write just made). This
   * ensures TLS material and listens, but does not register the webhook, so the apiserver sends no
   * review yet; {@link #register()} does. The operator listens while its caches fill and registers
   * once they are full: a check that reads the caches never sees them half filled.
   */
  public static AdmissionServer listen(
      KubernetesClient client, OperatorOptions options, Clock clock, ClusterCache cache) {
    var serialization = client.getKubernetesSerialization();
    var server =
        new AdmissionServer(
            client,
            options,
            clock,
            () -> new CachedClusterView(cache, serialization),
            () -> new LiveClusterView(client));
    try {
      server.listen();
      return server;
    } catch (RuntimeException e) {
      server.close();
      throw e;
    }
  }

  private static AdmissionServer start(
      KubernetesClient client,
      OperatorOptions options,
      Clock clock,
      Supplier<ClusterView> views,
      Supplier<ClusterView> confirmDenials) {
    var server = new AdmissionServer(client, options, clock, views, confirmDenials);
    try {
      server.listen();
      server.register();
      return server;
    } catch (RuntimeException e) {
      server.close();
      throw e;
    }
  }

  private void listen() {
    var admission = options.admission();
    material = ensureTls();
    var processor =
        new AdmissionProcessor(
            new ConfigValidator(
                options.crdSupport(), options.xrdSupport(), options.targetConsent()),
            new ServerValidator(options.serverPolicy()),
            views,
            confirmDenials);
    var endpoint = new AdmissionEndpoint(vertx, processor, AdmissionEndpoint.MAX_BODY_BYTES);
    var httpsOptions =
        new HttpServerOptions()
            .setHost(options.host())
            .setPort(admission.port())
            .setSsl(true)
            .setUseAlpn(true)
            .setAlpnVersions(List.of(HttpVersion.HTTP_2, HttpVersion.HTTP_1_1))
            // idle connections closed after 120 s (the apiserver closes its own after 90 s), at
            // most 16 streams per HTTP/2 connection: see AdmissionEndpoint for the other limits
            .setIdleTimeout(120)
            .setIdleTimeoutUnit(TimeUnit.SECONDS)
            .setInitialSettings(
                new HttpServerOptions().getInitialSettings().setMaxConcurrentStreams(16))
            .setKeyCertOptions(keyCert(material))
            // Versio's TLS policy: TLS 1.2+, ECDHE with AEAD ciphers only
            .setEnabledSecureTransportProtocols(new LinkedHashSet<>(TlsPolicy.PROTOCOLS));
    TlsPolicy.CIPHER_SUITES.forEach(httpsOptions::addEnabledCipherSuite);
    https =
        await(
            vertx
                .createHttpServer(httpsOptions)
                .requestHandler(
                    request -> {
                      // listening, not yet registered: reviews that reach it anyway (a URL-mode
                      // configuration left by an earlier run) are not answered from caches that
                      // may still be filling
                      if (!registered) {
                        request
                            .response()
                            .setStatusCode(503)
                            .end("the operator is starting: its caches are not filled yet");
                        return;
                      }
                      endpoint.handle(request);
                    })
                .listen(),
            "cannot listen for admission reviews on "
                + options.host()
                + ":"
                + admission.port()
                + "; choose a free --admission-port");
  }

  /**
   * Registers the ValidatingWebhookConfiguration that sends reviews here, and from then on keeps
   * TLS material and registration current; after {@link #listen}.
   */
  public void register() {
    var admission = options.admission();
    registered = true; // before the configuration exists: the first review it sends is answered
    register(material);
    serving = true;
    LOG.info(
        "admission webhook serving on https://{}:{} and registered as ValidatingWebhookConfiguration {} ({})",
        options.host(),
        https.actualPort(),
        admission.webhookConfiguration(),
        admission.url() != null
            ? "URL " + admission.url()
            : "Service " + options.namespace() + "/" + admission.serviceName());
    refreshTimer =
        vertx.setPeriodic(
            REFRESH_INTERVAL.toMillis(), id -> vertx.executeBlocking(this::refresh, true));
  }

  /** The SSL options of a certificate swap: a swap replaces them all, so the policy goes too. */
  private static ServerSSLOptions renewed(TlsMaterial next) {
    var ssl =
        new ServerSSLOptions()
            .setKeyCertOptions(keyCert(next))
            .setEnabledSecureTransportProtocols(new LinkedHashSet<>(TlsPolicy.PROTOCOLS));
    TlsPolicy.CIPHER_SUITES.forEach(ssl::addEnabledCipherSuite);
    return ssl;
  }

  /** One refresh round; failures are logged and retried on the next round. */
  private Void refresh() {
    try {
      var next = ensureTls();
      if (!next.equals(material)) {
        await(
            https.updateSSLOptions(renewed(next)), "cannot load the renewed admission certificate");
        material = next;
        LOG.info("admission webhook now serves the renewed certificate");
      }
      register(next);
    } catch (RuntimeException e) {
      LOG.warn(
          "admission refresh failed; retrying in {} min: {}",
          REFRESH_INTERVAL.toMinutes(),
          e.getMessage());
    }
    return null;
  }

  private TlsMaterial ensureTls() {
    var admission = options.admission();
    try {
      return secret.ensure(COMMON_NAME, hosts);
    } catch (RuntimeException e) {
      throw new IllegalStateException(
          "cannot keep the admission TLS Secret "
              + options.namespace()
              + "/"
              + admission.tlsSecret()
              + ": "
              + e.getMessage()
              + "; check that the operator may get, create and update Secrets in "
              + options.namespace(),
          e);
    }
  }

  private void register(TlsMaterial tls) {
    var name = options.admission().webhookConfiguration();
    try {
      WebhookRegistration.apply(client, WebhookRegistration.desired(options, tls.caBundleBase64()));
    } catch (RuntimeException e) {
      throw new IllegalStateException(
          "cannot apply the ValidatingWebhookConfiguration "
              + name
              + ": "
              + e.getMessage()
              + "; check that the operator may get and patch validatingwebhookconfigurations",
          e);
    }
  }

  private static PemKeyCertOptions keyCert(TlsMaterial tls) {
    return new PemKeyCertOptions()
        .setCertValue(Buffer.buffer(tls.certificatePem().getBytes(StandardCharsets.US_ASCII)))
        .setKeyValue(Buffer.buffer(tls.privateKeyPem().getBytes(StandardCharsets.US_ASCII)));
  }

  /** Whether the webhook is listening and registered. */
  public boolean serving() {
    return serving;
  }

  /** The HTTPS port actually bound (useful when the configured port is 0). */
  public int port() {
    var server = https;
    return server == null ? -1 : server.actualPort();
  }

  /**
   * Stops listening (in-flight reviews finish) and releases the event loop. The webhook
   * configuration stays: other replicas serve it, and with none left admission fails closed.
   */
  @Override
  public void close() {
    serving = false;
    if (refreshTimer >= 0) {
      vertx.cancelTimer(refreshTimer);
    }
    var server = https;
    if (server != null) {
      awaitQuietly(server.shutdown(10, TimeUnit.SECONDS));
    }
    awaitQuietly(vertx.close());
  }

  private static <T> T await(Future<T> future, String failure) {
    try {
      return future.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(failure + ": interrupted", e);
    } catch (Exception e) {
      var cause = e.getCause() == null ? e : e.getCause();
      throw new IllegalStateException(failure + ": " + cause.getMessage(), cause);
    }
  }

  private static void awaitQuietly(Future<?> future) {
    try {
      future.toCompletionStage().toCompletableFuture().get(15, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception e) {
      LOG.debug("shutdown step did not complete cleanly: {}", e.toString());
    }
  }
}
