package dev.versio.cli.dev;

import dev.versio.api.config.CRDConversionConfig;
import dev.versio.api.config.ConversionConfigStatus;
import dev.versio.api.config.XRDConversionConfig;
import dev.versio.api.server.ConversionWebhookServer;
import dev.versio.api.server.ConversionWebhookServerSpec;
import dev.versio.cli.Durations;
import dev.versio.cli.VersioCommand;
import dev.versio.testkit.ControlPlane;
import dev.versio.testkit.ControlPlaneAssets;
import dev.versio.testkit.Crds;
import dev.versio.testkit.process.LoopbackPorts;
import dev.versio.testkit.process.ManagedProcess;
import dev.versio.testkit.process.ProcessLedger;
import dev.versio.testkit.process.Watchdog;
import dev.versio.testkit.stories.CrossplaneStandIn;
import dev.versio.testkit.tls.CertificateAuthority;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * Everything one {@code versio dev} run starts, and its orderly stop: the control plane, Versio's
 * CRDs and default ConversionWebhookServer, a webhook-server and an operator as child JVMs, and the
 * story's objects. Child processes are recorded in the test kit's machine-wide {@link
 * ProcessLedger} and watched by a {@link Watchdog}, so they stop even when this JVM is killed with
 * {@code kill -9}.
 */
final class DevSession implements AutoCloseable {
  static final String NAMESPACE = "versio-system";
  static final String SERVER = "default";
  static final String FIELD_MANAGER = "versio-dev";

  private static final Duration CHILD_READY_TIMEOUT = Duration.ofSeconds(90);
  private static final Duration CHILD_STOP_GRACE = Duration.ofSeconds(10);
  private static final Duration UNREADY_STOP_GRACE = Duration.ofSeconds(2);

  /** A JVM recording its AOT cache writes it on its way out: seconds on a busy machine. */
  private static final Duration RECORDING_STOP_GRACE = Duration.ofSeconds(60);

  /**
   * The children's JVM flags (besides the AOT cache's): a cache fits only a JVM started with the
   * same ones, so its digest includes them. C1 only ({@code TieredStopAtLevel=1}): a local
   * replica's peak throughput is not the point, and C2 compiling the start's hot code took about 2
   * s of CPU from each child on a 2-core machine, where the control plane and the other child start
   * too.
   */
  static final List<String> CHILD_JVM_FLAGS =
      List.of(
          "--sun-misc-unsafe-memory-access=allow",
          "--enable-native-access=ALL-UNNAMED",
          "-XX:TieredStopAtLevel=1");

  /** Exit codes of a JVM that ended by itself: normally, on SIGINT, on SIGTERM. */
  private static final java.util.Set<Integer> STOPPED_BY_ITSELF = java.util.Set.of(0, 130, 143);

  private static final Duration POLL = Duration.ofMillis(50);

  /** A child JVM and its plain-HTTP ops port ({@code /readyz}). */
  record Child(String name, ManagedProcess process, int opsPort) {}

  /** The ports and TLS material of the webhook server. */
  record WebhookEndpoint(int conversionPort, int opsPort, Path tlsDir, String caBundle) {
    URI url() {
      return URI.create("https://127.0.0.1:" + conversionPort);
    }
  }

  private final Progress progress;
  private final BooleanSupplier stopRequested;
  private final List<Child> children = new ArrayList<>();
  // the webhook server's serving and ops ports, the operator's ops and admission ports: chosen
  // together so that none is handed out twice before its process binds it
  private final int[] ports = LoopbackPorts.distinct(4);
  private final Thread shutdownHook = new Thread(this::close, "versio-dev-stop");
  private ControlPlane controlPlane;
  private KubernetesClient client;
  private ProcessLedger.Entry ledgerEntry;
  private Watchdog watchdog;
  private boolean closed;
  private String propagatedXrdVersion;
  private final ChildAotCaches aot;
  // children recording their AOT cache, by name: kept when they stop by themselves
  private final java.util.Map<String, ChildAotCaches.Use.Recording> recordings =
      new java.util.concurrent.ConcurrentHashMap<>();
  // children that answered /readyz: only their recordings are worth keeping
  private final java.util.Set<String> ready = java.util.concurrent.ConcurrentHashMap.newKeySet();

