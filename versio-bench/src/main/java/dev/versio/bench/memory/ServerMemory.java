package dev.versio.bench.memory;

import dev.versio.api.config.CRDConversionConfig;
import dev.versio.api.server.ConversionWebhookServer;
import dev.versio.bench.fleet.ParallelCreate;
import dev.versio.operator.OperatorOptions;
import dev.versio.operator.VersioOperator;
import dev.versio.testkit.ControlPlane;
import dev.versio.testkit.ControlPlaneAssets;
import dev.versio.testkit.Crds;
import dev.versio.testkit.fleet.Widgets;
import dev.versio.testkit.process.LoopbackPorts;
import dev.versio.testkit.process.ProcessLedger;
import dev.versio.testkit.process.Watchdog;
import dev.versio.testkit.tls.CertificateAuthority;
import dev.versio.webhook.sync.TargetCompiler;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.ToDoubleFunction;

/**
 * Memory of a real {@code versio webhook-server} process by the number of targets it serves: the
 * resident set (RSS) against the heap, to choose what share of a container's memory limit the heap
 * may take.
 *
 * <p>One run, on a fresh test control plane (kube-apiserver + etcd), with the operator in this JVM
 * (default options) and one default ConversionWebhookServer in URL mode whose only replica is a
 * child JVM started with the product launcher's JVM flags plus {@code -Xmx} and {@code
 * -XX:NativeMemoryTracking=summary}:
 *
 * <ol>
 *   <li>baseline: the replica is ready ({@code /readyz} 200) with no target;
 *   <li>for each target count N, ascending: the CRDs and configs up to N are created ({@link
 *       MemoryFixture}: three versions, nine rules), the operator points every CRD at the server,
 *       and the running replica serves all N ("grown": its gauge of servable targets and its
 *       served-target Leases both say N, every config is Applied); then it is stopped and a new
 *       replica is started that loads all N in its initial sync ("fresh", as a restarted Pod).
 * </ol>
 *
 * <p>Each measurement: ConversionReviews to every target in every direction ({@link
 * ReviewTraffic}), then {@code jcmd GC.run}, a pause, and {@code GC.heap_info}, {@code
 * VM.native_memory summary} and {@code /proc/<pid>/status}. The summary gives medians (min–max)
 * over the runs per N and kind of replica.
 *
 * <p>Usage: {@code ServerMemory [--targets 100,1000] [--runs 3] [--runs-largest R] [--xmx 512m]
 * [--jvm-args "ARGS"] [--reviews-per-target 3] [--min-reviews 300] [--objects 2] [--concurrency 16]
 * [--threads 4] [--settle-seconds 2] [--aot no|yes]}; {@code --aot yes}: the first replica of run 1
 * records an AOT cache (its figures stay out of the summary), every later replica starts with it;
 * {@code --runs-largest} measures the largest N in only the first R runs. The replica's classpath
 * is {@code -Dbench.server.classpath} (the CLI's runtime classpath), else this JVM's.
 */
public final class ServerMemory {
  private static final String SERVER = "bench";
  private static final String NAMESPACE = "versio-system";
  private static final String GROUP_SUFFIX = ".memory.bench.versio.dev";
  private static final double MIB = 1024.0; // readings are in KiB

  private final List<Integer> targets;
  private final int runs;
  private final int runsLargest;
  private final String xmx;
  private final List<String> jvmArgs;
  private final int reviewsPerTarget;
  private final int minReviews;
  private final int objects;
  private final int concurrency;
  private final int threads;
  private final Duration settle;
  private final boolean aot;
  private final int loadRate;
  private final Duration loadDuration;
  private final int loadInFlight;
  private final String serverClasspath;
  private final Path workRoot;
  private final List<Measurement> measurements = new ArrayList<>();
  private final List<LoadMeasurement> loads = new ArrayList<>();
  private final List<String> failures = new ArrayList<>();
  private final Path aotCache;
  private final Set<Long> recordingPids = new HashSet<>();

  /** What the summary groups readings by: the target count and the kind of replica. */
  private interface Grouped {
    int targets();

    String kind();
  }

