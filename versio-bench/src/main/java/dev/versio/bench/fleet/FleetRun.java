package dev.versio.bench.fleet;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.versio.api.config.CRDConversionConfig;
import dev.versio.bench.handover.ServerReplicas;
import dev.versio.bench.regression.ScaleResult;
import dev.versio.engine.json.EngineJson;
import dev.versio.operator.OperatorOptions;
import dev.versio.operator.VersioOperator;
import dev.versio.testkit.ControlPlane;
import dev.versio.testkit.Crds;
import dev.versio.testkit.fleet.Widgets;
import dev.versio.testkit.metrics.Exposition;
import dev.versio.testkit.process.ProcessLedger;
import dev.versio.testkit.process.Watchdog;
import dev.versio.testkit.tls.CertificateAuthority;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntConsumer;

/**
 * A fleet run through the real apiserver (reference: scalegen): the {@link FleetPlan} CRDs and
 * their configs; Versio's operator pointing each CRD at one default ConversionWebhookServer in URL
 * mode whose replicas are {@code versio webhook-server} processes; {@code objectsPerCrd} objects
 * per CRD created at {@code v1} (stored at the hub {@code v3}, so every create is a conversion)
 * with retries of transient errors; then timed parallel lists and gets at every version. Every
 * read's {@code spec} is compared with what the engine computes for it here: a wrong value is an
 * error. The result is a scale result ({@link ScaleResult}: schema, envelope, measurements {@code
 * create}, {@code listV1} … {@code getV3}) with error samples, the set-up times and the coverage,
 * built even when the run fails part way.
 */
public final class FleetRun {
  static final String NAMESPACE = "versio-system";
  static final String OBJECTS = "fleet";
  static final String SERVER = "fleet";
  private static final ObjectMapper JSON =
      EngineJson.newMapper().enable(SerializationFeature.INDENT_OUTPUT);

  /**
   * What one run does; every field is part of the result's envelope.
   *
   * @param crds how many CRDs (each with 3 versions and a config)
   * @param objectsPerCrd objects created per CRD
   * @param parallel requests in flight at once
   * @param seed the fleet generator's seed
   * @param strategiesMin fewest strategy cases per spoke
   * @param strategiesMax most strategy cases per spoke
   * @param listRepeats lists per CRD and version
   * @param getRepeats gets per object and version
   * @param webhookReplicas webhook-server processes behind the server's URL
   * @param setupTimeout how long CRDs may take to be Established and configs Applied
   */
  public record Settings(
      int crds,
      int objectsPerCrd,
      int parallel,
      long seed,
      int strategiesMin,
      int strategiesMax,
      int listRepeats,
      int getRepeats,
      int webhookReplicas,
      Duration setupTimeout) {
    public Settings {
      if (crds < 1 || objectsPerCrd < 1 || parallel < 1 || listRepeats < 1 || getRepeats < 1) {
        throw new IllegalArgumentException(
            "crds, objects per CRD, parallel, list and get repeats must all be ≥ 1");
      }
      if (webhookReplicas < 1) {
        throw new IllegalArgumentException("webhook replicas must be ≥ 1, got " + webhookReplicas);
      }
      Objects.requireNonNull(setupTimeout, "setupTimeout");
    }

    /** The envelope CI runs: 20 CRDs × 20 objects. */
    public static Settings ci() {
      return new Settings(20, 20, 8, 1, 3, 10, 3, 1, 2, Duration.ofMinutes(5));
    }

    ObjectNode envelope(String apiserver) {
      var node = JSON.createObjectNode();
      node.put("crds", crds)
          .put("objectsPerCrd", objectsPerCrd)
          .put("parallel", parallel)
          .put("seed", seed)
          .put("strategiesMin", strategiesMin)
          .put("strategiesMax", strategiesMax)
          .put("listRepeats", listRepeats)
          .put("getRepeats", getRepeats)
          .put("webhookReplicas", webhookReplicas)
          .put("apiserver", apiserver)
          .put("cores", Runtime.getRuntime().availableProcessors());
      return node;
    }
  }

  /**
   * The outcome: the result JSON (always complete enough to be read by the regression check) and
   * what went wrong, if anything.
   */
  public record Outcome(ObjectNode result, List<String> problems) {
    public Outcome {
      problems = List.copyOf(problems);
    }

    public boolean passed() {
      return problems.isEmpty();
    }

