package dev.versio.bench.operator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.versio.api.config.CRDConversionConfig;
import dev.versio.api.config.ConversionConfigStatus;
import dev.versio.api.config.StorageMigrationSpec;
import dev.versio.api.config.StorageMigrationStatus;
import dev.versio.bench.fleet.ParallelCreate;
import dev.versio.operator.status.Conditions;
import dev.versio.testkit.ControlPlane;
import dev.versio.testkit.ControlPlaneAssets;
import dev.versio.testkit.Crds;
import dev.versio.testkit.fleet.Widgets;
import dev.versio.testkit.tls.CertificateAuthority;
import dev.versio.webhook.WebhookServer;
import dev.versio.webhook.WebhookServerOptions;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

/**
 * The operator's storage migration at scale, against the real test apiserver: {@code n} objects of
 * one two-version Widget CRD, written while v1 was the storage version, re-stored at v2 by the
 * operator after v2 was promoted, at the rate the config names. The operator runs with {@code
 * OperatorOptions.defaults} in its own JVM ({@link OperatorProcess}); the webhook server that
 * converts v1 to v2 (the rename {@code spec.size} to {@code spec.replicas}) runs in this JVM, in
 * URL mode.
 *
 * <p>One control plane for the whole invocation; every run has a CRD of its own, deleted with its
 * objects and its config when the run ends:
 *
 * <ol>
 *   <li>The CRD with v1 as storage version and v2 served; {@code n} objects created at v1 ({@code
 *       --threads} at a time); then v2 promoted to storage, so {@code status.storedVersions} lists
 *       v1 and v2.
 *   <li>A CRDConversionConfig for it with {@code storageMigration{policy: Manual, rate, pageSize}},
 *       awaited until Applied with the condition {@code StorageMigrated} saying a migration is
 *       needed; then until the apiserver is quiet.
 *   <li>The request: {@code spec.storageMigration.policy} patched to Automatic ({@code --trigger
 *       automatic}, the default) or the annotation {@value StorageMigrationSpec#REQUEST_ANNOTATION}
 *       set ({@code --trigger annotation}). Timed from the request until this JVM's watches see
 *       {@code status.storageMigration.phase: Succeeded} and the CRD's {@code storedVersions} is
 *       [v2]; the apiserver's own request counters ({@code apiserver_request_total}) and the CPU of
 *       the apiserver, etcd, the operator and this JVM are read right before the request and right
 *       after. The watch keeps every state of {@code status.storageMigration} it sees, so a request
 *       answered by more than one run (distinct {@code startedAt}: every object re-stored again) is
 *       counted and flagged, also when it starts within 2 s after the window.
 *   <li>Proof: v1 is removed from the CRD (the apiserver refuses it while {@code storedVersions}
 *       lists v1) and every object is read back at v2 with {@code spec.replicas} equal to the size
 *       it was created with. Not part of the timed window.
 * </ol>
 *
 * <p>The runs go round the rates ({@code 50, 500, 50, 500, ...}) so that a drift of the machine
 * spreads over every rate. A run that fails (a migration not Succeeded in time, Failed or
 * Cancelled, an object not read back) is reported as such and never counted.
 *
 * <p>Usage: {@code StorageMigrationRun [n] [--rates 50,500] [--runs R] [--page-size P] [--threads
 * T] [--trigger automatic|annotation] [--operator-xmx 512m] [--timeout-seconds S] [--out FILE]}.
 */
public final class StorageMigrationRun {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String NAMESPACE = "default";
  private static final String PLURAL = "widgets";
  private static final String KIND = "Widget";
  private static final String CONFIG_CONTROLLER = "crdconversionconfig";
  private static final String USAGE =
      "usage: StorageMigrationRun [n (2000)] [--rates 50,500] [--runs 3] [--page-size 500]"
          + " [--threads 4] [--trigger automatic|annotation] [--operator-xmx 512m]"
          + " [--timeout-seconds S] [--out FILE]";

  private final Settings settings;
  private final Output out;

  private StorageMigrationRun(Settings settings, Output out) {
    this.settings = settings;
    this.out = out;
  }

  public static void main(String[] args) throws Exception {
    Settings settings;
    try {
      settings = Settings.parse(args);
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      System.err.println(USAGE);
      System.exit(2);
      return;
    }
    long failed;
    try (var out = Output.open(settings.out())) {
      var outcomes = new StorageMigrationRun(settings, out).runAll();
      failed = outcomes.stream().filter(o -> !o.ok()).count();
    }
    System.exit(failed == 0 ? 0 : 1);
  }

  // ---------------------------------------------------------------------------------------------
  // settings and output

  /** What one invocation does. */
  private record Settings(
      int objects,
      List<Integer> rates,
      int runs,
      int pageSize,
      int threads,
      String trigger,
      String operatorXmx,
      Duration timeout,
      Path out) {
    private static final Set<String> FLAGS =
        Set.of(
            "rates",
            "runs",
            "page-size",
            "threads",
            "trigger",
            "operator-xmx",
            "timeout-seconds",
            "out");

    static Settings parse(String[] args) {
      int objects = 2000;
      int i = 0;
      if (args.length > 0 && !args[0].startsWith("--")) {
        objects = Integer.parseInt(args[0]);
        i = 1;
      }
      var flags = new HashMap<String, String>();
      for (; i < args.length; i += 2) {
        var name = args[i].replaceFirst("^--", "");
        if (!args[i].startsWith("--") || !FLAGS.contains(name) || i + 1 >= args.length) {
          throw new IllegalArgumentException("unknown or incomplete option: " + args[i]);
        }
        flags.put(name, args[i + 1]);
      }
      var rates =
          Arrays.stream(flags.getOrDefault("rates", "50,500").split(","))
              .map(String::trim)
              .map(Integer::parseInt)
              .toList();
      var trigger = flags.getOrDefault("trigger", "automatic");
      if (!trigger.equals("automatic") && !trigger.equals("annotation")) {
        throw new IllegalArgumentException("--trigger is automatic or annotation, not " + trigger);
      }
      int slowest = rates.stream().mapToInt(Integer::intValue).min().orElse(1);
      long timeout =
          flags.containsKey("timeout-seconds")
              ? Long.parseLong(flags.get("timeout-seconds"))
              : Math.max(180, 3L * objects / slowest + 60);
      return new Settings(
          objects,
          rates,
          Integer.parseInt(flags.getOrDefault("runs", "3")),
          Integer.parseInt(flags.getOrDefault("page-size", "500")),
          Integer.parseInt(flags.getOrDefault("threads", "4")),
          trigger,
          flags.getOrDefault("operator-xmx", "512m"),
          Duration.ofSeconds(timeout),
          flags.containsKey("out") ? Path.of(flags.get("out")) : null);
    }
  }