  /**
   * @param aot the children's AOT caches, or null to start them without
   */
  DevSession(Progress progress, BooleanSupplier stopRequested, ChildAotCaches aot) {
    this.progress = progress;
    this.stopRequested = stopRequested;
    this.aot = aot;
    Runtime.getRuntime().addShutdownHook(shutdownHook);
  }

  // ---- control plane and Versio's own objects ----

  /** Starts etcd and kube-apiserver under {@code workDir}. */
  void startControlPlane(ControlPlaneAssets assets, Path workDir) {
    progress.step("starting etcd and kube-apiserver (state and logs under " + workDir + ")");
    controlPlane =
        ControlPlane.start(
            assets,
            workDir,
            message -> {
              // the kit's own "ready"/"stopped" lines are replaced by ours; the rest is news
              if (!message.startsWith("Versio test control plane")) {
                message.lines().forEach(l -> progress.print("        " + l));
              }
            });
    client = controlPlane.adminClient();
    var version = client.getKubernetesVersion().getGitVersion();
    progress.step(
        "control plane up (kube-apiserver " + version + " at " + controlPlane.url() + ")");
    var ledger = new ProcessLedger(ProcessLedger.defaultDirectory(), progress::print);
    ledgerEntry = ledger.open("dev-" + controlPlane.id());
    try {
      watchdog = Watchdog.start(ledgerEntry.file());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start the watchdog of the child processes", e);
    }
  }

  /** Installs the CRDs of {@code versio.dev} (from versio-api's jar) and waits until served. */
  void installVersioCrds() {
    var names = new ArrayList<String>();
    for (var type :
        List.<Class<? extends HasMetadata>>of(
            ConversionWebhookServer.class, CRDConversionConfig.class, XRDConversionConfig.class)) {
      var name = HasMetadata.getFullResourceName(type);
      var resource = "META-INF/fabric8/" + name + "-v1.yml";
      try (InputStream in = DevSession.class.getClassLoader().getResourceAsStream(resource)) {
        if (in == null) {
          throw new IllegalStateException(resource + " is not on the classpath (versio-api jar)");
        }
        var crd =
            Serialization.unmarshal(
                new String(in.readAllBytes(), StandardCharsets.UTF_8),
                CustomResourceDefinition.class);
        client.resource(crd).fieldManager(FIELD_MANAGER).forceConflicts().serverSideApply();
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read " + resource, e);
      }
      names.add(name);
    }
    names.forEach(name -> Crds.awaitEstablished(client, name));
    progress.step("Versio CRDs installed (" + String.join(", ", names) + ")");
  }

  /** Creates the namespace {@code versio-system}, where the operator keeps its Leases. */
  void createNamespace() {
    client
        .namespaces()
        .resource(
            new NamespaceBuilder().withNewMetadata().withName(NAMESPACE).endMetadata().build())
        .fieldManager(FIELD_MANAGER)
        .serverSideApply();
  }

  /**
   * Installs a stand-in for Crossplane's XRD API; before the webhook server starts, which watches
   * XRDs only when their API exists at start.
   */
  void installXrdApi() {
    CrossplaneStandIn.installXrdApi(client);
    progress.step(
        "stand-in for Crossplane's XRD API installed (compositeresourcedefinitions"
            + ".apiextensions.crossplane.io)");
  }