  /** One reading of one replica. */
  record Measurement(
      int run,
      int targets,
      String kind,
      String pod,
      double secondsToServe,
      ReviewTraffic.Result traffic,
      JvmProbe.Reading reading)
      implements Grouped {}

  /** One replica under a sustained load, and its heap right after (no collection asked for). */
  record LoadMeasurement(
      int run, int targets, String kind, SustainedLoad.Result result, JvmProbe.Reading after)
      implements Grouped {}

  private ServerMemory(Map<String, String> flags) {
    var parsed = new TreeSet<Integer>();
    for (var t : flags.getOrDefault("targets", "100,1000").split(",")) {
      parsed.add(Integer.parseInt(t.trim().replace("_", "")));
    }
    this.targets = List.copyOf(parsed);
    this.runs = Integer.parseInt(flags.getOrDefault("runs", "3"));
    this.runsLargest = Integer.parseInt(flags.getOrDefault("runs-largest", String.valueOf(runs)));
    this.xmx = flags.getOrDefault("xmx", "512m");
    var extra = flags.getOrDefault("jvm-args", "").trim();
    this.jvmArgs = extra.isEmpty() ? List.of() : List.of(extra.split("\\s+"));
    this.reviewsPerTarget = Integer.parseInt(flags.getOrDefault("reviews-per-target", "3"));
    this.minReviews = Integer.parseInt(flags.getOrDefault("min-reviews", "300"));
    this.objects = Integer.parseInt(flags.getOrDefault("objects", "2"));
    this.concurrency = Integer.parseInt(flags.getOrDefault("concurrency", "16"));
    this.threads = Integer.parseInt(flags.getOrDefault("threads", "4"));
    this.settle = Duration.ofSeconds(Long.parseLong(flags.getOrDefault("settle-seconds", "2")));
    this.aot =
        switch (flags.getOrDefault("aot", "no")) {
          case "yes" -> true;
          case "no" -> false;
          default -> throw new IllegalArgumentException("--aot takes yes or no");
        };
    this.loadRate = Integer.parseInt(flags.getOrDefault("load-rate", "0"));
    this.loadDuration =
        Duration.ofSeconds(Long.parseLong(flags.getOrDefault("load-seconds", "30")));
    this.loadInFlight = Integer.parseInt(flags.getOrDefault("load-in-flight", "32"));
    this.serverClasspath =
        System.getProperty("bench.server.classpath", System.getProperty("java.class.path"));
    this.workRoot =
        Path.of("versio-bench/target/server-memory")
            .resolve(LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")))
            .toAbsolutePath();
    this.aotCache = workRoot.resolve("webhook-server.aot");
  }

  public static void main(String[] args) throws Exception {
    var known =
        Set.of(
            "targets",
            "runs",
            "runs-largest",
            "xmx",
            "jvm-args",
            "reviews-per-target",
            "min-reviews",
            "objects",
            "concurrency",
            "threads",
            "settle-seconds",
            "aot",
            "load-rate",
            "load-seconds",
            "load-in-flight");
    var flags = new LinkedHashMap<String, String>();
    for (int i = 0; i < args.length; i++) {
      var name = args[i].replaceFirst("^--", "");
      if (!known.contains(name) || i + 1 >= args.length) {
        System.err.println(
            "usage: ServerMemory [--targets 100,1000] [--runs 3] [--runs-largest R] [--xmx 512m]"
                + " [--jvm-args \"ARGS\"] [--reviews-per-target 3] [--min-reviews 300]"
                + " [--objects 2] [--concurrency 16] [--threads 4] [--settle-seconds 2]"
                + " [--aot no|yes] [--load-rate R] [--load-seconds S] [--load-in-flight K]");
        System.exit(2);
      }
      flags.put(name, args[++i]);
    }
    var bench = new ServerMemory(flags);
    bench.checkFixture();
    int failed = bench.runAll();
    System.exit(failed == 0 ? 0 : 1);
  }

  /** The fixture must compile, or every replica would hold error entries instead of plans. */
  private void checkFixture() {
    var outcome =
        new TargetCompiler()
            .compile(
                MemoryFixture.config(0).getSpec(),
                Serialization.asJson(MemoryFixture.crd(0)),
                false);
    if (outcome instanceof TargetCompiler.Outcome.Failed f) {
      throw new IllegalStateException("the memory fixture does not compile: " + f.message());
    }
  }

  private int runAll() throws Exception {
    say("# Versio webhook-server memory by served targets");
    say(
        "started %s; commit %s; targets %s; %d run(s)%s",
        LocalDateTime.now().truncatedTo(ChronoUnit.SECONDS),
        System.getProperty("bench.commit", "unknown"),
        targets,
        runs,
        runsLargest < runs
            ? String.format(Locale.ROOT, " (%d for %d targets)", runsLargest, targets.getLast())
            : "");
    say(
        "machine: %d cores, %.1f GiB RAM, Java %s; load average %.2f",
        Runtime.getRuntime().availableProcessors(),
        memTotalKiB() / MIB / MIB,
        System.getProperty("java.version"),
        loadAverage());
    say(
        "replica: `versio webhook-server` in its own JVM, flags: %s",
        String.join(" ", ServerProcess.jvmFlags(xmx, jvmArgs)));
    say(
        "target: %d-version CRD (hub %s) + 1 CRDConversionConfig with %d rules; traffic per"
            + " measurement: %d reviews per target (at least %d in all), %d objects each, %d"
            + " concurrent over HTTP/2; then jcmd GC.run and %d s before reading",
        MemoryFixture.VERSIONS.size(),
        MemoryFixture.HUB,
        MemoryFixture.ruleCount(),
        reviewsPerTarget,
        minReviews,
        objects,
        concurrency,
        settle.toSeconds());
    if (aot) {
      say(
          "AOT cache: recorded by the first replica of run 1 (start, grow to the first target"
              + " count, traffic, SIGTERM), then given to every later replica");
    }
    if (loadRate > 0) {
      say(
          "load: after each measurement with targets, %d reviews/s for %d s, open loop over one"
              + " HTTP/2 connection, at most %d in flight, %d objects each, round every target and"
              + " direction; the replica's VmRSS read every %d ms meanwhile",
          loadRate,
          loadDuration.toSeconds(),
          loadInFlight,
          objects,
          SustainedLoad.SAMPLE.toMillis());
    }
    say("sizes in MiB; non-heap = NMT committed total minus the Java heap's committed size");
    for (int r = 1; r <= runs; r++) {
      say("");
      say("## run %d of %d (load average %.2f)", r, runs, loadAverage());
      long start = System.nanoTime();
      try {
        runOnce(r);
      } catch (Exception e) {
        failures.add("run " + r + ": " + e);
        say("run %d FAILED: %s", r, e);
        e.printStackTrace();
      }
      say("run %d took %.0f s", r, (System.nanoTime() - start) / 1e9);
    }
    summary();
    return failures.size();
  }

  // ---------------------------------------------------------------------------------------------
  // one run

  private void runOnce(int run) throws Exception {
    var runDir = Files.createDirectories(workRoot.resolve("run-" + run));
    var ledgerFile = new ProcessLedger(ProcessLedger.defaultDirectory(), System.err::println);
    try (var cp = ControlPlane.start(ControlPlaneAssets.locate(), runDir, System.err::println);
        var client = cp.adminClient();
        var ledger = ledgerFile.open("server-memory-" + cp.id());
        var watchdog = Watchdog.start(ledger.file())) {
      say(
          "apiserver %s ready in %.1f s",
          client.getKubernetesVersion().getGitVersion(), cp.startupTime().toMillis() / 1000.0);
      installCluster(client);
      var tls = Files.createDirectories(runDir.resolve("tls"));
      var ca = CertificateAuthority.create("versio-server-memory");
      var cert = ca.issueServer("127.0.0.1", "localhost");
      Files.writeString(tls.resolve("tls.crt"), cert.certificatePem());
      Files.writeString(tls.resolve("tls.key"), cert.privateKeyPem());
      var ports = LoopbackPorts.distinct(2);
      int conversionPort = ports[0];
      int opsPort = ports[1];
      var url = "https://127.0.0.1:" + conversionPort;
      var server = Widgets.urlServer(SERVER, url, ca.material().certificateBase64());
      server.getSpec().isDefault = true;
      client.resource(server).create();
      var pods = new AtomicInteger();
      Replica replica =
          () -> {
            var pod = SERVER + "-" + pods.getAndIncrement();
            var flags = new ArrayList<>(jvmArgs);
            boolean recording = aot && !Files.exists(aotCache);
            if (recording) {
              flags.add("-XX:AOTCacheOutput=" + aotCache);
              say("%s records the AOT cache; it is not measured", pod);
            } else if (aot) {
              flags.add("-XX:AOTCache=" + aotCache);
            }
            var started =
                ServerProcess.start(
                    SERVER,
                    pod,
                    NAMESPACE,
                    tls,
                    conversionPort,
                    opsPort,
                    xmx,
                    flags,
                    serverClasspath,
                    cp.kubeconfig(),
                    runDir.resolve("logs").resolve(pod + ".log"),
                    ledger);
            if (recording) {
              recordingPids.add(started.pid());
            }
            return started;
          };
      var process = replica.start();
      try (var operatorClient = cp.adminClient();
          var operator =
              VersioOperator.start(
                  operatorClient,
                  // a lab: replicas are processes (URL mode), every CRD here is the lab's own
                  OperatorOptions.defaults(NAMESPACE).toBuilder()
                      .allowUrlMode(true)
                      .targetGroups(java.util.List.of("*"))
                      .build(),
                  Clock.systemUTC())) {
        double ready = process.awaitReady();
        if (run == 1) {
          var flags = JvmProbe.flags(process.pid());
          say(
              "replica JVM ergonomics: %s GC, InitialHeapSize %s, MaxHeapSize %s, MinHeapSize %s,"
                  + " ReservedCodeCacheSize %s, CICompilerCount %s",
              JvmProbe.collector(flags),
              mib(flags.get("InitialHeapSize")),
              mib(flags.get("MaxHeapSize")),
              mib(flags.get("MinHeapSize")),
              mib(flags.get("ReservedCodeCacheSize")),
              flags.get("CICompilerCount"));
        }
        say("%s ready in %.1f s with no target", process.pod(), ready);
        measure(run, 0, "baseline", process, ready, null);
        say(
            "server %s Available: %s (operator in this JVM, default options)",
            SERVER, awaitAvailable(client));
        int have = 0;
        var sizes = run <= runsLargest ? targets : targets.subList(0, targets.size() - 1);
        for (int n : sizes) {
          long t0 = System.nanoTime();
          createTargets(client, have, n);
          have = n;
          double served = awaitServing(client, process, n, url, true, t0);
          say(
              "%s serves %d targets (gauge, Leases, all configs Applied) %.1f s after the first"
                  + " create",
              process.pod(), n, served);
          measure(run, n, "grown", process, served, traffic(url, ca, n));
          load(run, n, "grown", process, url, ca);
          process.close();
          if (recordingPids.contains(process.pid()) && !Files.exists(aotCache)) {
            throw new IllegalStateException(
                process.pod() + " stopped without writing the AOT cache " + aotCache);
          }
          process = replica.start();
          double readyAgain = process.awaitReady();
          awaitServing(client, process, n, url, false, System.nanoTime());
          double servedAgain = process.uptimeSeconds();
          say(
              "%s (fresh) ready in %.1f s, serves %d targets %.1f s after its start",
              process.pod(), readyAgain, n, servedAgain);
          measure(run, n, "fresh", process, servedAgain, traffic(url, ca, n));
          load(run, n, "fresh", process, url, ca);
        }
      } finally {
        process.close();
      }
      runTable(run);
    }
  }

  private interface Replica {
    ServerProcess start() throws IOException;
  }

  private ReviewTraffic.Result traffic(String url, CertificateAuthority ca, int n)
      throws InterruptedException {
    var result =
        ReviewTraffic.send(
            url, ca.trustingContext(), n, reviewsPerTarget, minReviews, objects, concurrency);
    say(
        "  traffic: %d reviews to %d targets in %.1f s, %d ok%s",
        result.sent(),
        n,
        result.seconds(),
        result.ok(),
        result.failures().isEmpty() ? "" : ", failed: " + result.failures());
    if (result.ok() != result.sent()) {
      throw new IllegalStateException(
          (result.sent() - result.ok()) + " reviews failed: " + result.failures());
    }
    return result;
  }

  private void measure(
      int run,
      int n,
      String kind,
      ServerProcess process,
      double secondsToServe,
      ReviewTraffic.Result traffic)
      throws Exception {
    process.checkAlive();
    if (recordingPids.contains(process.pid())) {
      // a JVM recording an AOT cache has no mapped archive, and Temurin 25.0.3 crashes reading
      // its native memory summary (FileMapInfo::readonly_total); it is not a replica to measure
      say("  %-8s N=%-5d not measured: it records the AOT cache", kind, n);
      return;
    }
    JvmProbe.fullGc(process.pid());
    Thread.sleep(settle.toMillis()); // let the collector give memory back before reading
    var reading = JvmProbe.read(process.pid());
    var m = new Measurement(run, n, kind, process.pod(), secondsToServe, traffic, reading);
    measurements.add(m);
    say(
        "  %-8s N=%-5d heap used %.1f, committed %.1f; NMT committed %.1f (non-heap %.1f, of"
            + " which NMT itself %.1f); RSS %.1f (anon %.1f, file %.1f), RSS - heap committed %.1f;"
            + " peak RSS %.1f; %d threads",
        kind,
        n,
        reading.heapUsedKiB() / MIB,
        reading.heapCommittedKiB() / MIB,
        reading.nmtCommittedKiB() / MIB,
        reading.nonHeapCommittedKiB() / MIB,
        reading.nmtSelfKiB() / MIB,
        reading.rssKiB() / MIB,
        reading.rssAnonKiB() / MIB,
        reading.rssFileKiB() / MIB,
        (reading.rssKiB() - reading.heapCommittedKiB()) / MIB,
        reading.peakRssKiB() / MIB,
        reading.threads());
    var parts = new ArrayList<String>();
    reading
        .nmtCommittedByCategory()
        .forEach(
            (category, kib) -> {
              if (kib >= 512) {
                parts.add(String.format(Locale.ROOT, "%s %.1f", category, kib / MIB));
              }
            });
    say("  NMT committed: %s", String.join(" · ", parts));
  }

  /**
   * With {@code --load-rate}: the replica's resident set while it converts at that rate, then its
   * heap and native memory right after (no collection asked for). Failed or wrong reviews fail the
   * run.
   */
  private void load(
      int run, int n, String kind, ServerProcess process, String url, CertificateAuthority ca)
      throws Exception {
    if (loadRate <= 0 || recordingPids.contains(process.pid())) {
      return;
    }
    process.checkAlive();
    var result =
        SustainedLoad.run(
            url,
            ca.trustingContext(),
            process.pid(),
            n,
            objects,
            loadRate,
            loadDuration,
            loadInFlight);
    var after = JvmProbe.read(process.pid());
    var load = result.load();
    loads.add(new LoadMeasurement(run, n, kind, result, after));
    say(
        "  %-8s N=%-5d under %d/s for %d s: %d of %d answered (%.0f/s), failed %s, sent late %d;"
            + " latency p50 %.2f, p99 %.2f, max %.2f ms; RSS during the load max %.1f, median"
            + " %.1f (%d readings); after it: RSS %.1f, heap used %.1f of %.1f committed, non-heap"
            + " %.1f",
        kind,
        n,
        loadRate,
        loadDuration.toSeconds(),
        load.answered(),
        load.scheduled(),
        load.answeredPerSecond(),
        load.errors().isEmpty() ? "0" : load.errors() + " " + result.wrong(),
        load.late(),
        load.latencyMillis(0.5),
        load.latencyMillis(0.99),
        load.latencyMillis(1.0),
        result.maxRssKiB() / MIB,
        result.medianRssKiB() / MIB,
        result.rssSamplesKiB().length,
        after.rssKiB() / MIB,
        after.heapUsedKiB() / MIB,
        after.heapCommittedKiB() / MIB,
        after.nonHeapCommittedKiB() / MIB);
    if (load.failed() > 0) {
      throw new IllegalStateException(
          load.failed() + " reviews of the load failed: " + load.errors() + " " + result.wrong());
    }
  }

  // ---------------------------------------------------------------------------------------------
  // cluster

  private static void installCluster(KubernetesClient client) throws IOException {
    Crds.applyVersioCrds(client);
    client
        .namespaces()
        .resource(
            new NamespaceBuilder().withNewMetadata().withName(NAMESPACE).endMetadata().build())
        .serverSideApply();
  }

  /** Creates targets {@code from..to-1}: their CRDs, until Established, then their configs. */
  private void createTargets(KubernetesClient client, int from, int to) throws Exception {
    long t0 = System.nanoTime();
    var errors =
        ParallelCreate.range(
            from, to, threads, i -> client.resource(MemoryFixture.crd(i)).create());
    long sent = System.nanoTime();
    long deadline = System.nanoTime() + Duration.ofSeconds(Math.max(300, to)).toNanos();
    int established = 0;
    while (System.nanoTime() < deadline) {
      established = 0;
      for (var crd : client.apiextensions().v1().customResourceDefinitions().list().getItems()) {
        if (crd.getSpec().getGroup().endsWith(GROUP_SUFFIX)
            && crd.getStatus() != null
            && crd.getStatus().getConditions() != null
            && crd.getStatus().getConditions().stream()
                .anyMatch(c -> "Established".equals(c.getType()) && "True".equals(c.getStatus()))) {
          established++;
        }
      }
      if (established >= to) {
        break;
      }
      Thread.sleep(1000); // polling the cluster
    }
    long crdsDone = System.nanoTime();
    if (!errors.isEmpty() || established < to) {
      throw new IllegalStateException(
          "CRDs: "
              + errors.size()
              + " create errors (first: "
              + errors.stream().findFirst().orElse("-")
              + "), "
              + established
              + " of "
              + to
              + " Established");
    }
    var configErrors =
        ParallelCreate.range(
            from, to, threads, i -> client.resource(MemoryFixture.config(i)).create());
    if (!configErrors.isEmpty()) {
      throw new IllegalStateException(
          configErrors.size() + " config create errors, first: " + configErrors.getFirst());
    }
    say(
        "created targets %d..%d: %d CRDs sent in %.1f s, all Established after %.1f s; configs"
            + " sent in %.1f s",
        from,
        to - 1,
        to - from,
        (sent - t0) / 1e9,
        (crdsDone - t0) / 1e9,
        (System.nanoTime() - crdsDone) / 1e9);
  }

  /**
   * Waits until the replica serves exactly {@code n} targets by its own gauge and by its Leases
   * (and, with {@code applied}, every config is Applied pointing at {@code url}); returns the
   * seconds since {@code since}.
   */
  private double awaitServing(
      KubernetesClient client,
      ServerProcess process,
      int n,
      String url,
      boolean applied,
      long since)
      throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(Math.max(300, n / 2)).toNanos();
    long nextReport = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    String state = "";
    while (System.nanoTime() < deadline) {
      process.checkAlive();
      long servable = process.servable();
      long failing = process.failing();
      if (failing > 0) {
        throw new IllegalStateException(
            process.pod() + " holds " + failing + " targets that do not compile");
      }
      int leased = servable == n ? process.leasedTargets(client, NAMESPACE) : -1;
      int appliedCount = -1;
      if (applied && leased == n) {
        appliedCount = 0;
        for (var config : client.resources(CRDConversionConfig.class).list().getItems()) {
          var status = config.getStatus();
          if (status != null
              && "Applied".equals(status.phase)
              && status.webhookURL != null
              && status.webhookURL.startsWith(url + "/")) {
            appliedCount++;
          }
        }
      }
      state =
          String.format(
              Locale.ROOT,
              "servable %d, in Leases %d%s",
              servable,
              leased,
              applied ? ", Applied " + appliedCount : "");
      if (servable == n && leased == n && (!applied || appliedCount == n)) {
        return (System.nanoTime() - since) / 1e9;
      }
      if (System.nanoTime() > nextReport) {
        say("  waiting for %s to serve %d targets: %s", process.pod(), n, state);
        nextReport = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      }
      Thread.sleep(applied ? 2000 : 250); // polling the replica and the cluster
    }
    throw new IllegalStateException(
        process.pod() + " does not serve " + n + " targets in time: " + state);
  }

