package dev.versio.testkit;

import dev.versio.testkit.process.Folders;
import dev.versio.testkit.process.LoopbackPorts;
import dev.versio.testkit.process.ManagedProcess;
import dev.versio.testkit.process.ProcessLedger;
import dev.versio.testkit.process.Watchdog;
import dev.versio.testkit.tls.CertificateAuthority;
import dev.versio.testkit.tls.PemMaterial;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * A real etcd and kube-apiserver on free loopback ports, for integration tests and local debugging.
 *
 * <p>The apiserver runs with RBAC, a static admin token ({@code system:masters}), a client CA (so
 * {@link #clientAs} can mint any user and groups), a service-account signing key, and a serving
 * certificate from a CA minted here. Every process is recorded in a machine-wide {@link
 * ProcessLedger} and watched by a {@link Watchdog}, so nothing outlives the JVM that started it,
 * even after {@code kill -9}; {@link #close} and a shutdown hook stop everything on normal exits.
 */
public final class ControlPlane implements AutoCloseable {
  private static final Duration ETCD_TIMEOUT = Duration.ofSeconds(30);
  private static final Duration APISERVER_TIMEOUT = Duration.ofSeconds(90);
  private static final int START_ATTEMPTS = 3;

  private final String id;
  private final Path dir;
  private final URI url;
  private final CertificateAuthority ca;
  private final String adminToken;
  private final Path kubeconfig;
  private final Duration startupTime;
  private volatile ManagedProcess etcd;
  private volatile ManagedProcess apiServer;
  private final List<String> etcdCommand;
  private final List<String> apiServerCommand;
  private final URI etcdHealth;
  private final ProcessLedger.Entry ledgerEntry;
  private final Watchdog watchdog;
  private final Path etcdData;
  private final Thread shutdownHook;
  private final Consumer<String> out;
  private volatile boolean closed;

  private ControlPlane(Builder b) {
    this.id = b.id;
    this.dir = b.dir;
    this.url = b.url;
    this.ca = b.ca;
    this.adminToken = b.adminToken;
    this.kubeconfig = b.kubeconfig;
    this.startupTime = b.startupTime;
    this.etcd = b.etcd;
    this.apiServer = b.apiServer;
    this.etcdCommand = List.copyOf(b.etcdCommand);
    this.apiServerCommand = List.copyOf(b.apiServerCommand);
    this.etcdHealth = b.etcdHealth;
    this.ledgerEntry = b.ledgerEntry;
    this.watchdog = b.watchdog;
    this.etcdData = b.etcdData;
    this.out = b.out;
    this.shutdownHook = new Thread(this::close, "versio-testkit-shutdown-" + id);
    Runtime.getRuntime().addShutdownHook(shutdownHook);
  }

  /** Starts a control plane from the default assets under {@code workRoot}, logging to stderr. */
  public static ControlPlane start(Path workRoot) {
    return start(ControlPlaneAssets.locate(), workRoot, System.err::println);
  }

  /**
   * Starts a control plane. Stale processes of killed runs are stopped first. Returns once {@code
   * /readyz} answers 200.
   *
   * @param workRoot folder under which this control plane keeps its certificates, logs and
   *     kubeconfig (one sub-folder per control plane)
   * @param out where progress and the kubeconfig path are printed
   */
  public static ControlPlane start(ControlPlaneAssets assets, Path workRoot, Consumer<String> out) {
    var ledger = new ProcessLedger(ProcessLedger.defaultDirectory(), out);
    ledger.reapStale();
    IllegalStateException last = null;
    for (int attempt = 1; attempt <= START_ATTEMPTS; attempt++) {
      try {
        return startOnce(assets, workRoot, ledger, out);
      } catch (PortTakenException e) {
        last = e; // another process grabbed a "free" port between probe and bind: try new ports
        out.accept("control plane: port race on attempt " + attempt + " (" + e.getMessage() + ")");
      }
    }
    throw last;
  }

  private static ControlPlane startOnce(
      ControlPlaneAssets assets, Path workRoot, ProcessLedger ledger, Consumer<String> out) {
    var b = new Builder();
    b.out = out;
    var started = System.nanoTime();
    b.id =
        DateTimeFormatter.ofPattern("HHmmss").format(LocalDateTime.now())
            + "-"
            + HexFormat.of().formatHex(new SecureRandom().generateSeed(3));
    try {
      b.dir = Files.createDirectories(workRoot.toAbsolutePath().resolve("cp-" + b.id));
      b.ledgerEntry = ledger.open(b.id);
      b.watchdog = Watchdog.start(b.ledgerEntry.file());
      b.ledgerEntry.recordPath(b.dir.resolve("etcd-data"));
      var shm = Path.of("/dev/shm");
      b.etcdData =
          Files.isDirectory(shm) && Files.isWritable(shm)
              ? shm.resolve("versio-etcd-" + ProcessHandle.current().pid() + "-" + b.id)
              : b.dir.resolve("etcd-data");
      b.ledgerEntry.recordPath(b.etcdData);

      var certs = Files.createDirectories(b.dir.resolve("pki"));
      b.ca = CertificateAuthority.create("versio-test-ca-" + b.id);
      var caFile = Files.writeString(certs.resolve("ca.crt"), b.ca.certificatePem());
      var serving = b.ca.issueServer("127.0.0.1", "localhost").writeTo(certs, "apiserver");
      var serviceAccount = CertificateAuthority.create("versio-test-sa-" + b.id).material();
      var saKey = Files.writeString(certs.resolve("sa.key"), serviceAccount.privateKeyPem());
      var saPublic = Files.writeString(certs.resolve("sa.crt"), serviceAccount.certificatePem());
      b.adminToken = HexFormat.of().formatHex(new SecureRandom().generateSeed(16));
      var tokens =
          Files.writeString(
              certs.resolve("tokens.csv"), b.adminToken + ",admin,admin-uid,\"system:masters\"\n");

      var ports = LoopbackPorts.distinct(3); // never the same port twice before etcd binds it
      int etcdPort = ports[0];
      int etcdPeerPort = ports[1];
      int apiPort = ports[2];
      var etcdUrl = "http://127.0.0.1:" + etcdPort;
      b.etcdCommand =
          List.of(
              assets.etcd().toString(),
              "--name=versio-test",
              "--data-dir=" + b.etcdData,
              "--listen-client-urls=" + etcdUrl,
              "--advertise-client-urls=" + etcdUrl,
              "--listen-peer-urls=http://127.0.0.1:" + etcdPeerPort,
              "--initial-advertise-peer-urls=http://127.0.0.1:" + etcdPeerPort,
              "--initial-cluster=versio-test=http://127.0.0.1:" + etcdPeerPort,
              "--listen-metrics-urls=",
              "--heartbeat-interval=50",
              "--election-timeout=250",
              "--log-level=warn",
              "--logger=zap");
      b.etcd = ManagedProcess.start("etcd", b.etcdCommand, b.dir.resolve("etcd.log"));
      b.ledgerEntry.recordProcess(b.etcd);
      b.etcdHealth = URI.create(etcdUrl + "/health");
      awaitEtcd(b.etcd, b.etcdHealth);
      var etcdReady = System.nanoTime();

      b.url = URI.create("https://127.0.0.1:" + apiPort);
      var args = new ArrayList<>(List.of(assets.kubeApiServer().toString()));
      args.addAll(
          List.of(
              "--etcd-servers=" + etcdUrl,
              "--etcd-prefix=/versio-test",
              "--bind-address=127.0.0.1",
              "--advertise-address=127.0.0.1",
              "--secure-port=" + apiPort,
              "--cert-dir=" + certs,
              "--tls-cert-file=" + serving.certificate(),
              "--tls-private-key-file=" + serving.privateKey(),
              "--client-ca-file=" + caFile,
              "--token-auth-file=" + tokens,
              "--authorization-mode=RBAC",
              "--service-account-key-file=" + saPublic,
              "--service-account-signing-key-file=" + saKey,
              "--service-account-issuer=https://kubernetes.default.svc",
              "--service-cluster-ip-range=10.0.0.0/24",
              "--disable-admission-plugins=ServiceAccount",
              "--allow-privileged=true",
              "--profiling=false",
              "--endpoint-reconciler-type=none",
              "--v=1"));
      if (isLegacyApiServer(assets)) {
        args.add("--insecure-port=0"); // 1.20 still opens :8080 unless told not to
      }
      b.apiServerCommand = args;
      b.apiServer =
          ManagedProcess.start("kube-apiserver", args, b.dir.resolve("kube-apiserver.log"));
      b.ledgerEntry.recordProcess(b.apiServer);
      awaitReady(b.apiServer, b.url, b.ca, b.adminToken);

      b.kubeconfig =
          Kubeconfig.write(
              b.dir.resolve("kubeconfig"),
              b.url,
              b.ca.material().certificateBase64(),
              b.adminToken);
      b.startupTime = Duration.ofNanos(System.nanoTime() - started);
      out.accept(
          "Versio test control plane ready in %d ms (etcd %d ms): %s%n  kubectl --kubeconfig %s get ns%n  logs: %s"
              .formatted(
                  b.startupTime.toMillis(),
                  Duration.ofNanos(etcdReady - started).toMillis(),
                  b.url,
                  b.kubeconfig,
                  b.dir));
      return new ControlPlane(b);
    } catch (IOException e) {
      b.stopAll();
      throw new UncheckedIOException("cannot start the test control plane in " + b.dir, e);
    } catch (RuntimeException e) {
      b.stopAll();
      throw e;
    }
  }

  /** Short id of this control plane, also the suffix of its folder. */
  public String id() {
    return id;
  }

  /** The apiserver URL, e.g. {@code https://127.0.0.1:38123}. */
  public URI url() {
    return url;
  }

  /** The folder holding certificates, logs and the kubeconfig. */
  public Path directory() {
    return dir;
  }

  /** A kubeconfig (admin) for kubectl while debugging. */
  public Path kubeconfig() {
    return kubeconfig;
  }

  /** The CA that signed the apiserver's serving certificate and is trusted for client certs. */
  public CertificateAuthority certificateAuthority() {
    return ca;
  }

  /** Wall time from start() to a ready apiserver. */
  public Duration startupTime() {
    return startupTime;
  }

  /** Logs of the processes, e.g. to attach to a failure. */
  public Path apiServerLog() {
    return apiServer.log();
  }

  public Path etcdLog() {
    return etcd.log();
  }

  /** PIDs of etcd and kube-apiserver (for tests of the kit itself). */
  public List<Long> pids() {
    return List.of(etcd.pid(), apiServer.pid());
  }

  /**
   * A control-plane outage: stops kube-apiserver, then etcd (SIGTERM, SIGKILL after 5 s). The data,
   * ports and certificates stay for {@link #startServers()}; clients see refused connections.
   */
  public synchronized void stopServers() {
    apiServer.stop(Duration.ofSeconds(5));
    etcd.stop(Duration.ofSeconds(5));
  }

  /**
   * Starts etcd and kube-apiserver again after {@link #stopServers()}, on the same ports with the
   * same data and certificates (their logs continue), and returns once the apiserver is ready.
   */
  public synchronized void startServers() {
    if (closed) {
      throw new IllegalStateException("control plane " + id + " is closed");
    }
    try {
      etcd = ManagedProcess.start("etcd", etcdCommand, dir.resolve("etcd.log"));
      ledgerEntry.recordProcess(etcd);
      awaitEtcd(etcd, etcdHealth);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot restart etcd in " + dir, e);
    }
    startApiServer();
  }

  /**
   * Stops kube-apiserver only (SIGTERM, SIGKILL after 5 s); etcd keeps running, so the cluster can
   * still be changed through {@link #startSecondApiServer()} while clients of this apiserver are
   * cut off. {@link #startApiServer()} brings it back on the same port.
   */
  public synchronized void stopApiServer() {
    apiServer.stop(Duration.ofSeconds(5));
  }

  /** Starts kube-apiserver again after {@link #stopApiServer()} and returns once it is ready. */
  public synchronized void startApiServer() {
    if (closed) {
      throw new IllegalStateException("control plane " + id + " is closed");
    }
    try {
      apiServer =
          ManagedProcess.start(
              "kube-apiserver", apiServerCommand, dir.resolve("kube-apiserver.log"));
      ledgerEntry.recordProcess(apiServer);
      awaitReady(apiServer, url, ca, adminToken);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot restart kube-apiserver in " + dir, e);
    }
  }

  /**
   * A second kube-apiserver on the same etcd, on a port of its own: another path to the same
   * cluster, e.g. to make changes while clients of the first one are cut off. The caller closes it.
   */
  public synchronized SecondApiServer startSecondApiServer() {
    return startSecondApiServer(List.of());
  }

  /**
   * As {@link #startSecondApiServer()}, with {@code flags} added to the first one's command line:
   * an apiserver configured differently on the same cluster, e.g. {@code
   * --enable-aggregator-routing=true} to resolve a webhook's Service through its Endpoints.
   */
  public synchronized SecondApiServer startSecondApiServer(List<String> flags) {
    int port = LoopbackPorts.free();
    var command = new ArrayList<String>();
    for (var a : apiServerCommand) {
      command.add(a.startsWith("--secure-port=") ? "--secure-port=" + port : a);
    }
    command.addAll(flags);
    var second = URI.create("https://127.0.0.1:" + port);
    try {
      var process =
          ManagedProcess.start("kube-apiserver-2", command, dir.resolve("kube-apiserver-2.log"));
      ledgerEntry.recordProcess(process);
      try {
        awaitReady(process, second, ca, adminToken);
      } catch (RuntimeException e) {
        process.stop(Duration.ofSeconds(5));
        throw e;
      }
      return new SecondApiServer(
          process,
          baseConfig().withMasterUrl(second.toString()).withOauthToken(adminToken).build());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start a second kube-apiserver in " + dir, e);
    }
  }

  /** A second kube-apiserver of this control plane ({@link #startSecondApiServer()}). */
  public static final class SecondApiServer implements AutoCloseable {
    private final ManagedProcess process;
    private final Config adminConfig;

    private SecondApiServer(ManagedProcess process, Config adminConfig) {
      this.process = process;
      this.adminConfig = adminConfig;
    }

    /** A new admin client of this apiserver; the caller closes it. */
    public KubernetesClient adminClient() {
      return new KubernetesClientBuilder().withConfig(adminConfig).build();
    }

    /** Stops it (SIGTERM, SIGKILL after 5 s). */
    @Override
    public void close() {
      process.stop(Duration.ofSeconds(5));
    }
  }

  /** Client configuration for the cluster admin ({@code system:masters}). */
  public Config adminConfig() {
    return baseConfig().withOauthToken(adminToken).build();
  }

  /** A new admin client; the caller closes it. */
  public KubernetesClient adminClient() {
    return new KubernetesClientBuilder().withConfig(adminConfig()).build();
  }

  /**
   * Client configuration for any identity: a client certificate whose CN is {@code user} and whose
   * O entries are {@code groups}, signed by the apiserver's client CA. RBAC sees exactly that user
   * and those groups (plus {@code system:authenticated}).
   */
  public Config configAs(String user, String... groups) {
    PemMaterial cert = ca.issueClient(user, List.of(groups));
    return baseConfig()
        .withClientCertData(cert.certificateBase64())
        .withClientKeyData(cert.privateKeyBase64())
        .withClientKeyAlgo("EC")
        .build();
  }

  /** A new client acting as {@code user} in {@code groups}; the caller closes it. */
  public KubernetesClient clientAs(String user, String... groups) {
    return new KubernetesClientBuilder().withConfig(configAs(user, groups)).build();
  }

  private ConfigBuilder baseConfig() {
    return new ConfigBuilder(Config.empty())
        .withMasterUrl(url.toString())
        .withCaCertData(ca.material().certificateBase64())
        .withNamespace("default")
        .withRequestRetryBackoffLimit(0)
        .withConnectionTimeout(5_000)
        .withRequestTimeout(30_000);
  }

  /** Stops kube-apiserver and etcd (SIGTERM, then SIGKILL after 5 s) and removes the etcd data. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      Runtime.getRuntime().removeShutdownHook(shutdownHook);
    } catch (IllegalStateException e) {
      // already shutting down: this is the hook
    }
    var b = new Builder();
    b.apiServer = apiServer;
    b.etcd = etcd;
    b.watchdog = watchdog;
    b.ledgerEntry = ledgerEntry;
    b.etcdData = etcdData;
    b.stopAll();
    out.accept("Versio test control plane " + id + " stopped; logs kept in " + dir);
  }

  private static boolean isLegacyApiServer(ControlPlaneAssets assets) {
    try {
      var p =
          new ProcessBuilder(assets.kubeApiServer().toString(), "--version")
              .redirectErrorStream(true)
              .start();
      var version = new String(p.getInputStream().readAllBytes()).trim();
      p.waitFor();
      var m = Pattern.compile("v1\\.(\\d+)\\.").matcher(version);
      return m.find() && Integer.parseInt(m.group(1)) < 24;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private static void awaitEtcd(ManagedProcess etcd, URI health) {
    var http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
    poll(
        etcd,
        ETCD_TIMEOUT,
        () -> {
          var response =
              http.send(
                  HttpRequest.newBuilder(health).timeout(Duration.ofSeconds(1)).build(),
                  HttpResponse.BodyHandlers.ofString());
          return response.statusCode() == 200 && response.body().contains("true");
        });
  }

  private static void awaitReady(
      ManagedProcess apiServer, URI url, CertificateAuthority ca, String token) {
    var http =
        HttpClient.newBuilder()
            .sslContext(ca.trustingContext())
            .connectTimeout(Duration.ofSeconds(1))
            .build();
    var request =
        HttpRequest.newBuilder(url.resolve("/readyz"))
            .header("Authorization", "Bearer " + token)
            .timeout(Duration.ofSeconds(2))
            .build();
    poll(
        apiServer,
        APISERVER_TIMEOUT,
        () -> http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200);
  }

  private interface Probe {
    boolean ready() throws Exception;
  }

  private static void poll(ManagedProcess process, Duration timeout, Probe probe) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        var tail = process.logTail(30);
        if (tail.contains("address already in use")) {
          throw new PortTakenException(process.name() + ": address already in use");
        }
        throw new IllegalStateException(
            process.name()
                + " exited with code "
                + process.exitCodeOrNull()
                + " before it was ready. Last lines of "
                + process.log()
                + ":\n"
                + tail);
      }
      try {
        if (probe.ready()) {
          return;
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for " + process.name(), e);
      } catch (Exception e) {
        // not listening yet
      }
      try {
        Thread.sleep(25); // polling an external process's readiness, not test logic
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for " + process.name(), e);
      }
    }
    throw new IllegalStateException(
        process.name()
            + " was not ready after "
            + timeout.toSeconds()
            + " s. Last lines of "
            + process.log()
            + ":\n"
            + process.logTail(30));
  }

  private static final class PortTakenException extends IllegalStateException {
    PortTakenException(String message) {
      super(message);
    }
  }

  /** Mutable assembly state while starting; also the stop routine for partial starts. */
  private static final class Builder {
    List<String> etcdCommand = List.of();
    List<String> apiServerCommand = List.of();
    URI etcdHealth;
    String id;
    Path dir;
    URI url;
    CertificateAuthority ca;
    String adminToken;
    Path kubeconfig;
    Duration startupTime;
    ManagedProcess etcd;
    ManagedProcess apiServer;
    ProcessLedger.Entry ledgerEntry;
    Watchdog watchdog;
    Path etcdData;
    Consumer<String> out;

    void stopAll() {
      if (apiServer != null) {
        apiServer.stop(Duration.ofSeconds(5));
      }
      if (etcd != null) {
        etcd.stop(Duration.ofSeconds(5));
      }
      if (ledgerEntry != null) {
        ledgerEntry.close();
      }
      if (watchdog != null) {
        watchdog.close();
      }
      if (etcdData != null) {
        Folders.deleteTree(etcdData);
      }
    }
  }
}