  /** Picks the webhook server's ports and mints its certificate (no apiserver involved). */
  WebhookEndpoint webhookEndpoint() {
    var tlsDir = controlPlane.directory().resolve("webhook-server-tls");
    String caBundle;
    try {
      Files.createDirectories(tlsDir);
      var ca = CertificateAuthority.create("versio-dev-webhook-ca-" + controlPlane.id());
      var cert = ca.issueServer("127.0.0.1", "localhost");
      Files.writeString(tlsDir.resolve("tls.crt"), cert.certificatePem());
      Files.writeString(tlsDir.resolve("tls.key"), cert.privateKeyPem());
      caBundle = ca.material().certificateBase64();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the webhook certificate to " + tlsDir, e);
    }
    return new WebhookEndpoint(ports[0], ports[1], tlsDir, caBundle);
  }

  /** Creates the default ConversionWebhookServer, in URL mode at {@code endpoint}. */
  void createDefaultServer(WebhookEndpoint endpoint) {
    var server = new ConversionWebhookServer();
    server.setMetadata(new ObjectMetaBuilder().withName(SERVER).build());
    var spec = new ConversionWebhookServerSpec();
    spec.isDefault = true;
    spec.url = endpoint.url().toString();
    spec.caBundle = endpoint.caBundle();
    server.setSpec(spec);
    client.resource(server).fieldManager(FIELD_MANAGER).forceConflicts().serverSideApply();
    progress.step(
        "ConversionWebhookServer "
            + SERVER
            + " created (default: true, URL mode: "
            + endpoint.url()
            + ")");
  }

  // ---- child processes ----

  /** Starts {@code versio webhook-server} for the default server; does not wait for it. */
  Child startWebhookServer(WebhookEndpoint endpoint) {
    return startChild(
        "webhook-server",
        endpoint.opsPort(),
        List.of(
            "webhook-server",
            "--server-name",
            SERVER,
            "--tls-cert-dir",
            endpoint.tlsDir().toString(),
            "--bind-address",
            "127.0.0.1",
            "--conversion-port",
            Integer.toString(endpoint.conversionPort()),
            "--ops-port",
            Integer.toString(endpoint.opsPort()),
            // no Service in front of it: nothing to leave before stopping
            "--shutdown-delay",
            "0s"),
        Map.of("POD_NAME", SERVER + "-webhook-server-dev"));
  }

  /** Starts {@code versio operator} with admission in URL mode; does not wait for it. */
  Child startOperator() {
    int opsPort = ports[2];
    int admissionPort = ports[3];
    return startChild(
        "operator",
        opsPort,
        List.of(
            "operator",
            "--namespace",
            NAMESPACE,
            "--bind-address",
            "127.0.0.1",
            "--ops-port",
            Integer.toString(opsPort),
            "--admission-port",
            Integer.toString(admissionPort),
            "--admission-url",
            "https://127.0.0.1:" + admissionPort,
            // a local loop is quick: look at waiting configs again every 2 s, not every 15 s
            "--gate-requeue",
            "2s",
            // one replica: 8 shard Leases to take at start, not 256 writes to a busy apiserver
            "--shards",
            "8",
            // development: the replica runs as a process here (URL mode), and every CRD the user
            // applies to this private control plane may be converted without its annotation
            "--allow-url-mode",
            "--target-groups",
            "*"),
        Map.of("POD_NAME", "versio-operator-dev"));
  }