  private static boolean awaitAvailable(KubernetesClient client) {
    try {
      client
          .resources(ConversionWebhookServer.class)
          .withName(SERVER)
          .waitUntilCondition(
              s ->
                  s != null
                      && s.getStatus() != null
                      && s.getStatus().conditions.stream()
                          .anyMatch(
                              c -> "Available".equals(c.getType()) && "True".equals(c.getStatus())),
              60,
              java.util.concurrent.TimeUnit.SECONDS);
      return true;
    } catch (RuntimeException e) {
      return false;
    }
  }

  // ---------------------------------------------------------------------------------------------
  // report

  private static final String ROW_FORMAT = "%-4s %6s  %-8s %9s %9s %9s %9s %9s %9s %9s %7s %8s";

  private void runTable(int run) {
    say("");
    say("run %d (MiB):", run);
    header();
    for (var m : measurements) {
      if (m.run() != run) {
        continue;
      }
      var r = m.reading();
      say(
          ROW_FORMAT,
          run,
          m.targets(),
          m.kind(),
          f(r.heapUsedKiB() / MIB),
          f(r.heapCommittedKiB() / MIB),
          f(r.nonHeapCommittedKiB() / MIB),
          f(r.nmtCommittedKiB() / MIB),
          f(r.rssKiB() / MIB),
          f((r.rssKiB() - r.heapCommittedKiB()) / MIB),
          f(r.peakRssKiB() / MIB),
          r.threads(),
          f(m.secondsToServe()));
    }
  }