  /** Standard output, and the raw output file when there is one. */
  private static final class Output implements AutoCloseable {
    private final PrintWriter file;

    private Output(PrintWriter file) {
      this.file = file;
    }

    static Output open(Path path) throws IOException {
      if (path == null) {
        return new Output(null);
      }
      var parent = path.toAbsolutePath().getParent();
      Files.createDirectories(parent);
      return new Output(
          new PrintWriter(
              Files.newBufferedWriter(
                  path,
                  StandardCharsets.UTF_8,
                  StandardOpenOption.CREATE,
                  StandardOpenOption.TRUNCATE_EXISTING),
              true));
    }

    void say(String format, Object... args) {
      var line = args.length == 0 ? format : String.format(Locale.ROOT, format, args);
      System.out.println(line);
      System.out.flush();
      if (file != null) {
        file.println(line);
      }
    }

    @Override
    public void close() {
      if (file != null) {
        file.close();
      }
    }
  }

  // ---------------------------------------------------------------------------------------------
  // the invocation

  private List<Outcome> runAll() throws Exception {
    header();
    var outcomes = new ArrayList<Outcome>();
    var workRoot =
        Files.createDirectories(Path.of("versio-bench/target/storage-migration").toAbsolutePath());
    try (var cp = ControlPlane.start(ControlPlaneAssets.locate(), workRoot, System.err::println);
        var client = cp.adminClient();
        var webhookClient = cp.adminClient()) {
      out.say(
          "apiserver %s ready in %d ms",
          client.getKubernetesVersion().getGitVersion(), cp.startupTime().toMillis());
      Crds.applyVersioCrds(client);
      OperatorScale.createSystemNamespace(client);
      var certDir = Files.createDirectories(cp.directory().resolve("bench-webhook-tls"));
      var caBundle = writeCertificate(certDir);
      try (var webhook = startWebhookServer(webhookClient, certDir)) {
        var url = "https://127.0.0.1:" + webhook.conversionPort();
        client.resource(Widgets.urlServer(ScaleFixtures.SERVER, url, caBundle)).create();
        try (var operator =
                OperatorJvm.start(cp.kubeconfig(), settings.operatorXmx(), cp.directory());
            var watch = new Watch(client)) {
          out.say("operator ready in %d ms (its own JVM)", operator.startMillis());
          OperatorScale.awaitServerAvailable(client);
          out.say("server %s is Available", ScaleFixtures.SERVER);
          var lab = new Lab(cp, client, operator, watch, webhook.opsPort());
          int index = 0;
          for (int round = 1; round <= settings.runs(); round++) {
            for (int rate : settings.rates()) {
              index++;
              outcomes.add(runGuarded(lab, index, rate));
            }
          }
        }
      }
    }
    table(outcomes);
    summary(outcomes);
    return outcomes;
  }