  private Child startChild(String name, int opsPort, List<String> args, Map<String, String> env) {
    var command = new ArrayList<String>();
    command.add(ManagedProcess.currentJava());
    var cache =
        aot == null
            ? new ChildAotCaches.Use.None()
            : aot.use(name, Long.toString(ProcessHandle.current().pid()));
    command.addAll(cache.flags());
    command.addAll(CHILD_JVM_FLAGS);
    command.addAll(
        List.of("-cp", System.getProperty("java.class.path"), VersioCommand.class.getName()));
    command.addAll(args);
    var environment = new java.util.HashMap<String, String>(env);
    environment.put("KUBECONFIG", controlPlane.kubeconfig().toString());
    environment.put("POD_NAMESPACE", NAMESPACE);
    var log = controlPlane.directory().resolve(name + ".log");
    try {
      var process = ManagedProcess.start(name, command, environment, log);
      ledgerEntry.recordProcess(process);
      var child = new Child(name, process, opsPort);
      synchronized (this) {
        // before the child is listed: a stop that finds the child finds its recording too
        if (cache instanceof ChildAotCaches.Use.Recording recording) {
          recordings.put(name, recording);
        }
        children.add(child);
      }
      String note =
          switch (cache) {
            case ChildAotCaches.Use.Cached c -> "; with the AOT cache of its own start";
            case ChildAotCaches.Use.Recording r ->
                "; recording the AOT cache of its start for the next runs, written when it stops";
            case ChildAotCaches.Use.None n -> "";
          };
      progress.step(name + " started (pid " + process.pid() + ", log " + log + note + ")");
      return child;
    } catch (IOException e) {
      throw DevFailure.runtime("cannot start the " + name + " process: " + e.getMessage());
    }
  }