  private void header() {
    say(
        ROW_FORMAT,
        "run",
        "N",
        "replica",
        "heapUsed",
        "heapComm",
        "nonHeap",
        "nmtTotal",
        "RSS",
        "RSS-heap",
        "peakRSS",
        "threads",
        "serve s");
  }

  private void summary() {
    say("");
    say(
        "================ webhook-server memory: medians (min-max) over runs, MiB ================");
    say(
        "runs: %d; measurements: %d; failures: %d%s",
        runs, measurements.size(), failures.size(), failures.isEmpty() ? "" : " " + failures);
    if (measurements.isEmpty()) {
      return;
    }
    var groups = byTargetsAndKind(measurements);
    var columns = new LinkedHashMap<String, ToDoubleFunction<Measurement>>();
    columns.put("heap used", m -> m.reading().heapUsedKiB() / MIB);
    columns.put("heap committed", m -> m.reading().heapCommittedKiB() / MIB);
    columns.put("non-heap (NMT)", m -> m.reading().nonHeapCommittedKiB() / MIB);
    columns.put("RSS", m -> m.reading().rssKiB() / MIB);
    columns.put(
        "RSS - heap comm.", m -> (m.reading().rssKiB() - m.reading().heapCommittedKiB()) / MIB);
    columns.put("peak RSS", m -> m.reading().peakRssKiB() / MIB);
    columns.put("threads", m -> m.reading().threads());
    table(groups, columns);
    say("");
    say(
        "NMT committed by category, median (min-max), MiB (categories of at least 0.5 MiB anywhere):");
    var categories = new LinkedHashSet<String>();
    measurements.forEach(
        m ->
            m.reading()
                .nmtCommittedByCategory()
                .forEach(
                    (c, kib) -> {
                      if (kib >= 512) {
                        categories.add(c);
                      }
                    }));
    var catHead = new StringBuilder(String.format(Locale.ROOT, "%-24s", "category"));
    groups.keySet().forEach(k -> catHead.append(String.format(Locale.ROOT, " %-19s", k)));
    say("%s", catHead.toString().stripTrailing());
    for (var category : categories) {
      var row = new StringBuilder(String.format(Locale.ROOT, "%-24s", category));
      groups
          .values()
          .forEach(
              list ->
                  row.append(
                      String.format(
                          Locale.ROOT,
                          " %-19s",
                          cell(
                              list,
                              m ->
                                  m.reading().nmtCommittedByCategory().getOrDefault(category, 0L)
                                      / MIB))));
      say("%s", row.toString().stripTrailing());
    }
    var total = new StringBuilder(String.format(Locale.ROOT, "%-24s", "Total (NMT committed)"));
    groups
        .values()
        .forEach(
            list ->
                total.append(
                    String.format(
                        Locale.ROOT,
                        " %-19s",
                        cell(list, m -> m.reading().nmtCommittedKiB() / MIB))));
    say("%s", total.toString().stripTrailing());
    if (!loads.isEmpty()) {
      loadSummary();
    }
    say("=".repeat(96));
  }