  private void header() {
    out.say("# Versio storage migration run");
    out.say(
        "started %s; commit %s; %d objects per run; rates %s writes/s; %d run(s) per rate; page"
            + " size %d; %d concurrent creates; trigger %s; operator JVM -Xmx%s; timeout %d s",
        LocalDateTime.now().truncatedTo(ChronoUnit.SECONDS),
        System.getProperty("bench.commit", "unknown"),
        settings.objects(),
        settings.rates(),
        settings.runs(),
        settings.pageSize(),
        settings.threads(),
        settings.trigger(),
        settings.operatorXmx(),
        settings.timeout().toSeconds());
    out.say(
        "machine: %d cores, Java %s; operator options: defaults (4 reconcile threads, URL mode);"
            + " webhook server in the harness JVM",
        Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"));
  }

  /** What every run works with: the control plane, the operator's JVM and this JVM's watches. */
  private record Lab(
      ControlPlane cp, KubernetesClient client, OperatorJvm operator, Watch watch, int opsPort) {}

  /** The names of run {@code index}'s objects. */
  private record Target(int index) {
    String group() {
      return "sm" + index + ".bench.versio.dev";
    }

    String crd() {
      return PLURAL + "." + group();
    }

    String config() {
      return "widgets-sm" + index;
    }

    ResourceDefinitionContext at(String version) {
      return new ResourceDefinitionContext.Builder()
          .withGroup(group())
          .withVersion(version)
          .withKind(KIND)
          .withPlural(PLURAL)
          .withNamespaced(true)
          .build();
    }
  }

  private Outcome runGuarded(Lab lab, int index, int rate) {
    var target = new Target(index);
    out.say("");
    out.say("## run %d: rate %d/s (load average %.2f)", index, rate, loadAverage());
    Outcome outcome;
    try {
      outcome = runOnce(lab, target, rate);
    } catch (Exception e) {
      e.printStackTrace();
      outcome = Outcome.failed(index, rate, "run aborted: " + e);
    }
    try {
      cleanUp(lab, target);
    } catch (Exception e) {
      out.say("clean-up of run %d failed: %s", index, e);
    }
    out.say("run %d: %s", index, outcome.ok() ? "OK" : "FAILED (" + outcome.failure() + ")");
    return outcome;
  }

  // ---------------------------------------------------------------------------------------------
  // one run

  private Outcome runOnce(Lab lab, Target target, int rate) throws Exception {
    var client = lab.client();
    createCrdAtV1(client, target);
    var createErrors = createObjects(client, target);
    if (!createErrors.isEmpty()) {
      createErrors.stream().limit(5).forEach(e -> out.say("  create error: %s", e));
      return Outcome.failed(target.index(), rate, createErrors.size() + " objects not created");
    }
    promoteV2(lab, target);
    createConfig(client, target, rate);
    if (!awaitMigrationNeeded(lab.watch(), target)) {
      return Outcome.failed(
          target.index(), rate, "config not Applied with a migration needed within 120 s");
    }
    double idle = awaitQuietApiserver(lab);
    var statsBefore = lab.operator().command("stats");
    var requestsBefore = Requests.read(client);
    var reviewsBefore = Reviews.read(lab.opsPort(), target.crd());
    var cpuBefore = LabCpu.of(lab.cp(), lab.operator().pid());
    long requested = System.nanoTime();
    request(client, target);
    var timeline = awaitMigrated(lab.watch(), target, requested);
    var cpu = LabCpu.of(lab.cp(), lab.operator().pid()).minus(cpuBefore);
    var requests = Requests.read(client).minus(requestsBefore);
    var reviews = Reviews.read(lab.opsPort(), target.crd()).minus(reviewsBefore);
    var statsAfter = lab.operator().command("stats");
    var migration = lab.watch().config(target.config()).storageMigration;
    if (timeline.failure() != null) {
      out.say("  status.storageMigration: %s", JSON.writeValueAsString(migration));
      return Outcome.failed(target.index(), rate, timeline.failure());
    }
    int later = laterRuns(lab.watch(), target, timeline.runs(), Duration.ofSeconds(2));
    var figures = Figures.of(target, timeline, later, migration, requests, reviews, cpu, idle);
    report(figures, requests, target, statsBefore, statsAfter);
    int verified = verifyStoredAtV2(lab, target);
    if (verified != settings.objects()) {
      return Outcome.failed(
          target.index(),
          rate,
          (settings.objects() - verified) + " objects not read back at v2 as created");
    }
    return new Outcome(target.index(), rate, figures, verified, null);
  }

  private void createCrdAtV1(KubernetesClient client, Target target) {
    var crd = Widgets.crd(target.group(), PLURAL, KIND);
    crd.getSpec().getVersions().forEach(v -> v.setStorage(v.getName().equals("v1")));
    client.resource(crd).create();
    Crds.awaitEstablished(client, target.crd());
  }

  private List<String> createObjects(KubernetesClient client, Target target)
      throws InterruptedException {
    var v1 = client.genericKubernetesResources(target.at("v1")).inNamespace(NAMESPACE);
    long start = System.nanoTime();
    var errors =
        ParallelCreate.range(
            0,
            settings.objects(),
            settings.threads(),
            i -> v1.resource(widgetAtV1(target, i)).create());
    double seconds = seconds(System.nanoTime() - start);
    out.say(
        "%d objects created at v1 in %.1f s (%.0f/s, %d threads, %d errors)",
        settings.objects(),
        seconds,
        settings.objects() / seconds,
        settings.threads(),
        errors.size());
    return errors;
  }

  private static GenericKubernetesResource widgetAtV1(Target target, int i) {
    return new GenericKubernetesResourceBuilder()
        .withApiVersion(target.group() + "/v1")
        .withKind(KIND)
        .withNewMetadata()
        .withName("w" + i)
        .endMetadata()
        .withAdditionalProperties(Map.of("spec", Map.of("size", i)))
        .build();
  }

  /** Makes v2 the storage version; {@code storedVersions} then lists v1 and v2. */
  private void promoteV2(Lab lab, Target target) throws InterruptedException {
    editCrd(
        lab.client(),
        target.crd(),
        crd -> {
          crd.getSpec().getVersions().forEach(v -> v.setStorage(v.getName().equals("v2")));
          return crd;
        });
    var both = List.of("v1", "v2");
    if (!await(
        () -> both.equals(lab.watch().storedVersions(target.crd())), Duration.ofSeconds(30))) {
      throw new IllegalStateException(
          "storedVersions is " + lab.watch().storedVersions(target.crd()) + ", not " + both);
    }
    out.say("v2 promoted to storage: storedVersions %s", both);
  }

  private void createConfig(KubernetesClient client, Target target, int rate) {
    var config = Widgets.renameConfig(target.config(), target.crd(), ScaleFixtures.SERVER);
    var migration = new StorageMigrationSpec();
    migration.policy = "Manual";
    migration.rate = rate;
    migration.pageSize = settings.pageSize();
    config.getSpec().storageMigration = migration;
    client.resource(config).create();
  }

  /** Until the config is Applied and says that a migration is needed. */
  private boolean awaitMigrationNeeded(Watch watch, Target target) throws InterruptedException {
    long start = System.nanoTime();
    boolean met =
        await(
            () -> {
              var status = watch.config(target.config());
              return status != null
                  && "Applied".equals(status.phase)
                  && Conditions.find(status.conditions, Conditions.STORAGE_MIGRATED)
                      .map(c -> "MigrationNeeded".equals(c.getReason()))
                      .orElse(false);
            },
            Duration.ofSeconds(120));
    out.say(
        "config %s Applied with StorageMigrated=False/MigrationNeeded %.2f s after its create",
        target.config(), seconds(System.nanoTime() - start));
    return met;
  }

  /**
   * Waits until the apiserver uses less than 0.2 cores over a second (at most 20 s); returns what
   * it used over the last second.
   */
  private double awaitQuietApiserver(Lab lab) throws InterruptedException {
    double cores = Double.NaN;
    for (int i = 0; i < 20; i++) {
      var before = LabCpu.of(lab.cp(), lab.operator().pid());
      Thread.sleep(1000); // a window of the apiserver's own CPU counter
      cores = LabCpu.of(lab.cp(), lab.operator().pid()).minus(before).apiserver();
      if (cores < 0.2) {
        break;
      }
    }
    out.say("apiserver before the request: %.2f cores (last second)", cores);
    return cores;
  }

  private void request(KubernetesClient client, Target target) {
    var patch =
        settings.trigger().equals("automatic")
            ? "{\"spec\":{\"storageMigration\":{\"policy\":\"Automatic\"}}}"
            : "{\"metadata\":{\"annotations\":{\""
                + StorageMigrationSpec.REQUEST_ANNOTATION
                + "\":\"run-"
                + target.index()
                + "\"}}}";
    client
        .resources(CRDConversionConfig.class)
        .withName(target.config())
        .patch(PatchContext.of(PatchType.JSON_MERGE), patch);
  }

  /**
   * What this JVM's watches saw after the request, in seconds from it: the first migration state,
   * the CRD's {@code storedVersions} pruned to [v2], the first Succeeded; and how many runs the
   * status reported by then (distinct {@code startedAt}): more than one means every object was
   * re-stored again.
   */
  private record Timeline(
      double running, double pruned, double succeeded, int runs, String failure) {
    static Timeline failed(String why) {
      return new Timeline(0, 0, 0, 0, why);
    }

    double wall() {
      return Math.max(succeeded, pruned);
    }
  }

  private Timeline awaitMigrated(Watch watch, Target target, long requested)
      throws InterruptedException {
    long deadline = requested + settings.timeout().toNanos();
    long pruned = 0;
    long nextProgress = requested + Duration.ofSeconds(10).toNanos();
    while (true) {
      long now = System.nanoTime();
      var history = watch.migration(target.config());
      var last = history.isEmpty() ? null : history.getLast();
      if (last != null && (last.phase().equals("Failed") || last.phase().equals("Cancelled"))) {
        return Timeline.failed("migration " + last.phase() + ": " + last.message());
      }
      if (pruned == 0 && List.of("v2").equals(watch.storedVersions(target.crd()))) {
        pruned = now;
      }
      var succeeded = history.stream().filter(m -> m.phase().equals("Succeeded")).findFirst();
      if (succeeded.isPresent() && pruned != 0) {
        return new Timeline(
            seconds(history.getFirst().at() - requested),
            seconds(pruned - requested),
            seconds(succeeded.get().at() - requested),
            Seen.runs(history),
            null);
      }
      if (now > deadline) {
        return Timeline.failed(
            "not Succeeded with storedVersions [v2] within "
                + settings.timeout().toSeconds()
                + " s (last seen: "
                + last
                + ")");
      }
      if (now > nextProgress) {
        nextProgress += Duration.ofSeconds(10).toNanos();
        out.say(
            "  %.0f s: phase %s, handled %d of about %d",
            seconds(now - requested),
            last == null ? null : last.phase(),
            last == null ? 0 : last.handled(),
            last == null ? 0 : last.total());
      }
      Thread.sleep(5); // polling this JVM's watch caches
    }
  }

  /** Runs the status reported in the {@code grace} after the timed window, besides {@code runs}. */
  private static int laterRuns(Watch watch, Target target, int runs, Duration grace)
      throws InterruptedException {
    Thread.sleep(grace.toMillis()); // a window for a run started after the recorded Succeeded
    return Seen.runs(watch.migration(target.config())) - runs;
  }

  /**
   * Removes v1 from the CRD (refused while {@code storedVersions} lists it) and reads every object
   * at v2; returns how many read back with the size they were created with as {@code
   * spec.replicas}. An object still stored at v1 cannot be read any more.
   */
  private int verifyStoredAtV2(Lab lab, Target target) throws InterruptedException {
    var client = lab.client();
    editCrd(
        client,
        target.crd(),
        crd -> {
          crd.getSpec().getVersions().removeIf(v -> v.getName().equals("v1"));
          return crd;
        });
    var v1Path = "/apis/" + target.group() + "/v1";
    await(() -> !served(client, v1Path), Duration.ofSeconds(30));
    var v2 = client.genericKubernetesResources(target.at("v2")).inNamespace(NAMESPACE);
    int good = 0;
    int read = 0;
    String token = null;
    try {
      do {
        var page = v2.list(new ListOptionsBuilder().withLimit(500L).withContinue(token).build());
        for (var item : page.getItems()) {
          read++;
          if (createdAs(item)) {
            good++;
          }
        }
        token = page.getMetadata().getContinue();
      } while (token != null && !token.isEmpty());
    } catch (KubernetesClientException e) {
      out.say("check: reading the objects at v2 failed after %d: %s", read, e.getMessage());
      return good;
    }
    out.say(
        "check: v1 removed from the CRD (%s no longer served); %d objects read at v2, %d of %d with"
            + " spec.replicas as created",
        v1Path, read, good, settings.objects());
    return good;
  }

  private static boolean served(KubernetesClient client, String path) {
    try {
      client.raw(path);
      return true;
    } catch (KubernetesClientException e) {
      return e.getCode() != 404;
    }
  }

  /** Whether object {@code w<i>} reads {@code spec: {replicas: i}}. */
  private static boolean createdAs(GenericKubernetesResource item) {
    var name = item.getMetadata().getName();
    if (!(item.getAdditionalProperties().get("spec") instanceof Map<?, ?> spec)
        || spec.size() != 1
        || !(spec.get("replicas") instanceof Number replicas)) {
      return false;
    }
    return name.equals("w" + replicas.longValue());
  }

  /** Deletes the run's config, then its CRD (the apiserver deletes its objects first). */
  private void cleanUp(Lab lab, Target target) throws InterruptedException {
    var client = lab.client();
    long start = System.nanoTime();
    client.resources(CRDConversionConfig.class).withName(target.config()).delete();
    boolean configGone =
        await(() -> lab.watch().config(target.config()) == null, Duration.ofSeconds(60));
    client.apiextensions().v1().customResourceDefinitions().withName(target.crd()).delete();
    boolean crdGone = await(() -> !lab.watch().crdExists(target.crd()), Duration.ofSeconds(300));
    out.say(
        "clean-up: config %s, CRD and its objects %s, %.1f s",
        configGone ? "deleted" : "NOT deleted in 60 s",
        crdGone ? "deleted" : "NOT deleted in 300 s",
        seconds(System.nanoTime() - start));
  }

  private static void editCrd(
      KubernetesClient client, String name, UnaryOperator<CustomResourceDefinition> change) {
    for (int attempt = 1; ; attempt++) {
      try {
        client.apiextensions().v1().customResourceDefinitions().withName(name).edit(change);
        return;
      } catch (KubernetesClientException e) {
        if (e.getCode() != 409 || attempt >= 5) {
          throw e;
        }
      }
    }
  }

  // ---------------------------------------------------------------------------------------------
  // set-up

  /** A serving certificate for 127.0.0.1 in {@code dir}; returns the CA bundle (base64 PEM). */
  private static String writeCertificate(Path dir) throws IOException {
    var ca = CertificateAuthority.create("versio-storage-migration-bench");
    var cert = ca.issueServer("127.0.0.1", "localhost");
    Files.writeString(dir.resolve("tls.crt"), cert.certificatePem());
    Files.writeString(dir.resolve("tls.key"), cert.privateKeyPem());
    return ca.material().certificateBase64();
  }

  private static WebhookServer startWebhookServer(KubernetesClient client, Path certDir)
      throws InterruptedException {
    return WebhookServer.start(
        client,
        new WebhookServerOptions(
            ScaleFixtures.SERVER,
            certDir,
            "127.0.0.1",
            0,
            0,
            Duration.ofSeconds(5),
            WebhookServerOptions.DEFAULT_MAX_BODY_BYTES,
            2,
            null),
        Clock.systemUTC());
  }

  // ---------------------------------------------------------------------------------------------
  // this JVM's watches: waiting on them costs the apiserver nothing

  /** One state of a config's {@code status.storageMigration} as this JVM's watch saw it. */
  private record Seen(
      long at, String startedAt, String phase, long handled, long total, String message) {
    static Seen of(StorageMigrationStatus m) {
      return new Seen(
          System.nanoTime(), m.startedAt, m.phase, count(m.handled), count(m.total), m.message);
    }

    /** Whether {@code next} says something this one did not (its time aside). */
    boolean differs(Seen next) {
      return !Objects.equals(startedAt, next.startedAt)
          || !Objects.equals(phase, next.phase)
          || handled != next.handled;
    }

    /** How many runs {@code history} shows: distinct {@code startedAt}. */
    static int runs(List<Seen> history) {
      return (int) history.stream().map(Seen::startedAt).distinct().count();
    }
  }

  private static final class Watch implements AutoCloseable {
    private final SharedIndexInformer<CRDConversionConfig> configs;
    private final SharedIndexInformer<CustomResourceDefinition> crds;

    /** Every state of each config's migration, in the order the watch saw them. */
    private final Map<String, List<Seen>> migrations = new ConcurrentHashMap<>();

    Watch(KubernetesClient client) {
      this.configs =
          client
              .resources(CRDConversionConfig.class)
              .inform(
                  new ResourceEventHandler<>() {
                    @Override
                    public void onAdd(CRDConversionConfig config) {
                      seen(config);
                    }

                    @Override
                    public void onUpdate(CRDConversionConfig before, CRDConversionConfig config) {
                      seen(config);
                    }

                    @Override
                    public void onDelete(CRDConversionConfig config, boolean unknown) {}
                  },
                  0);
      this.crds = client.apiextensions().v1().customResourceDefinitions().inform();
    }

    /** Called on the informer's one event thread, in the order of the events. */
    private void seen(CRDConversionConfig config) {
      var status = config.getStatus();
      if (status == null || status.storageMigration == null) {
        return;
      }
      var next = Seen.of(status.storageMigration);
      if (next.phase() == null) {
        return;
      }
      migrations.compute(
          config.getMetadata().getName(),
          (name, history) -> {
            if (history != null && !history.getLast().differs(next)) {
              return history;
            }
            var longer = history == null ? new ArrayList<Seen>() : new ArrayList<>(history);
            longer.add(next);
            return List.copyOf(longer);
          });
    }

    /** The migration states of config {@code name} seen so far. */
    List<Seen> migration(String name) {
      return migrations.getOrDefault(name, List.of());
    }

    /** The config's status as last seen, or null while it does not exist. */
    ConversionConfigStatus config(String name) {
      var config = configs.getStore().getByKey(name);
      if (config == null) {
        return null;
      }
      return config.getStatus() == null ? new ConversionConfigStatus() : config.getStatus();
    }

    List<String> storedVersions(String crd) {
      var found = crds.getStore().getByKey(crd);
      return found == null || found.getStatus() == null
          ? List.of()
          : found.getStatus().getStoredVersions();
    }

    boolean crdExists(String crd) {
      return crds.getStore().getByKey(crd) != null;
    }

    @Override
    public void close() {
      configs.close();
      crds.close();
    }
  }

  private static boolean await(BooleanSupplier condition, Duration max)
      throws InterruptedException {
    long deadline = System.nanoTime() + max.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        return false;
      }
      Thread.sleep(5); // polling this JVM's watch caches
    }
    return true;
  }

  // ---------------------------------------------------------------------------------------------
  // the apiserver's request counters

  /** One series of {@code apiserver_request_total}; {@code code} empty for durations. */
  private record Request(
      String verb, String group, String resource, String subresource, String code) {
    String kind() {
      return verb + " " + resource + (subresource.isEmpty() ? "" : "/" + subresource);
    }
  }

  /**
   * The apiserver's request counters and the seconds it spent serving them ({@code
   * apiserver_request_duration_seconds_sum}), watches left out.
   */
  private record Requests(Map<Request, Double> counts, Map<Request, Double> seconds) {
    static Requests read(KubernetesClient client) {
      var counts = new HashMap<Request, Double>();
      var seconds = new HashMap<Request, Double>();
      for (var line : client.raw("/metrics").split("\n")) {
        boolean count = line.startsWith("apiserver_request_total{");
        if (!count && !line.startsWith("apiserver_request_duration_seconds_sum{")) {
          continue;
        }
        var verb = label(line, "verb");
        if (verb.startsWith("WATCH")) {
          continue;
        }
        var key =
            new Request(
                verb,
                label(line, "group"),
                label(line, "resource"),
                label(line, "subresource"),
                count ? label(line, "code") : "");
        double value = Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
        (count ? counts : seconds).merge(key, value, Double::sum);
      }
      return new Requests(counts, seconds);
    }

    Requests minus(Requests before) {
      return new Requests(minus(counts, before.counts), minus(seconds, before.seconds));
    }

    private static Map<Request, Double> minus(Map<Request, Double> a, Map<Request, Double> b) {
      var out = new HashMap<Request, Double>();
      a.forEach(
          (k, v) -> {
            double d = v - b.getOrDefault(k, 0.0);
            if (d > 0) {
              out.put(k, d);
            }
          });
      return out;
    }

    double count(Predicate<Request> which) {
      return sum(counts, which);
    }

    double seconds(Predicate<Request> which) {
      return sum(seconds, which);
    }

    private static double sum(Map<Request, Double> values, Predicate<Request> which) {
      return values.entrySet().stream()
          .filter(e -> which.test(e.getKey()))
          .mapToDouble(Map.Entry::getValue)
          .sum();
    }

    /** The busiest request kinds {@code which} picks, with their counts. */
    String busiest(Predicate<Request> which, int limit) {
      var byKind = new TreeMap<String, Double>();
      counts.forEach(
          (k, v) -> {
            if (which.test(k)) {
              byKind.merge(k.kind(), v, Double::sum);
            }
          });
      return byKind.entrySet().stream()
          .sorted((x, y) -> Double.compare(y.getValue(), x.getValue()))
          .limit(limit)
          .map(e -> String.format(Locale.ROOT, "%s %.0f", e.getKey(), e.getValue()))
          .collect(Collectors.joining(", "));
    }
  }

  private static String label(String line, String name) {
    int at = line.indexOf("," + name + "=\"");
    at = at >= 0 ? at + 1 : line.indexOf("{" + name + "=\"") + 1;
    if (at <= 0) {
      return "";
    }
    int from = at + name.length() + 2;
    return line.substring(from, line.indexOf('"', from));
  }

  /** Which requests a run is made of. */
  private record Kinds(String group) {
    /** An update of one object (verb PUT in the apiserver's metrics). */
    boolean targetUpdate(Request r) {
      return r.verb().equals("PUT") && target(r) && r.subresource().isEmpty();
    }

    boolean targetList(Request r) {
      return r.verb().equals("LIST") && target(r);
    }

    boolean statusPatch(Request r) {
      return r.verb().equals("PATCH")
          && r.resource().equals("crdconversionconfigs")
          && r.subresource().equals("status");
    }

    boolean other(Request r) {
      return !targetUpdate(r) && !targetList(r) && !statusPatch(r);
    }

    private boolean target(Request r) {
      return r.group().equals(group) && r.resource().equals(PLURAL);
    }
  }

  /**
   * The conversion reviews the webhook server in this JVM answered for one target, from its own
   * metrics on the ops port: reviews, objects in them, seconds spent handling them.
   */
  private record Reviews(double reviews, double objects, double seconds) {
    static Reviews read(int opsPort, String target) throws IOException, InterruptedException {
      var series = "target=\"" + target + "\"";
      double reviews = 0;
      double objects = 0;
      double seconds = 0;
      for (var line : opsMetrics(opsPort).split("\n")) {
        if (!line.contains(series)) {
          continue;
        }
        double value = Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
        if (line.startsWith("versio_webhook_conversion_review_requests_total{")) {
          reviews += value;
        } else if (line.startsWith("versio_webhook_conversion_objects_total{")) {
          objects += value;
        } else if (line.startsWith("versio_webhook_conversion_review_duration_seconds_sum{")) {
          seconds += value;
        }
      }
      return new Reviews(reviews, objects, seconds);
    }

    private static String opsMetrics(int opsPort) throws IOException, InterruptedException {
      try (var http = HttpClient.newHttpClient()) {
        var request =
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + opsPort + "/metrics")).build();
        return http.send(request, HttpResponse.BodyHandlers.ofString()).body();
      }
    }

    Reviews minus(Reviews o) {
      return new Reviews(reviews - o.reviews, objects - o.objects, seconds - o.seconds);
    }

    double meanMillis() {
      return reviews == 0 ? Double.NaN : 1000 * seconds / reviews;
    }
  }

  // ---------------------------------------------------------------------------------------------
  // results

  /**
   * The figures of one successful run; times in seconds from the request. The counts and {@code
   * statusSeconds} are the last run's the status reports ({@code runs} more than one: not the
   * first's).
   */
  private record Figures(
      double wall,
      double toRunning,
      double toPruned,
      int runs,
      int laterRuns,
      double statusSeconds,
      long handled,
      long rewritten,
      long writtenMeanwhile,
      long failed,
      double targetUpdates,
      double updateConflicts,
      double targetLists,
      double statusPatches,
      double otherRequests,
      double meanUpdateMillis,
      double meanListMillis,
      Reviews reviews,
      LabCpu cpu,
      double idleApiserverCores) {
    static Figures of(
        Target target,
        Timeline timeline,
        int laterRuns,
        StorageMigrationStatus migration,
        Requests requests,
        Reviews reviews,
        LabCpu cpu,
        double idle) {
      var kinds = new Kinds(target.group());
      double updates = requests.count(kinds::targetUpdate);
      double lists = requests.count(kinds::targetList);
      return new Figures(
          timeline.wall(),
          timeline.running(),
          timeline.pruned(),
          timeline.runs(),
          laterRuns,
          statusSeconds(migration),
          count(migration.handled),
          count(migration.rewritten),
          count(migration.writtenMeanwhile),
          count(migration.failed),
          updates,
          requests.count(r -> kinds.targetUpdate(r) && r.code().equals("409")),
          lists,
          requests.count(kinds::statusPatch),
          requests.count(kinds::other),
          meanMillis(requests.seconds(kinds::targetUpdate), updates),
          meanMillis(requests.seconds(kinds::targetList), lists),
          reviews,
          cpu,
          idle);
    }

    private static double meanMillis(double seconds, double count) {
      return count == 0 ? Double.NaN : 1000 * seconds / count;
    }

    private static double statusSeconds(StorageMigrationStatus migration) {
      if (migration.startedAt == null || migration.finishedAt == null) {
        return Double.NaN;
      }
      return Duration.between(
                  Instant.parse(migration.startedAt), Instant.parse(migration.finishedAt))
              .toNanos()
          / 1e9;
    }

    /** Objects per second by the run's own {@code startedAt}..{@code finishedAt}. */
    double statusRate() {
      return handled / statusSeconds;
    }

    /** Objects per second by this JVM's clock: from the request to storedVersions [v2]. */
    double harnessRate(int objects) {
      return objects / toPruned;
    }

    double allRequests() {
      return targetUpdates + targetLists + statusPatches + otherRequests;
    }

    double requestsPerSecond() {
      return allRequests() / wall;
    }
  }

  /** A run: its figures, or why it failed. */
  private record Outcome(int run, int rate, Figures figures, int verified, String failure) {
    static Outcome failed(int run, int rate, String why) {
      return new Outcome(run, rate, null, 0, why);
    }

    boolean ok() {
      return failure == null;
    }
  }

  private void report(
      Figures f, Requests requests, Target target, JsonNode statsBefore, JsonNode statsAfter) {
    var kinds = new Kinds(target.group());
    out.say(
        "request -> first migration state seen %.2f s, -> storedVersions [v2] %.2f s, ->"
            + " Succeeded seen %.2f s; status startedAt..finishedAt %.2f s",
        f.toRunning(), f.toPruned(), f.wall(), f.statusSeconds());
    if (f.runs() > 1 || f.laterRuns() > 0) {
      out.say(
          "  NOTE: the status reported %d run(s) for one request by Succeeded (distinct"
              + " startedAt), %d more within 2 s after: every object was re-stored again",
          f.runs(), f.laterRuns());
    }
    out.say(
        "objects: handled %d, rewritten %d, written meanwhile %d, failed %d; %.1f objects/s"
            + " (status), %.1f objects/s (harness clock, to storedVersions [v2])",
        f.handled(),
        f.rewritten(),
        f.writtenMeanwhile(),
        f.failed(),
        f.statusRate(),
        f.harnessRate(settings.objects()));
    out.say(
        "apiserver requests: UPDATE (PUT) %s %.0f (%.0f conflicts, mean %.1f ms served), LIST"
            + " %s %.0f (mean %.0f ms served), PATCH crdconversionconfigs/status %.0f, other %.0f;"
            + " %.0f in all, %.1f/s",
        PLURAL,
        f.targetUpdates(),
        f.updateConflicts(),
        f.meanUpdateMillis(),
        PLURAL,
        f.targetLists(),
        f.meanListMillis(),
        f.statusPatches(),
        f.otherRequests(),
        f.allRequests(),
        f.requestsPerSecond());
    out.say("  other requests by kind: %s", requests.busiest(kinds::other, 8));
    out.say(
        "conversion reviews the webhook server answered for the target: %.0f (%.0f objects, mean"
            + " %.2f ms)",
        f.reviews().reviews(), f.reviews().objects(), f.reviews().meanMillis());
    out.say(
        "CPU during the run: kube-apiserver %.1f s (%.2f cores), etcd %.1f s, operator %.1f s,"
            + " harness (webhook server, watches) %.1f s",
        f.cpu().apiserver(),
        f.cpu().apiserver() / f.wall(),
        f.cpu().etcd(),
        f.cpu().operator(),
        f.cpu().harness());
    out.say(
        "operator: %.0f config reconciles, %.0f status writes, %.0f events",
        delta(
            statsBefore,
            statsAfter,
            "reconciles",
            "reconciliations.started.total{" + CONFIG_CONTROLLER + "}"),
        delta(statsBefore, statsAfter, "writes", "status/success"),
        delta(statsBefore, statsAfter, "writes", "event/success"));
  }

  private static double delta(JsonNode before, JsonNode after, String group, String key) {
    return after.path(group).path(key).asDouble(0) - before.path(group).path(key).asDouble(0);
  }

  private void table(List<Outcome> outcomes) {
    out.say("");
    out.say(
        "================ storage migration of %d objects: runs ================",
        settings.objects());
    out.say(
        "%3s %5s %7s %7s %4s %7s %7s %6s %6s %4s %6s %4s %4s %5s %5s %6s %6s %6s %6s %s",
        "run",
        "rate",
        "[v2] s",
        "wall s",
        "runs",
        "obj/s",
        "obj/s h",
        "handld",
        "rewrit",
        "fail",
        "UPDATE",
        "409",
        "LIST",
        "PATCH",
        "other",
        "req/s",
        "upd ms",
        "api s",
        "op s",
        "verified");
    for (var o : outcomes) {
      if (!o.ok()) {
        out.say("%3d %5d FAILED: %s", o.run(), o.rate(), o.failure());
        continue;
      }
      var f = o.figures();
      out.say(
          "%3d %5d %7.2f %7.2f %4s %7.1f %7.1f %6d %6d %4d %6.0f %4.0f %4.0f %5.0f %5.0f %6.1f"
              + " %6.2f %6.1f %6.1f %d",
          o.run(),
          o.rate(),
          f.toPruned(),
          f.wall(),
          f.runs() + (f.laterRuns() > 0 ? "+" + f.laterRuns() : ""),
          f.statusRate(),
          f.harnessRate(settings.objects()),
          f.handled(),
          f.rewritten(),
          f.failed(),
          f.targetUpdates(),
          f.updateConflicts(),
          f.targetLists(),
          f.statusPatches(),
          f.otherRequests(),
          f.requestsPerSecond(),
          f.meanUpdateMillis(),
          f.cpu().apiserver(),
          f.cpu().operator(),
          o.verified());
    }
    out.say(
        "([v2] s: request -> storedVersions [v2]; wall s: request -> Succeeded seen (and [v2]);"
            + " runs: migration runs the status reported for the request (+ those started within"
            + " 2 s after); obj/s: handled / (finishedAt - startedAt) of the last run; obj/s h:"
            + " objects / [v2] s; UPDATE/409/LIST: of the target's objects; PATCH: config status;"
            + " req/s: all requests / wall s; upd ms: the apiserver's mean UPDATE; api s, op s:"
            + " CPU seconds of kube-apiserver and the operator; verified: read back at v2 after"
            + " v1 was removed)");
  }

  private void summary(List<Outcome> outcomes) {
    out.say("");
    out.say(
        "================ storage migration of %d objects: medians (min-max) per rate"
            + " ================",
        settings.objects());
    for (int rate : settings.rates()) {
      var all = outcomes.stream().filter(o -> o.rate() == rate).toList();
      var ok = all.stream().filter(Outcome::ok).map(Outcome::figures).toList();
      out.say("");
      out.say(
          "rate %d/s, page size %d: %d run(s), %d succeeded, %d failed",
          rate, settings.pageSize(), all.size(), ok.size(), all.size() - ok.size());
      if (ok.isEmpty()) {
        continue;
      }
      var twice = all.stream().filter(o -> o.ok() && o.figures().runs() > 1).toList();
      if (!twice.isEmpty()) {
        out.say(
            "  %d run(s) re-stored every object more than once for one request (run %s);"
                + " counted below as measured",
            twice.size(),
            twice.stream().map(o -> String.valueOf(o.run())).collect(Collectors.joining(", ")));
      }
      out.say("%-54s %9s %9s %9s  %s", "figure", "median", "min", "max", "unit");
      row("request -> storedVersions [v2]", ok, Figures::toPruned, "s");
      row("request -> Succeeded seen (and [v2])", ok, Figures::wall, "s");
      row("  request -> first migration state seen", ok, Figures::toRunning, "s");
      row("  status startedAt -> finishedAt (last run)", ok, Figures::statusSeconds, "s");
      row("migration runs per request", ok, Figures::runs, "");
      row("objects/s, handled / (finishedAt - startedAt)", ok, Figures::statusRate, "1/s");
      row("objects/s, objects / [v2] s (harness clock)", ok, f -> harness(f), "1/s");
      row("  of the configured rate (harness clock)", ok, f -> 100 * harness(f) / rate, "%");
      row("handled", ok, f -> f.handled(), "");
      row("  rewritten", ok, f -> f.rewritten(), "");
      row("  written meanwhile", ok, f -> f.writtenMeanwhile(), "");
      row("  failed", ok, f -> f.failed(), "");
      row("apiserver requests: UPDATE (PUT) " + PLURAL, ok, Figures::targetUpdates, "");
      row("  of which 409 Conflict", ok, Figures::updateConflicts, "");
      row("  LIST " + PLURAL, ok, Figures::targetLists, "");
      row("  PATCH crdconversionconfigs/status", ok, Figures::statusPatches, "");
      row("  everything else", ok, Figures::otherRequests, "");
      row("  all (watches left out)", ok, Figures::allRequests, "");
      row("  all per second of wall time", ok, Figures::requestsPerSecond, "1/s");
      row("  mean UPDATE served by the apiserver", ok, Figures::meanUpdateMillis, "ms");
      row("  mean LIST (one page) served by the apiserver", ok, Figures::meanListMillis, "ms");
      row("conversion reviews answered (webhook server)", ok, f -> f.reviews().reviews(), "");
      row("  objects in them", ok, f -> f.reviews().objects(), "");
      row("  mean review handled", ok, f -> f.reviews().meanMillis(), "ms");
      row("CPU during the run: kube-apiserver", ok, f -> f.cpu().apiserver(), "s");
      row("  kube-apiserver, cores", ok, f -> f.cpu().apiserver() / f.wall(), "cores");
      row("  etcd", ok, f -> f.cpu().etcd(), "s");
      row("  operator", ok, f -> f.cpu().operator(), "s");
      row("  harness (webhook server, watches)", ok, f -> f.cpu().harness(), "s");
      row("apiserver before the request", ok, Figures::idleApiserverCores, "cores");
    }
    out.say("=".repeat(96));
  }

  private double harness(Figures f) {
    return f.harnessRate(settings.objects());
  }

  private void row(String label, List<Figures> ok, ToDoubleFunction<Figures> figure, String unit) {
    var values = ok.stream().mapToDouble(figure).sorted().boxed().toList();
    out.say(
        "%-54s %9.2f %9.2f %9.2f  %s",
        label, median(values), values.getFirst(), values.getLast(), unit);
  }

  private static double median(List<Double> sorted) {
    int size = sorted.size();
    return size % 2 == 1
        ? sorted.get(size / 2)
        : (sorted.get(size / 2 - 1) + sorted.get(size / 2)) / 2;
  }

  private static long count(Long value) {
    return value == null ? 0 : value;
  }

  private static double seconds(long nanos) {
    return nanos / 1e9;
  }

  private static double loadAverage() {
    return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
  }
}