  /** Waits until {@code child} answers 200 on {@code /readyz}. */
  void awaitReady(Child child, String what) {
    var http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
    var request =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + child.opsPort() + "/readyz"))
            .timeout(Duration.ofSeconds(2))
            .build();
    long deadline = System.nanoTime() + CHILD_READY_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      checkNotStopped();
      if (!child.process().isAlive() && !stopRequestedWithin(Duration.ofMillis(500))) {
        throw DevFailure.runtime(
            child.name()
                + " exited with code "
                + child.process().exitCodeOrNull()
                + " while starting. Last lines of its log:\n"
                + indent(child.process().logTail(20)),
            "Full log: " + child.process().log());
      }
      try {
        if (http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
          progress.step(what);
          ready.add(child.name());
          return;
        }
      } catch (IOException e) {
        // not listening yet
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new StopRequested();
      }
      pause();
    }
    throw DevFailure.runtime(
        child.name()
            + " was not ready (GET /readyz on port "
            + child.opsPort()
            + ") within "
            + CHILD_READY_TIMEOUT.toSeconds()
            + " s",
        "Its log: " + child.process().log());
  }

  /**
   * The first line of {@code name}'s log that contains {@code marker}, from the marker on (the
   * child's own account of its start-up); empty if there is none yet.
   */
  synchronized Optional<String> childStartup(String name, String marker) {
    for (var child : children) {
      if (child.name().equals(name)) {
        try (var lines = Files.lines(child.process().log(), StandardCharsets.UTF_8)) {
          return lines
              .filter(line -> line.contains(marker))
              .findFirst()
              .map(line -> line.substring(line.indexOf(marker)));
        } catch (IOException | java.io.UncheckedIOException e) {
          return Optional.empty();
        }
      }
    }
    return Optional.empty();
  }

  /** A description of a child or control-plane process that is no longer running. */
  synchronized Optional<String> deadProcess() {
    for (var child : children) {
      if (!child.process().isAlive()) {
        return Optional.of(
            child.name()
                + " (pid "
                + child.process().pid()
                + ") exited with code "
                + child.process().exitCodeOrNull()
                + ". Last lines of "
                + child.process().log()
                + ":\n"
                + indent(child.process().logTail(20)));
      }
    }
    if (controlPlane != null) {
      for (var pid : controlPlane.pids()) {
        if (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
          continue;
        }
        return Optional.of(
            "the control plane stopped (pid "
                + pid
                + " is gone); logs: "
                + controlPlane.apiServerLog()
                + ", "
                + controlPlane.etcdLog());
      }
    }
    return Optional.empty();
  }

  // ---- the story ----

  /**
   * Applies the story's CRD (for an XRD story: the XRD, the CRD Crossplane would generate, and the
   * XRD's Established condition) and creates its samples at the storage version, which needs no
   * conversion yet.
   */
  void applyStoryDefinition(Story story) {
    if (story.isXrd()) {
      client.resource(story.xrd()).fieldManager(FIELD_MANAGER).forceConflicts().serverSideApply();
    }
    client.resource(story.crd()).fieldManager(FIELD_MANAGER).forceConflicts().serverSideApply();
    Crds.awaitEstablished(client, story.crdName());
    if (story.isXrd()) {
      CrossplaneStandIn.reportEstablished(client, story.crdName());
    }
    progress.step(
        "story "
            + story.name()
            + ": "
            + (story.isXrd() ? "XRD and its generated CRD " : "CRD ")
            + story.crdName()
            + " established (versions "
            + String.join(", ", story.versions())
            + "; storage "
            + story.storageVersion()
            + ")");
    createSamples(story);
  }

  /**
   * Applies the story's config; after the operator is ready, so that its admission webhook checks
   * the config as it would in a cluster.
   */
  void applyStoryConfig(Story story) {
    try {
      client
          .resource(story.config())
          .fieldManager(FIELD_MANAGER)
          .forceConflicts()
          .serverSideApply();
    } catch (KubernetesClientException e) {
      throw DevFailure.runtime(
          "the apiserver refused " + story.dir().resolve("config.yaml") + ": " + e.getMessage(),
          "Operator log (admission): " + operatorLog());
    }
    progress.step(
        "story "
            + story.name()
            + ": "
            + story.configKind()
            + " "
            + story.configName()
            + " applied");
  }

  private void createSamples(Story story) {
    for (var sample : story.toCreate()) {
      var object = copyForCreate(sample.object());
      if (story.namespaced()) {
        ensureNamespace(sample.namespace());
      }
      var api = client.genericKubernetesResources(context(story, sample.version()));
      // create, not server-side apply: the apiserver prunes fields the schema does not declare
      // (as kubectl create does) where apply refuses them
      (story.namespaced() ? api.inNamespace(sample.namespace()) : api).resource(object).create();
      progress.step(
          "story "
              + story.name()
              + ": "
              + story.kind()
              + " "
              + sample.objectName()
              + " created at "
              + sample.version()
              + " (from "
              + story.dir().relativize(sample.file())
              + ")");
    }
  }

  /**
   * Waits until the config's {@code status.phase} is {@code Applied}, printing every phase change.
   */
  void awaitApplied(Story story, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    String last = null;
    String lastPhase = "(no status yet)";
    progress.step(
        "waiting until the operator reports config "
            + story.configName()
            + " Applied (timeout "
            + Durations.format(timeout)
            + ")");
    while (System.nanoTime() < deadline) {
      checkNotStopped();
      var status = configStatus(story);
      if (status != null && status.phase != null) {
        var phase = status.phase;
        var message =
            status.message != null && !status.message.isBlank() ? ": " + status.message : "";
        var line = phase + message;
        if (!line.equals(last)) {
          progress.step("config " + story.configName() + " is " + line);
          last = line;
          lastPhase = line;
        }
        if (phase.equals("Applied")) {
          return;
        }
        if (phase.equals("Invalid")) {
          throw DevFailure.runtime(
              "the operator found the config " + story.configName() + " invalid" + message,
              "Details: " + describeConfig(story),
              "Offline check: versio analyze -c "
                  + story.dir().resolve("config.yaml")
                  + (story.isXrd() ? " --xrd " : " --crd ")
                  + story.dir().resolve(story.definitionFile()));
        }
      }
      pause();
    }
    throw DevFailure.runtime(
        "the config "
            + story.configName()
            + " did not reach phase Applied within "
            + Durations.format(timeout)
            + " (last: "
            + lastPhase
            + ")",
        "Look at it:      " + describeConfig(story),
        "Operator log:    " + operatorLog(),
        "Webhook log:     " + childLog("webhook-server"),
        "Wait longer:     versio dev --timeout 300s");
  }

  private ConversionConfigStatus configStatus(Story story) {
    var config =
        story.isXrd()
            ? client.resources(XRDConversionConfig.class).withName(story.configName()).get()
            : client.resources(CRDConversionConfig.class).withName(story.configName()).get();
    return config == null ? null : config.getStatus();
  }

  /**
   * For an XRD story, copies the XRD's {@code spec.conversion} (which the operator writes) onto the
   * generated CRD whenever the XRD changed, as Crossplane would; the apiserver reads the CRD.
   */
  void followXrd(Story story) {
    if (!story.isXrd()) {
      return;
    }
    var xrd = client.resource(story.xrd()).get();
    var version = xrd == null ? null : xrd.getMetadata().getResourceVersion();
    if (version == null || version.equals(propagatedXrdVersion)) {
      return;
    }
    CrossplaneStandIn.propagateConversion(client, story.crdName());
    if (propagatedXrdVersion == null) {
      progress.step(
          "stand-in for Crossplane: copied the XRD's spec.conversion onto the CRD "
              + story.crdName());
    }
    propagatedXrdVersion = version;
  }

  /**
   * Reads every created sample at every other served version through the apiserver, which calls the
   * webhook; returns the versions that failed, each with its error.
   */
  List<String> checkConversions(Story story) {
    var failures = new ArrayList<String>();
    for (var sample : story.toCreate()) {
      for (var version : story.versions()) {
        if (version.equals(sample.version())) {
          continue;
        }
        var api = client.genericKubernetesResources(context(story, version));
        try {
          var got =
              (story.namespaced() ? api.inNamespace(sample.namespace()) : api)
                  .withName(sample.objectName())
                  .get();
          if (got == null) {
            failures.add(sample.objectName() + " at " + version + ": not found");
          } else {
            progress.step(
                "read "
                    + story.kind()
                    + " "
                    + sample.objectName()
                    + " at "
                    + version
                    + ": converted by the webhook server");
          }
        } catch (KubernetesClientException e) {
          failures.add(sample.objectName() + " at " + version + ": " + e.getMessage());
        }
      }
    }
    return failures;
  }

  // ---- accessors for the final instructions ----

  Path kubeconfig() {
    return controlPlane.kubeconfig();
  }

  Path directory() {
    return controlPlane.directory();
  }

  Path operatorLog() {
    return childLog("operator");
  }

  Path childLog(String name) {
    return controlPlane.directory().resolve(name + ".log");
  }

  String kubectl() {
    return "kubectl --kubeconfig " + kubeconfig();
  }

  String describeConfig(Story story) {
    return kubectl() + " describe " + story.configResource() + " " + story.configName();
  }

  boolean controlPlaneStarted() {
    return controlPlane != null;
  }

  // ---- stop ----

  /**
   * Stops the children (SIGTERM, SIGKILL after 10 s, or 60 s while one records its AOT cache), then
   * kube-apiserver and etcd; idempotent.
   */
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
    var stopping = new ArrayList<Thread>();
    for (var child : children.reversed()) {
      stopping.add(
          Thread.ofPlatform().name("versio-dev-stop-" + child.name()).start(() -> stop(child)));
    }
    for (var thread : stopping) {
      try {
        thread.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    if (client != null) {
      client.close();
    }
    if (controlPlane != null) {
      controlPlane.close();
    }
    if (ledgerEntry != null) {
      ledgerEntry.close();
    }
    if (watchdog != null) {
      watchdog.close();
    }
  }

  /**
   * Stops one child; a child recording its AOT cache gets longer to write it (at exit the JVM
   * assembles the cache in a JVM of its own), and the cache is kept only if the child was ready,
   * stopped by itself, and the JVM can start with what it wrote.
   */
  private void stop(Child child) {
    // not synchronized: close() holds the lock while it waits for these stops
    var recording = recordings.get(child.name());
    if (!ready.contains(child.name())) {
      // stopped while starting: it may be waiting in its start (e.g. the operator for Versio's
      // CRDs), which SIGTERM does not cut short, and a recording of it would not be kept anyway
      ProcessHandle.of(child.process().pid())
          .ifPresent(h -> h.descendants().forEach(ProcessHandle::destroyForcibly));
      child.process().stop(UNREADY_STOP_GRACE);
      if (recording != null) {
        ChildAotCaches.keep(recording, false, this::startsWith);
      }
      return;
    }
    if (recording == null) {
      child.process().stop(CHILD_STOP_GRACE);
      return;
    }
    var handle = ProcessHandle.of(child.process().pid());
    if (handle.isPresent()) {
      handle.get().destroy();
      try {
        handle
            .get()
            .onExit()
            .get(RECORDING_STOP_GRACE.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
        // still writing after the grace: killed below
      }
    }
    if (child.process().isAlive()) {
      // the JVM that assembles the cache is a child of the recording one: it goes too
      handle.ifPresent(h -> h.descendants().forEach(ProcessHandle::destroyForcibly));
      child.process().stop(Duration.ZERO);
    }
    var exit = child.process().exitCodeOrNull();
    boolean clean =
        ready.contains(child.name()) && exit != null && STOPPED_BY_ITSELF.contains(exit);
    ChildAotCaches.keep(recording, clean, this::startsWith)
        .ifPresent(
            cache ->
                progress.print(
                    "        "
                        + child.name()
                        + ": AOT cache kept for the next runs ("
                        + cache
                        + ")"));
  }

  /** Whether a JVM with this run's class path starts with {@code cache} (it refuses a bad one). */
  private boolean startsWith(Path cache) {
    try {
      var check =
          new ProcessBuilder(
                  java.util.stream.Stream.of(
                          List.of(
                              ManagedProcess.currentJava(),
                              "-XX:AOTCache=" + cache,
                              "-XX:AOTMode=on"),
                          CHILD_JVM_FLAGS,
                          List.of("-cp", System.getProperty("java.class.path"), "-version"))
                      .flatMap(List::stream)
                      .toList())
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .start();
      if (!check.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)) {
        check.destroyForcibly();
        return false;
      }
      return check.exitValue() == 0;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  // ---- helpers ----

  private void ensureNamespace(String namespace) {
    if (client.namespaces().withName(namespace).get() == null) {
      client
          .namespaces()
          .resource(
              new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata().build())
          .fieldManager(FIELD_MANAGER)
          .serverSideApply();
    }
  }

  private static GenericKubernetesResource copyForCreate(GenericKubernetesResource sample) {
    var copy = Serialization.clone(sample);
    copy.getMetadata().setResourceVersion(null);
    copy.getMetadata().setUid(null);
    copy.getMetadata().setCreationTimestamp(null);
    copy.getMetadata().setManagedFields(null);
    return copy;
  }

  static ResourceDefinitionContext context(Story story, String version) {
    return new ResourceDefinitionContext.Builder()
        .withGroup(story.group())
        .withVersion(version)
        .withKind(story.kind())
        .withPlural(story.plural())
        .withNamespaced(story.namespaced())
        .build();
  }

  private void checkNotStopped() {
    if (stopRequested.getAsBoolean()) {
      throw new StopRequested();
    }
  }

  /** Whether a stop is requested within {@code grace}: a dying child may be the first sign. */
  private boolean stopRequestedWithin(Duration grace) {
    long deadline = System.nanoTime() + grace.toNanos();
    while (!stopRequested.getAsBoolean() && System.nanoTime() < deadline) {
      pause();
    }
    checkNotStopped();
    return false;
  }

  private void pause() {
    try {
      Thread.sleep(POLL); // polling other processes, not test logic
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StopRequested();
    }
  }

  static String indent(String text) {
    return text.lines().map(l -> "    " + l).reduce((a, b) -> a + "\n" + b).orElse("    (empty)");
  }

  /** Thrown out of a wait when SIGTERM or Ctrl-C asked to stop. */
  static final class StopRequested extends RuntimeException {
    private static final long serialVersionUID = 1L;

    StopRequested() {
      super("stop requested", null, false, false);
    }
  }
}