  private void loadSummary() {
    say("");
    say(
        "under %d reviews/s for %d s: medians (min-max) over runs; MiB and ms",
        loadRate, loadDuration.toSeconds());
    var groups = byTargetsAndKind(loads);
    var columns = new LinkedHashMap<String, ToDoubleFunction<LoadMeasurement>>();
    columns.put("RSS max in load", m -> m.result().maxRssKiB() / MIB);
    columns.put("RSS median in load", m -> m.result().medianRssKiB() / MIB);
    columns.put("heap comm. after", m -> m.after().heapCommittedKiB() / MIB);
    columns.put("non-heap after", m -> m.after().nonHeapCommittedKiB() / MIB);
    columns.put("p50", m -> m.result().load().latencyMillis(0.5));
    columns.put("p99", m -> m.result().load().latencyMillis(0.99));
    columns.put("failed", m -> m.result().load().failed());
    table(groups, columns);
  }

  /** The readings in summary order (by target count, then kind), grouped by both. */
  private static <T extends Grouped> Map<String, List<T>> byTargetsAndKind(List<T> items) {
    var groups = new LinkedHashMap<String, List<T>>();
    items.stream()
        .sorted(
            (a, b) ->
                a.targets() != b.targets()
                    ? Integer.compare(a.targets(), b.targets())
                    : Integer.compare(order(a.kind()), order(b.kind())))
        .forEach(
            m ->
                groups
                    .computeIfAbsent(m.targets() + " " + m.kind(), k -> new ArrayList<>())
                    .add(m));
    return groups;
  }