    public String json() {
      try {
        return JSON.writeValueAsString(result);
      } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
        throw new IllegalStateException(e);
      }
    }
  }

  private final ControlPlane controlPlane;
  private final KubernetesClient client;
  private final Settings settings;
  private final Path workDir;
  private final PrintStream out;
  private final List<FleetPlan.Target> fleet;
  private final Map<String, RequestTimings> timings = new java.util.LinkedHashMap<>();
  private final ObjectNode setup = JSON.createObjectNode();
  private final ObjectNode breakdown = JSON.createObjectNode();
  private ServerReplicas replicas;
  private final List<String> problems = java.util.Collections.synchronizedList(new ArrayList<>());

  /** The spec each object must show at each version: "<kind>/<name>@<version>". */
  private final Map<String, JsonNode> expected = new ConcurrentHashMap<>();

  private FleetRun(
      ControlPlane controlPlane,
      KubernetesClient client,
      Settings settings,
      Path workDir,
      PrintStream out) {
    this.controlPlane = controlPlane;
    this.client = client;
    this.settings = settings;
    this.workDir = workDir;
    this.out = out;
    this.fleet =
        FleetPlan.generate(
            settings.crds(), settings.strategiesMin(), settings.strategiesMax(), settings.seed());
    timings.put("create", new RequestTimings());
    for (var kind : List.of("list", "get")) {
      for (var version : FleetPlan.VERSIONS) {
        timings.put(kind + version.toUpperCase(Locale.ROOT), new RequestTimings());
      }
    }
  }

  /** Runs the fleet on {@code controlPlane} (fresh: the run installs Versio itself). */
  public static Outcome run(
      ControlPlane controlPlane, Settings settings, Path workDir, PrintStream out)
      throws Exception {
    try (var client = controlPlane.adminClient()) {
      return new FleetRun(controlPlane, client, settings, workDir, out).run();
    }
  }

  private Outcome run() throws Exception {
    var started = Instant.now();
    var strategies = FleetPlan.strategies(fleet);
    say(
        "fleet: %d CRDs x %d objects, %d-%d strategy cases per spoke (seed %d), %d strategies"
            + " covered; %d requests in flight",
        settings.crds(),
        settings.objectsPerCrd(),
        settings.strategiesMin(),
        settings.strategiesMax(),
        settings.seed(),
        strategies.size(),
        settings.parallel());
    String apiserver = client.getKubernetesVersion().getGitVersion();
    List<Long> reviews = List.of();
    List<Long> connections = List.of();
    var ledgerFile = new ProcessLedger(ProcessLedger.defaultDirectory(), out::println);
    try (var ledger = ledgerFile.open("fleet-" + controlPlane.id());
        var watchdog = Watchdog.start(ledger.file())) {
      var caBundle = installCluster();
      try (var serverReplicas =
          ServerReplicas.start(
              SERVER,
              settings.webhookReplicas(),
              NAMESPACE,
              workDir.resolve("tls"),
              Duration.ofSeconds(1),
              controlPlane.kubeconfig(),
              workDir.resolve("logs"),
              ledger)) {
        replicas = serverReplicas;
        var server = Widgets.urlServer(SERVER, replicas.url(), caBundle);
        server.getSpec().isDefault = Boolean.TRUE;
        client.resource(server).serverSideApply();
        var options =
            OperatorOptions.defaults(NAMESPACE).toBuilder()
                .host("127.0.0.1")
                // a lab: replicas are processes (URL mode) and every CRD here is the lab's own
                .allowUrlMode(true)
                .targetGroups(java.util.List.of("*"))
                .gateRequeue(Duration.ofSeconds(2))
                .build();
        try (var operator = VersioOperator.start(client, options, Clock.systemUTC());
            var load = loadClient()) {
          if (createCrds() && createConfigs()) {
            createObjects(load);
            for (var version : FleetPlan.VERSIONS) {
              list(load, version);
            }
            for (var version : FleetPlan.VERSIONS) {
              get(load, version);
            }
          }
          reviews = replicas.reviewsPerReplica();
          connections = replicas.connectionsPerReplica();
          if (!replicas.exited().isEmpty()) {
            problems.add("webhook-server replicas exited: " + replicas.exited());
          }
        }
      }
    } catch (Exception e) {
      problems.add("run aborted: " + e);
      say("run aborted: %s", e);
    }
    for (var entry : timings.entrySet()) {
      if (entry.getValue().errors() > 0) {
        problems.add(
            entry.getKey()
                + ": "
                + entry.getValue().errors()
                + " of "
                + entry.getValue().requests()
                + " requests failed, e.g. "
                + entry.getValue().samples());
      }
    }
    if (!reviews.isEmpty() && reviews.stream().mapToLong(Long::longValue).sum() <= 0) {
      problems.add("the webhook-server replicas answered no conversion review");
    }
    var result = JSON.createObjectNode();
    result.put("schema", ScaleResult.SCHEMA).put("schemaVersion", ScaleResult.SCHEMA_VERSION);
    result.set("envelope", settings.envelope(apiserver));
    result.put("startedAt", started.toString());
    result.put("wallSeconds", Duration.between(started, Instant.now()).toMillis() / 1000.0);
    result.put("passed", problems.isEmpty());
    var problemArray = result.putArray("problems");
    List.copyOf(problems).forEach(problemArray::add);
    var coverage = result.putObject("coverage");
    coverage.put("strategies", strategies.size());
    var names = coverage.putArray("names");
    strategies.forEach(names::add);
    result.set("setup", setup);
    result.set("timeBreakdown", breakdown);
    var measurements = result.putObject("measurements");
    timings.forEach((name, t) -> measurements.set(name, t.toJson()));
    var webhook = result.putObject("webhook");
    reviews.forEach(webhook.putArray("reviewsPerReplica")::add);
    // TCP connections the apiserver opened to each replica (through the harness's balancer)
    connections.forEach(webhook.putArray("connectionsPerReplica")::add);
    summarize();
    return new Outcome(result, problems);
  }

  // ---- set-up ----

  private String installCluster() throws IOException {
    Crds.applyVersioCrds(client);
    for (var ns : List.of(NAMESPACE, OBJECTS)) {
      client
          .namespaces()
          .resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build())
          .serverSideApply();
    }
    var tls = Files.createDirectories(workDir.resolve("tls"));
    var ca = CertificateAuthority.create("versio-fleet");
    var cert = ca.issueServer("127.0.0.1", "localhost");
    Files.writeString(tls.resolve("tls.crt"), cert.certificatePem());
    Files.writeString(tls.resolve("tls.key"), cert.privateKeyPem());
    return ca.material().certificateBase64();
  }

  /** Creates the CRDs; true when all are Established in time. */
  private boolean createCrds() throws InterruptedException {
    long start = System.nanoTime();
    var errors =
        parallel(
            fleet.size(),
            i -> {
              var crd =
                  client
                      .getKubernetesSerialization()
                      .convertValue(fleet.get(i).crd(), CustomResourceDefinition.class);
              retry(() -> client.resource(crd).create());
            });
    errors.forEach(e -> problems.add("CRD create: " + e));
    long deadline = start + settings.setupTimeout().toNanos();
    for (var target : fleet) {
      var left = Duration.ofNanos(Math.max(1, deadline - System.nanoTime()));
      try {
        Crds.awaitEstablished(client, target.crdName(), left);
      } catch (KubernetesClientException e) {
        problems.add("CRD " + target.crdName() + " not Established: " + e.getMessage());
        return false;
      }
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    setup.put("crdsEstablishedSeconds", round(seconds));
    say("%d CRDs created and Established in %.1f s", fleet.size(), seconds);
    return errors.isEmpty();
  }

  /** Creates the configs; true when all are Applied and their CRDs convert by webhook in time. */
  private boolean createConfigs() throws InterruptedException {
    long start = System.nanoTime();
    var errors =
        parallel(fleet.size(), i -> retry(() -> client.resource(fleet.get(i).config()).create()));
    errors.forEach(e -> problems.add("config create: " + e));
    long deadline = start + settings.setupTimeout().toNanos();
    Map<String, String> waiting = Map.of();
    while (System.nanoTime() < deadline) {
      waiting = notYetConverting();
      if (waiting.isEmpty()) {
        double seconds = (System.nanoTime() - start) / 1e9;
        setup.put("configsAppliedSeconds", round(seconds));
        say(
            "%d configs Applied and their CRDs converting through the webhook server %.1f s after"
                + " the first create",
            fleet.size(), seconds);
        return errors.isEmpty();
      }
      Thread.sleep(500);
    }
    problems.add(
        waiting.size()
            + " config(s) not Applied with their CRD converting by webhook after "
            + settings.setupTimeout().toSeconds()
            + " s, e.g. "
            + waiting.entrySet().stream().limit(3).toList());
    return false;
  }

  /** Configs not yet Applied, or whose CRD does not yet convert by webhook: name → why. */
  private Map<String, String> notYetConverting() {
    var out = new TreeMap<String, String>();
    var configs = new java.util.HashMap<String, CRDConversionConfig>();
    client
        .resources(CRDConversionConfig.class)
        .list()
        .getItems()
        .forEach(c -> configs.put(c.getMetadata().getName(), c));
    var crds = new java.util.HashMap<String, CustomResourceDefinition>();
    client
        .apiextensions()
        .v1()
        .customResourceDefinitions()
        .list()
        .getItems()
        .forEach(c -> crds.put(c.getMetadata().getName(), c));
    for (var target : fleet) {
      var config = configs.get(target.configName());
      var status = config == null ? null : config.getStatus();
      if (status == null || !"Applied".equals(status.phase)) {
        out.put(target.configName(), status == null ? "no status" : status.phase);
        continue;
      }
      var crd = crds.get(target.crdName());
      var conversion = crd == null ? null : crd.getSpec().getConversion();
      if (conversion == null || !"Webhook".equals(conversion.getStrategy())) {
        out.put(target.configName(), "Applied, CRD not yet converting by webhook");
      }
    }
    return out;
  }

  // ---- objects ----

  private static String objectName(int j) {
    return String.format(Locale.ROOT, "obj-%03d", j);
  }

  private static ResourceDefinitionContext context(FleetPlan.Target target, String version) {
    return new ResourceDefinitionContext.Builder()
        .withGroup(FleetPlan.GROUP)
        .withVersion(version)
        .withKind(target.kind())
        .withPlural(target.plural())
        .withNamespaced(true)
        .build();
  }

  private void createObjects(KubernetesClient load) throws InterruptedException {
    int m = settings.objectsPerCrd();
    var routers = fleet.stream().map(FleetPlan.Target::router).toList();
    var create = timings.get("create");
    parallel(
        fleet.size() * m,
        i -> {
          var target = fleet.get(i / m);
          var router = routers.get(i / m);
          var name = objectName(i % m);
          var hub = target.hubObject(OBJECTS, name);
          var atV1 = router.convert(hub, FleetPlan.HUB, "v1");
          var stored = router.convert(atV1, "v1", FleetPlan.HUB);
          for (var version : FleetPlan.VERSIONS) {
            expected.put(
                key(target, name, version),
                router.convert(stored, FleetPlan.HUB, version).path("spec"));
          }
          var resource =
              load.getKubernetesSerialization().convertValue(atV1, GenericKubernetesResource.class);
          long t0 = System.nanoTime();
          try {
            retry(
                () -> {
                  try {
                    return load.genericKubernetesResources(context(target, "v1"))
                        .inNamespace(OBJECTS)
                        .resource(resource)
                        .create();
                  } catch (KubernetesClientException e) {
                    if (e.getCode() == 409) {
                      return resource; // created by an attempt whose answer was lost
                    }
                    throw e;
                  }
                });
            create.ok(t0, System.nanoTime());
          } catch (Exception e) {
            create.failed(t0, System.nanoTime(), describe(target, name, e));
          }
        });
    say("create: %s", create.toJson());
  }

  private void list(KubernetesClient load, String version) throws InterruptedException {
    var list = timings.get("list" + version.toUpperCase(Locale.ROOT));
    int repeats = settings.listRepeats();
    var before = counters("list", version);
    parallel(
        fleet.size() * repeats,
        i -> {
          var target = fleet.get(i / repeats);
          long t0 = System.nanoTime();
          try {
            var items =
                load.genericKubernetesResources(context(target, version))
                    .inNamespace(OBJECTS)
                    .list()
                    .getItems();
            long t1 = System.nanoTime();
            var wrong = items.size() == settings.objectsPerCrd() ? null : items.size() + " items";
            for (var item : items) {
              if (wrong == null) {
                wrong = check(load, target, item, version);
              }
            }
            if (wrong == null) {
              list.ok(t0, t1);
            } else {
              list.failed(t0, t1, target.kind() + " at " + version + ": " + wrong);
            }
          } catch (Exception e) {
            list.failed(t0, System.nanoTime(), describe(target, "(list)", e));
          }
        });
    breakdown.set(
        "list" + version.toUpperCase(Locale.ROOT),
        counters("list", version).minus(before).perRequest(list));
    say("list at %s: %s", version, list.toJson());
  }

  private void get(KubernetesClient load, String version) throws InterruptedException {
    var get = timings.get("get" + version.toUpperCase(Locale.ROOT));
    int m = settings.objectsPerCrd();
    int repeats = settings.getRepeats();
    var before = counters("get", version);
    parallel(
        fleet.size() * m * repeats,
        i -> {
          var target = fleet.get(i / (m * repeats));
          var name = objectName((i / repeats) % m);
          long t0 = System.nanoTime();
          try {
            var item =
                load.genericKubernetesResources(context(target, version))
                    .inNamespace(OBJECTS)
                    .withName(name)
                    .get();
            long t1 = System.nanoTime();
            var wrong = item == null ? "not found" : check(load, target, item, version);
            if (wrong == null) {
              get.ok(t0, t1);
            } else {
              get.failed(t0, t1, target.kind() + "/" + name + " at " + version + ": " + wrong);
            }
          } catch (Exception e) {
            get.failed(t0, System.nanoTime(), describe(target, name, e));
          }
        });
    breakdown.set(
        "get" + version.toUpperCase(Locale.ROOT),
        counters("get", version).minus(before).perRequest(get));
    say("get at %s: %s", version, get.toJson());
  }

  /** Null when {@code item}'s spec is what the engine computes for it, else what differs. */
  private String check(
      KubernetesClient load,
      FleetPlan.Target target,
      GenericKubernetesResource item,
      String version) {
    var name = item.getMetadata().getName();
    var want = expected.get(key(target, name, version));
    if (want == null) {
      return "unexpected object " + name;
    }
    JsonNode got =
        load.getKubernetesSerialization().convertValue(item, JsonNode.class).path("spec");
    return want.equals(SAME_VALUE, got)
        ? null
        : "wrong value of " + name + ": want " + want + ", got " + got;
  }

  /**
   * JSON equality where numbers compare by value: the client reads {@code 1500} into whichever
   * numeric node it likes, and the engine's {@code IntNode} is not equal to a {@code LongNode}.
   */
  private static final java.util.Comparator<JsonNode> SAME_VALUE =
      (a, b) -> {
        if (a.isNumber() && b.isNumber()) {
          return a.decimalValue().compareTo(b.decimalValue()) == 0 ? 0 : 1;
        }
        return a.equals(b) ? 0 : 1;
      };

  private static String key(FleetPlan.Target target, String name, String version) {
    return target.kind() + "/" + name + "@" + version;
  }

  private static String describe(FleetPlan.Target target, String name, Exception e) {
    var message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    int newline = message.indexOf('\n');
    return target.kind()
        + "/"
        + name
        + ": "
        + (newline < 0 ? message : message.substring(0, newline));
  }

  // ---- where a request's time goes ----

  /**
   * Cumulative sums (seconds) and counts of what one operation class costs on the way: the
   * apiserver's handling of the fleet's requests of that verb and version ({@code
   * apiserver_request_duration_seconds}), its etcd reads of custom resources ({@code
   * etcd_request_duration_seconds}), and the webhook-server replicas' handling of conversion
   * reviews ({@code versio_webhook_conversion_review_duration_seconds}).
   */
  private record Counters(
      double apiSum,
      double apiCount,
      double etcdSum,
      double etcdCount,
      double hookSum,
      double hookCount) {
    Counters minus(Counters o) {
      return new Counters(
          apiSum - o.apiSum,
          apiCount - o.apiCount,
          etcdSum - o.etcdSum,
          etcdCount - o.etcdCount,
          hookSum - o.hookSum,
          hookCount - o.hookCount);
    }

    /**
     * Means per client request over one phase: the client's own latency, the part inside the
     * apiserver, of which etcd and the conversion webhook's handler, and what is left on either
     * side (client, network and TLS to the apiserver; the apiserver's own work, including its call
     * to the webhook over TLS).
     */
    ObjectNode perRequest(RequestTimings timings) {
      var node = JSON.createObjectNode();
      double n = timings.requests();
      double client = timings.toJson().path("meanMs").asDouble(Double.NaN);
      double api = apiCount > 0 ? apiSum / apiCount * 1000 : Double.NaN;
      double etcd = n > 0 ? etcdSum / n * 1000 : Double.NaN;
      double hook = n > 0 ? hookSum / n * 1000 : Double.NaN;
      node.put("requests", (long) n)
          .put("clientMeanMs", round(client))
          .put("apiserverMeanMs", round(api))
          .put("etcdPerRequestMs", round(etcd))
          .put("etcdCallsPerRequest", round(n > 0 ? etcdCount / n : Double.NaN))
          .put("webhookHandlerPerRequestMs", round(hook))
          .put("conversionReviewsPerRequest", round(n > 0 ? hookCount / n : Double.NaN))
          .put("outsideApiserverMs", round(client - api))
          .put("apiserverOwnMs", round(api - etcd - hook));
      return node;
    }
  }

  /**
   * The counters now. The apiserver's figures count both read verbs: a phase sends only one kind of
   * read, and kube-apiserver 1.20 reports a GET of a custom resource with {@code verb="LIST"}.
   */
  private Counters counters(String etcdOperation, String version) {
    var api = client.raw("/metrics");
    var hooks = replicas.scrapes();
    double apiSum = 0;
    double apiCount = 0;
    for (var verb : List.of("GET", "LIST")) {
      var labels =
          new String[] {
            "verb=\"" + verb + "\"",
            "group=\"" + FleetPlan.GROUP + "\"",
            "version=\"" + version + "\"",
            "subresource=\"\""
          };
      apiSum += Exposition.sum(api, "apiserver_request_duration_seconds_sum", labels);
      apiCount += Exposition.sum(api, "apiserver_request_duration_seconds_count", labels);
    }
    var etcd =
        new String[] {
          "operation=\"" + etcdOperation + "\"",
          etcdOperation.equals("get")
              ? "type=\"*unstructured.Unstructured\""
              : "type=\"*[]unstructured.Unstructured\""
        };
    double hookSum = 0;
    double hookCount = 0;
    for (var body : hooks) {
      hookSum += Exposition.sum(body, "versio_webhook_conversion_review_duration_seconds_sum");
      hookCount += Exposition.sum(body, "versio_webhook_conversion_review_duration_seconds_count");
    }
    return new Counters(
        apiSum,
        apiCount,
        Exposition.sum(api, "etcd_request_duration_seconds_sum", etcd),
        Exposition.sum(api, "etcd_request_duration_seconds_count", etcd),
        hookSum,
        hookCount);
  }

  // ---- plumbing ----

  /** A client of its own for the traffic: our retries only, a bounded wait per request. */
  private KubernetesClient loadClient() {
    var config =
        new ConfigBuilder(controlPlane.adminConfig())
            .withRequestTimeout(30_000)
            .withRequestRetryBackoffLimit(0)
            .withMaxConcurrentRequests(settings.parallel() * 2)
            .withMaxConcurrentRequestsPerHost(settings.parallel() * 2)
            .build();
    return new KubernetesClientBuilder().withConfig(config).build();
  }

  private static <T> T retry(java.util.concurrent.Callable<T> request) {
    try {
      return TransientRetry.DEFAULT.run(request);
    } catch (RuntimeException e) {
      throw e;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    } catch (Exception e) {
      throw new IllegalStateException(e.getMessage(), e);
    }
  }

  /** Runs {@code task(i)} for i in [0, n) with {@code parallel} in flight; lists the failures. */
  private List<String> parallel(int n, IntConsumer task) throws InterruptedException {
    return ParallelCreate.range(0, n, settings.parallel(), task);
  }

  private void summarize() {
    say("| Operation | n | errors | p50 ms | p99 ms | max ms | per s |");
    say("|---|---:|---:|---:|---:|---:|---:|");
    timings.forEach(
        (name, t) -> {
          var j = t.toJson();
          say(
              "| %s | %d | %d | %s | %s | %s | %s |",
              name,
              j.path("n").asLong(),
              j.path("errors").asLong(),
              j.path("p50Ms").asText(),
              j.path("p99Ms").asText(),
              j.path("maxMs").asText(),
              j.path("perSecond").asText());
        });
    say(problems.isEmpty() ? "PASSED" : "FAILED: " + problems);
  }

  private void say(String format, Object... args) {
    out.printf(Locale.ROOT, "FLEET " + format + "%n", args);
  }

  private static double round(double value) {
    return Double.isNaN(value) ? value : Math.round(value * 1000) / 1000.0;
  }
}