  /** One row per group: target count, kind, runs, then each column's median (min-max). */
  private <T extends Grouped> void table(
      Map<String, List<T>> groups, Map<String, ToDoubleFunction<T>> columns) {
    var head =
        new StringBuilder(String.format(Locale.ROOT, "%6s %-8s %4s", "N", "replica", "runs"));
    columns.keySet().forEach(c -> head.append(String.format(Locale.ROOT, " %-19s", c)));
    say("%s", head.toString().stripTrailing());
    groups.forEach(
        (key, list) -> {
          var first = list.getFirst();
          var row =
              new StringBuilder(
                  String.format(
                      Locale.ROOT, "%6d %-8s %4d", first.targets(), first.kind(), list.size()));
          columns
              .values()
              .forEach(c -> row.append(String.format(Locale.ROOT, " %-19s", cell(list, c))));
          say("%s", row.toString().stripTrailing());
        });
  }

  private static int order(String kind) {
    return switch (kind) {
      case "baseline" -> 0;
      case "grown" -> 1;
      default -> 2;
    };
  }

  private static <T> String cell(List<T> list, ToDoubleFunction<T> figure) {
    var values = list.stream().mapToDouble(figure).sorted().toArray();
    int k = values.length;
    double median = k % 2 == 1 ? values[k / 2] : (values[k / 2 - 1] + values[k / 2]) / 2;
    if (k == 1) {
      return f(median);
    }
    return f(median) + " (" + f(values[0]) + "-" + f(values[k - 1]) + ")";
  }

  private static String f(double value) {
    return String.format(Locale.ROOT, "%.1f", value);
  }

  private static String mib(String bytes) {
    if (bytes == null) {
      return "?";
    }
    return String.format(Locale.ROOT, "%.0f MiB", Long.parseLong(bytes) / 1048576.0);
  }

  private static long memTotalKiB() {
    try {
      for (var line : Files.readAllLines(Path.of("/proc/meminfo"))) {
        if (line.startsWith("MemTotal:")) {
          return Long.parseLong(line.replaceAll("\\D+", ""));
        }
      }
    } catch (IOException e) {
      // not Linux
    }
    return -1;
  }

  private static double loadAverage() {
    return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
  }

  private void say(String format, Object... args) {
    var line = args.length == 0 ? format : String.format(Locale.ROOT, format, args);
    System.out.println(line);
    System.out.flush();
  }
}
