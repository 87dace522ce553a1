package dev.versio.bench.operator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.versio.api.config.CRDConversionConfig;
import dev.versio.api.server.ConversionWebhookServer;
import dev.versio.bench.fleet.ParallelCreate;
import dev.versio.bench.handover.LoopbackBalancer;
import dev.versio.testkit.ControlPlane;
import dev.versio.testkit.ControlPlaneAssets;
import dev.versio.testkit.Crds;
import dev.versio.testkit.tls.CertificateAuthority;
import dev.versio.webhook.WebhookServer;
import dev.versio.webhook.WebhookServerOptions;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The operator at scale, against the real test apiserver: {@code n} distinct two-version CRDs (one
 * API group each), one CRDConversionConfig each, all served by one default ConversionWebhookServer
 * in URL mode whose webhook server runs in this JVM. The operator runs with {@code
 * OperatorOptions.defaults} in its own JVM ({@link OperatorProcess}), so its heap, CPU and metrics
 * are its own; this JVM holds the control plane client, the webhook server and the watches that
 * time everything.
 *
 * <p>One run, each on a fresh control plane:
 *
 * <ol>
 *   <li>Versio's CRDs, the webhook server, the default server; the operator starts and the server
 *       becomes Available.
 *   <li>CRD phase: the {@code n} CRDs are created ({@code --threads} at a time); timed from the
 *       first create to the last Established.
 *   <li>Config phase: the {@code n} configs are created right after; timed until every config
 *       reports {@code status.phase: Applied}, from the last CRD Established and from the first
 *       config create.
 *   <li>Settle: until the operator has neither reconciled nor written for 5 s; then its reconciles
 *       and writes during the config phase per config, its peak heap and its live heap after full
 *       collections, and a check that every CRD points at the webhook server.
 * </ol>
 *
 * <p>{@code --cold} is the other case: the configs are created while the operator is down (after
 * one earlier start made the server Available), then the operator starts; timed from the start of
 * its JVM.
 *
 * <p>{@code --pool-change} adds a last phase: a second server joins the sharding pool (the default
 * joins it first, which moves nothing), with its own webhook server in this JVM publishing what it
 * serves; timed from the new server's create until every target it wins points at it, each move
 * through the operator's handover gate (counted by the reason of {@code HandoverReady}). It reports
 * the CPU seconds of every process during the change and how many target CRDs were written.
 *
 * <p>{@code --front} puts both servers behind one shared front ({@code --front-url}: a loopback
 * balancer over both servers' listeners, each server forwarding reviews for targets it does not
 * hold): the targets name the front once, and the pool change is done when every target the new
 * server wins is served by it ({@code status.servedBy}), with no CRD written; the run also prints
 * when the old server began passing every moved target's reviews to the new one.
 *
 * <p>A config that is not Applied within the timeout fails the run; a failed run is reported as
 * such and never counted as a time.
 *
 * <p>Usage: {@code OperatorScale <n> [--runs R] [--threads T] [--operator-xmx 512m]
 * [--operator-jvm-args "ARGS"] [--timeout-seconds S] [--cold] [--operator-jfr] [--pool-change]
 * [--front] [--out FILE]}; {@code --operator-jfr} records a JFR profile of the operator JVM next to
 * the control plane's logs.
 */
public final class OperatorScale {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String CONFIG_CONTROLLER = "crdconversionconfig";
  private static final String SERVER_CONTROLLER = "conversionwebhookserver";

  private final int n;
  private final int runs;
  private final int threads;
  private final String operatorXmx;
  private final Duration timeout;
  private final boolean cold;
  private final boolean poolChange;
  private final boolean front;
  private final boolean jfr;
  private final List<String> operatorJvmArgs;
  private final Path out;
  private final Path workRoot = Path.of("versio-bench/target/operator-scale").toAbsolutePath();
  private PrintWriter raw;

  private OperatorScale(Map<String, String> flags, int n) {
    this.n = n;
    this.runs = Integer.parseInt(flags.getOrDefault("runs", "1"));
    this.threads = Integer.parseInt(flags.getOrDefault("threads", "4"));
    this.operatorXmx = flags.getOrDefault("operator-xmx", "512m");
    this.timeout =
        Duration.ofSeconds(
            Long.parseLong(
                flags.getOrDefault("timeout-seconds", String.valueOf(Math.max(180, n / 2)))));
    this.cold = flags.containsKey("cold");
    this.poolChange = flags.containsKey("pool-change");
    this.front = flags.containsKey("front");
    this.jfr = flags.containsKey("operator-jfr");
    var jvmArgs = flags.getOrDefault("operator-jvm-args", "").trim();
    this.operatorJvmArgs = jvmArgs.isEmpty() ? List.of() : List.of(jvmArgs.split("\\s+"));
    this.out = flags.containsKey("out") ? Path.of(flags.get("out")) : null;
  }

  public static void main(String[] args) throws Exception {
    if (args.length < 1) {
      System.err.println(
          "usage: OperatorScale <n> [--runs R] [--threads T] [--operator-xmx 512m]"
              + " [--operator-jvm-args \"ARGS\"] [--timeout-seconds S] [--cold] [--operator-jfr]"
              + " [--pool-change] [--front]"
              + " [--out FILE]");
      System.exit(2);
    }
    var flags = new LinkedHashMap<String, String>();
    for (int i = 1; i < args.length; i++) {
      var name = args[i].replaceFirst("^--", "");
      if (name.equals("cold")
          || name.equals("operator-jfr")
          || name.equals("pool-change")
          || name.equals("front")) {
        flags.put(name, "true");
      } else {
        flags.put(name, args[++i]);
      }
    }
    var bench = new OperatorScale(flags, Integer.parseInt(args[0]));
    int failed = bench.runAll();
    System.exit(failed == 0 ? 0 : 1);
  }

  private int runAll() throws Exception {
    if (out != null) {
      Files.createDirectories(out.toAbsolutePath().getParent());
      raw =
          new PrintWriter(
              Files.newBufferedWriter(
                  out,
                  StandardCharsets.UTF_8,
                  StandardOpenOption.CREATE,
                  StandardOpenOption.TRUNCATE_EXISTING),
              true);
    }
    say("# Versio operator scale run");
    say(
        "started %s; commit %s; %d CRDs x 1 CRDConversionConfig; %d run(s); mode %s; %d concurrent"
            + " creates; operator JVM -Xmx%s%s; config timeout %d s",
        LocalDateTime.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS),
        System.getProperty("bench.commit", "unknown"),
        n,
        runs,
        cold ? "cold (configs created while the operator is down)" : "running operator",
        threads,
        operatorXmx,
        operatorJvmArgs.isEmpty() ? "" : " " + String.join(" ", operatorJvmArgs),
        timeout.toSeconds());
    say(
        "machine: %d cores, Java %s, operator options: defaults (fan-out 50/s, %d reconcile"
            + " threads, no admission)%s",
        Runtime.getRuntime().availableProcessors(),
        System.getProperty("java.version"),
        OperatorProcess.reconcileThreads(operatorJvmArgs),
        operatorJvmArgs.isEmpty() ? "" : "; operator JVM flags " + operatorJvmArgs);
    var results = new ArrayList<Result>();
    for (int r = 1; r <= runs; r++) {
      say("");
      say("## run %d of %d (load average %.2f)", r, runs, loadAverage());
      Result result;
      try {
        result = runOnce();
      } catch (Exception e) {
        result = Result.failed("run aborted: " + e);
        e.printStackTrace();
      }
      results.add(result);
      say("run %d: %s", r, result.ok() ? "OK" : "FAILED (" + result.failure + ")");
    }
    summary(results);
    if (raw != null) {
      raw.close();
    }
    return (int) results.stream().filter(r -> !r.ok()).count();
  }

  // ---------------------------------------------------------------------------------------------
  // one run

  private Result runOnce() throws Exception {
    var result = new Result();
    var runDir = Files.createDirectories(workRoot);
    try (var cp = ControlPlane.start(ControlPlaneAssets.locate(), runDir, System.err::println);
        var client = cp.adminClient()) {
      say(
          "apiserver %s ready in %d ms",
          client.getKubernetesVersion().getGitVersion(), cp.startupTime().toMillis());
      installVersioCrds(client);
      var certDir = Files.createDirectories(cp.directory().resolve("bench-webhook-tls"));
      var ca = CertificateAuthority.create("versio-operator-bench");
      var cert = ca.issueServer("127.0.0.1", "localhost");
      Files.writeString(certDir.resolve("tls.crt"), cert.certificatePem());
      Files.writeString(certDir.resolve("tls.key"), cert.privateKeyPem());
      Files.writeString(certDir.resolve("ca.crt"), ca.material().certificatePem());
      createSystemNamespace(client);
      // behind the front: both servers' ports are known up front, the joining one out of rotation
      // until it runs (a Service leaves out pods that are not ready)
      int benchPort = front ? freePort() : 0;
      int joiningPort = front ? freePort() : 0;
      var balancer = front ? LoopbackBalancer.start(List.of(benchPort, joiningPort)) : null;
      if (balancer != null) {
        balancer.outOfRotation(joiningPort, true);
      }
      var webhookClient = cp.adminClient();
      try (var webhook =
              startServer(webhookClient, ScaleFixtures.SERVER, certDir, benchPort, front);
          var watches = new Watches(client)) {
        var serverUrl = "https://127.0.0.1:" + webhook.conversionPort();
        // what every target names: the front, or the server's own listener
        var url = balancer != null ? "https://127.0.0.1:" + balancer.port() : serverUrl;
        client
            .resource(ScaleFixtures.defaultUrlServer(serverUrl, ca.material().certificateBase64()))
            .create();
        var kubeconfig = cp.kubeconfig();
        var frontUrl = balancer != null ? url : null;
        OperatorJvm operator;
        if (cold) {
          try (var first =
              OperatorJvm.start(
                  kubeconfig,
                  operatorXmx,
                  List.of(),
                  cp.directory(),
                  "operator-0",
                  false,
                  frontUrl)) {
            awaitServerAvailable(client);
            first.quit();
          }
          say("operator started once and stopped: server %s is Available", ScaleFixtures.SERVER);
          operator = null;
        } else {
          operator =
              OperatorJvm.start(
                  kubeconfig,
                  operatorXmx,
                  operatorJvmArgs,
                  cp.directory(),
                  "operator",
                  jfr,
                  frontUrl);
          say("operator ready in %d ms (its own JVM)", operator.startMillis());
          awaitServerAvailable(client);
          say("server %s is Available", ScaleFixtures.SERVER);
        }
        try {
          JsonNode before = null;
          if (operator != null) {
            operator.command("reset");
            before = operator.command("stats");
          }
          // CRD phase
          var cpuCrdStart = LabCpu.of(cp, operator == null ? -1 : operator.pid());
          long crdStart = System.nanoTime();
          var crdErrors =
              ParallelCreate.range(
                  0, n, threads, i -> client.resource(ScaleFixtures.widgetCrd(i)).create());
          long crdCreatesDone = System.nanoTime();
          boolean allEstablished =
              watches.awaitEstablished(n, Duration.ofSeconds(Math.max(300, n)));
          long lastEstablished = watches.lastEstablished();
          result.crdCpu = LabCpu.of(cp, operator == null ? -1 : operator.pid()).minus(cpuCrdStart);
          result.crdCreateRequests = seconds(crdCreatesDone - crdStart);
          result.crdEstablished = seconds(lastEstablished - crdStart);
          say(
              "CRD phase: %d creates sent in %.2f s (%d errors); %d of %d Established, the last"
                  + " %.2f s after the first create",
              n,
              result.crdCreateRequests,
              crdErrors.size(),
              watches.established.size(),
              n,
              result.crdEstablished);
          say("  CPU during the CRD phase: %s", result.crdCpu);
          if (!crdErrors.isEmpty() || !allEstablished) {
            crdErrors.stream().limit(5).forEach(e -> say("  CRD error: %s", e));
            return result.fail(
                "CRD phase: "
                    + crdErrors.size()
                    + " create errors, "
                    + (n - watches.established.size())
                    + " not Established");
          }
          // config phase
          var cpuBefore = LabCpu.of(cp, operator == null ? -1 : operator.pid());
          long configStart = System.nanoTime();
          int crdUpdatesBefore = watches.crdUpdates.get();
          var configErrors =
              ParallelCreate.range(
                  0,
                  n,
                  threads,
                  i -> {
                    watches.created.put(ScaleFixtures.configName(i), System.nanoTime());
                    client.resource(ScaleFixtures.renameConfig(i)).create();
                  });
          long configCreatesDone = System.nanoTime();
          say(
              "config phase: %d creates sent in %.2f s (%d errors), %.3f s after the last CRD was"
                  + " Established",
              n,
              seconds(configCreatesDone - configStart),
              configErrors.size(),
              seconds(configStart - lastEstablished));
          long operatorStart = 0;
          if (cold) {
            operatorStart = System.nanoTime();
            operator =
                OperatorJvm.start(
                    kubeconfig,
                    operatorXmx,
                    operatorJvmArgs,
                    cp.directory(),
                    "operator",
                    jfr,
                    frontUrl);
            say(
                "operator ready in %d ms (its own JVM), started after the configs",
                operator.startMillis());
          }
          boolean allApplied = watches.awaitApplied(n, timeout);
          long lastApplied = watches.lastApplied();
          var atApplied = operator.command("stats");
          var cpuAtApplied = LabCpu.of(cp, operator == null ? -1 : operator.pid());
          result.configCreateRequests = seconds(configCreatesDone - configStart);
          if (!allApplied || !configErrors.isEmpty()) {
            configErrors.stream().limit(5).forEach(e -> say("  config error: %s", e));
            say(
                "NOT all Applied after %d s: %d of %d Applied; phases now: %s",
                timeout.toSeconds(), watches.applied.size(), n, watches.phaseCounts());
            return result.fail(
                (n - watches.applied.size()) + " of " + n + " configs not Applied in time");
          }
          result.fromEstablished = seconds(lastApplied - lastEstablished);
          result.fromFirstCreate = seconds(lastApplied - configStart);
          if (cold) {
            result.fromOperatorStart = seconds(lastApplied - operatorStart);
          }
          var latencies = watches.latenciesSeconds();
          result.latencyP50 = percentile(latencies, 50);
          result.latencyP99 = percentile(latencies, 99);
          result.latencyMax = latencies.getLast();
          say(
              "all %d configs Applied: %.2f s after the last CRD Established, %.2f s after the"
                  + " first config create%s",
              n,
              result.fromEstablished,
              result.fromFirstCreate,
              cold
                  ? String.format(
                      Locale.ROOT,
                      ", %.2f s after the operator JVM started",
                      result.fromOperatorStart)
                  : "");
          say(
              "per config, create -> Applied: p50 %.2f s, p99 %.2f s, max %.2f s; phases seen"
                  + " before Applied: %s",
              result.latencyP50,
              result.latencyP99,
              result.latencyMax,
              watches.phasesBeforeApplied());
          // settle
          long settleStart = System.nanoTime();
          var settled = settle(operator, Duration.ofSeconds(5), Duration.ofSeconds(90));
          say(
              "operator quiet (no reconcile, no write for 5 s) %.1f s after the last Applied",
              seconds(settled.quietSince - lastApplied));
          var after = settled.stats;
          long live = operator.command("gc").path("liveHeapBytes").asLong();
          result.record(before, atApplied, after, live, n);
          result.cpu = cpuAtApplied.minus(cpuBefore);
          result.settleSeconds = seconds(System.nanoTime() - settleStart);
          result.configUpdates = watches.configUpdates.get() / (double) n;
          result.serverStatusUpdates = watches.serverUpdates.get();
          result.crdUpdatesInConfigPhase = watches.crdUpdates.get() - crdUpdatesBefore;
          result.report(this, n);
          // every CRD points at the server
          int pointing = 0;
          for (var crd :
              client.apiextensions().v1().customResourceDefinitions().list().getItems()) {
            var conversion = crd.getSpec().getConversion();
            if (crd.getSpec().getGroup().endsWith(".bench.versio.dev")
                && conversion != null
                && "Webhook".equals(conversion.getStrategy())
                && conversion
                    .getWebhook()
                    .getClientConfig()
                    .getUrl()
                    .startsWith(url + "/convert/")) {
              pointing++;
            }
          }
          say(
              "check: %d of %d CRDs convert through %s",
              pointing, n, balancer != null ? "the front" : "the webhook server");
          if (pointing != n) {
            return result.fail((n - pointing) + " CRDs do not point at the webhook server");
          }
          if (poolChange) {
            var failure =
                poolChange(
                    cp,
                    client,
                    watches,
                    operator,
                    certDir,
                    ca.material().certificateBase64(),
                    balancer,
                    joiningPort,
                    webhook);
            if (failure != null) {
              return result.fail(failure);
            }
          }
          return result;
        } finally {
          if (operator != null) {
            operator.close();
          }
        }
      } finally {
        webhookClient.close();
        if (balancer != null) {
          balancer.close();
        }
      }
    }
  }

  /**
   * A second server joins the pool; returns null when every target it wins moved to it in time
   * (repointed to it, or behind the front served by it), else why not.
   */
  private String poolChange(
      ControlPlane cp,
      KubernetesClient client,
      Watches watches,
      OperatorJvm operator,
      Path certDir,
      String caBundle,
      LoopbackBalancer balancer,
      int joiningPort,
      WebhookServer source)
      throws Exception {
    var joining = "pool-b";
    var views =
        List.of(
            new dev.versio.api.assign.ServerView(ScaleFixtures.SERVER, true, true, 1),
            new dev.versio.api.assign.ServerView(joining, false, true, 1));
    var moving = new java.util.TreeSet<String>();
    for (int i = 0; i < n; i++) {
      if (dev.versio.api.assign.AssignmentResolver.resolve(null, ScaleFixtures.crdName(i), views)
          .isTo(joining)) {
        moving.add(ScaleFixtures.configName(i));
      }
    }
    boolean behindFront = balancer != null;
    try (var joiningClient = cp.adminClient();
        var server = startServer(joiningClient, joining, certDir, joiningPort, behindFront)) {
      if (behindFront) {
        balancer.outOfRotation(joiningPort, false); // it runs: ready for new connections
      }
      var url = "https://127.0.0.1:" + server.conversionPort();
      client
          .resources(dev.versio.api.server.ConversionWebhookServer.class)
          .withName(ScaleFixtures.SERVER)
          .edit(
              s -> {
                s.getSpec().sharding =
                    new dev.versio.api.server.ConversionWebhookServerSpec.Sharding();
                return s;
              });
      var generations = crdGenerations(client);
      apiserverLoad(cp, operator);
      var cpuBefore = LabCpu.of(cp, operator == null ? -1 : operator.pid());
      var statsBefore = operator.command("stats");
      var requestsBefore = apiserverRequests(client);
      var pooled = dev.versio.testkit.fleet.Widgets.urlServer(joining, url, caBundle);
      pooled.getSpec().sharding = new dev.versio.api.server.ConversionWebhookServerSpec.Sharding();
      long start = System.nanoTime();
      client.resource(pooled).create();
      say(
          "pool change%s: %s joins the pool of %s; %d of %d targets must move to it",
          behindFront ? " behind the front" : "", joining, ScaleFixtures.SERVER, moving.size(), n);
      long deadline = start + timeout.toNanos();
      var reasons = new java.util.TreeMap<String, Integer>();
      var movingTargets =
          moving.stream().map(c -> watches.targetOf.get(c)).filter(t -> t != null).toList();
      long compiled = 0;
      long handedOver = 0;
      int done = 0;
      long nextProgress = start + Duration.ofSeconds(2).toNanos();
      while (System.nanoTime() < deadline) {
        if (compiled == 0
            && movingTargets.stream().allMatch(t -> server.registry().get(t).isPresent())) {
          compiled = System.nanoTime();
          say(
              "pool change: %s holds the plans of all %d moved targets %.2f s after its create",
              joining, movingTargets.size(), seconds(compiled - start));
        }
        if (behindFront
            && handedOver == 0
            && movingTargets.stream()
                .allMatch(
                    t ->
                        joining.equals(source.handedOverTo(t))
                            || source.registry().get(t).isEmpty())) {
          // every review of a moved target, at either server, is now answered by pool-b
          handedOver = System.nanoTime();
          say(
              "pool change: %s passes the reviews of all %d moved targets to %s %.2f s after its"
                  + " create",
              ScaleFixtures.SERVER, movingTargets.size(), joining, seconds(handedOver - start));
        }
        reasons.clear();
        done = 0;
        // from the harness's watch, so that polling costs the apiserver nothing
        for (var name : moving) {
          var status = watches.status.get(name);
          if (status == null
              || !"Applied".equals(status.phase)
              || !(behindFront
                  ? joining.equals(status.servedBy)
                  : status.webhookURL != null && status.webhookURL.startsWith(url + "/"))) {
            continue;
          }
          done++;
          var reason =
              status.conditions.stream()
                  .filter(c -> "HandoverReady".equals(c.getType()))
                  .map(c -> c.getStatus() + "/" + c.getReason())
                  .findFirst()
                  .orElse("(none)");
          reasons.merge(reason, 1, Integer::sum);
        }
        if (done == moving.size() && (!behindFront || handedOver != 0)) {
          break;
        }
        if (System.nanoTime() >= nextProgress) {
          nextProgress += Duration.ofSeconds(2).toNanos();
          say(
              "pool change: %.0f s: %d of %d moved targets done",
              seconds(System.nanoTime() - start), done, moving.size());
        }
        Thread.sleep(50); // polling this JVM's watch cache
      }
      double seconds = seconds(System.nanoTime() - start);
      var cpu = LabCpu.of(cp, operator == null ? -1 : operator.pid()).minus(cpuBefore);
      var statsAfter = operator.command("stats");
      var requestsAfter = apiserverRequests(client);
      say(
          "pool change: %d of %d moved targets %s %.2f s after %s was created; HandoverReady"
              + " of the moved configs: %s",
          done,
          moving.size(),
          behindFront ? "served by it" : "repointed",
          seconds,
          joining,
          reasons);
      var after = crdGenerations(client);
      long written =
          generations.entrySet().stream()
              .filter(e -> !e.getValue().equals(after.get(e.getKey())))
              .count();
      say(
          "pool change: %d of %d target CRDs written (metadata.generation changed); CPU from the"
              + " create until then: %s",
          written, generations.size(), cpu);
      say(
          "pool change: operator until then: %.0f config reconciles (mean %.1f ms), %.0f status"
              + " writes, %.0f events, %.0f applies",
          Result.delta(
              statsBefore,
              statsAfter,
              "reconciles",
              "reconciliations.started.total{" + CONFIG_CONTROLLER + "}"),
          Result.meanMillis(
              statsBefore,
              statsAfter,
              "reconciliations.execution.duration{" + CONFIG_CONTROLLER + "}"),
          Result.writes(statsBefore, statsAfter, "status"),
          Result.writes(statsBefore, statsAfter, "event"),
          Result.writes(statsBefore, statsAfter, "apply"));
      say(
          "pool change: apiserver requests until then (verb resource: count, seconds served): %s",
          busiest(requestsBefore, requestsAfter));
      var cpuDone = LabCpu.of(cp, operator == null ? -1 : operator.pid());
      Thread.sleep(60_000); // what the change's writes leave the apiserver to do afterwards
      say(
          "pool change: in the minute after it the apiserver used %.1f s of CPU",
          LabCpu.of(cp, operator == null ? -1 : operator.pid()).minus(cpuDone).apiserver());
      if (done != moving.size()) {
        return (moving.size() - done)
            + " moved targets not "
            + (behindFront ? "served" : "repointed")
            + " in time";
      }
      if (behindFront && handedOver == 0) {
        return ScaleFixtures.SERVER + " did not hand over every moved target in time";
      }
      if (behindFront && written > 0) {
        return written + " target CRDs written behind the front";
      }
      return null;
    }
  }

  /**
   * What the apiserver is busy with before the change: its CPU over two seconds and its busiest
   * work queues. At 1,000 CRDs kube-apiserver 1.20 spends about 2 s rebuilding its OpenAPI document
   * per CRD written ({@code slow openapi aggregation} in its log), one CRD after the other, so the
   * setup's 2,000 CRD writes keep it busy for half an hour: the change is measured on a busy
   * apiserver, in both modes alike.
   */
  private void apiserverLoad(ControlPlane cp, OperatorJvm operator) throws InterruptedException {
    var before = LabCpu.of(cp, operator == null ? -1 : operator.pid());
    Thread.sleep(2000); // a window of the apiserver's own CPU counter
    say(
        "before the pool change: the apiserver uses %.2f cores (last 2 s); its busiest work queues"
            + " so far: %s",
        LabCpu.of(cp, operator == null ? -1 : operator.pid()).minus(before).apiserver() / 2,
        workQueues(cp));
  }

  /** The apiserver's work queues with the most adds so far ({@code workqueue_adds_total}). */
  private static String workQueues(ControlPlane cp) {
    try (var client = cp.adminClient()) {
      var adds = new java.util.TreeMap<String, Double>();
      for (var line : client.raw("/metrics").split("\\n")) {
        if (line.startsWith("workqueue_adds_total{")) {
          adds.merge(
              label(line, "name"),
              Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)),
              Double::sum);
        }
      }
      return adds.entrySet().stream()
          .sorted((x, y) -> Double.compare(y.getValue(), x.getValue()))
          .limit(5)
          .map(e -> String.format(Locale.ROOT, "%s %.0f adds", e.getKey(), e.getValue()))
          .collect(java.util.stream.Collectors.joining(", "));
    }
  }

  /**
   * The apiserver's own request counters ({@code apiserver_request_total}) and the time it spent
   * serving them ({@code apiserver_request_duration_seconds_sum}), by verb and resource (with its
   * subresource), watches left out: where its CPU goes.
   */
  private static Map<String, double[]> apiserverRequests(KubernetesClient client) {
    var out = new java.util.TreeMap<String, double[]>();
    for (var line : client.raw("/metrics").split("\n")) {
      int slot =
          line.startsWith("apiserver_request_total{")
              ? 0
              : line.startsWith("apiserver_request_duration_seconds_sum{") ? 1 : -1;
      if (slot < 0) {
        continue;
      }
      var verb = label(line, "verb");
      if (verb.equals("WATCH")) {
        continue;
      }
      var sub = label(line, "subresource");
      var key = verb + " " + label(line, "resource") + (sub.isEmpty() ? "" : "/" + sub);
      double value = Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
      out.computeIfAbsent(key, k -> new double[2])[slot] += value;
    }
    return out;
  }

  private static String label(String line, String name) {
    int at = line.indexOf(name + "=\"");
    if (at < 0) {
      return "";
    }
    int from = at + name.length() + 2;
    return line.substring(from, line.indexOf('"', from));
  }

  /** The eight request kinds with the most requests between two readings. */
  private static String busiest(Map<String, double[]> before, Map<String, double[]> after) {
    return after.entrySet().stream()
        .map(
            e -> {
              var b = before.getOrDefault(e.getKey(), new double[2]);
              return Map.entry(
                  e.getKey(), new double[] {e.getValue()[0] - b[0], e.getValue()[1] - b[1]});
            })
        .filter(e -> e.getValue()[0] > 0)
        .sorted((x, y) -> Double.compare(y.getValue()[0], x.getValue()[0]))
        .limit(8)
        .map(
            e ->
                String.format(
                    Locale.ROOT, "%s: %.0f, %.1f s", e.getKey(), e.getValue()[0], e.getValue()[1]))
        .collect(java.util.stream.Collectors.joining("; "));
  }

  /** {@code metadata.generation} of every CRD of this run's targets, by name. */
  private static Map<String, Long> crdGenerations(KubernetesClient client) {
    var out = new java.util.TreeMap<String, Long>();
    for (var crd : client.apiextensions().v1().customResourceDefinitions().list().getItems()) {
      if (crd.getSpec().getGroup().endsWith(".bench.versio.dev")) {
        out.put(crd.getMetadata().getName(), crd.getMetadata().getGeneration());
      }
    }
    return out;
  }

  /**
   * A webhook server in this JVM; behind the front it publishes what it serves and forwards what it
   * does not ({@code port} 0: any free port, only without the front).
   */
  private static WebhookServer startServer(
      KubernetesClient client, String name, Path certDir, int port, boolean behindFront)
      throws InterruptedException {
    var options =
        new WebhookServerOptions(
            name,
            certDir,
            "127.0.0.1",
            port,
            0,
            Duration.ofSeconds(5),
            WebhookServerOptions.DEFAULT_MAX_BODY_BYTES,
            2,
            null);
    var publication =
        new dev.versio.webhook.served.ServedTargetsPublication(
            new dev.versio.webhook.served.ReplicaIdentity(name + "-0", null, "versio-system"),
            Duration.ofSeconds(30));
    if (!behindFront) {
      return ScaleFixtures.SERVER.equals(name)
          ? WebhookServer.start(client, options, Clock.systemUTC())
          : WebhookServer.start(
              client,
              options,
              Clock.systemUTC(),
              dev.versio.webhook.tracing.ReviewTracing.off(),
              publication);
    }
    return WebhookServer.start(
        client,
        options,
        Clock.systemUTC(),
        dev.versio.webhook.tracing.ReviewTracing.off(),
        publication,
        new dev.versio.webhook.forward.Forwarding(
            "127.0.0.1:" + port,
            certDir.resolve("ca.crt"),
            dev.versio.webhook.forward.Forwarding.DEFAULT_TIMEOUT));
  }

  private static int freePort() throws IOException {
    try (var socket = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  /** The namespace the operator and the servers' Leases live in. */
  static void createSystemNamespace(KubernetesClient client) {
    client
        .namespaces()
        .resource(
            new io.fabric8.kubernetes.api.model.NamespaceBuilder()
                .withNewMetadata()
                .withName("versio-system")
                .endMetadata()
                .build())
        .serverSideApply();
  }

  private static void installVersioCrds(KubernetesClient client) throws IOException {
    Crds.applyVersioCrds(client);
  }

  /** Waits until the harness's webhook server reports Available. */
  static void awaitServerAvailable(KubernetesClient client) {
    client
        .resources(ConversionWebhookServer.class)
        .withName(ScaleFixtures.SERVER)
        .waitUntilCondition(
            s ->
                s != null
                    && s.getStatus() != null
                    && s.getStatus().conditions.stream()
                        .anyMatch(
                            c -> "Available".equals(c.getType()) && "True".equals(c.getStatus())),
            60,
            TimeUnit.SECONDS);
  }

  private record Settled(JsonNode stats, long quietSince) {}

  /** Polls the operator until its reconcile and write counters stand still for {@code quiet}. */
  private static Settled settle(OperatorJvm operator, Duration quiet, Duration max)
      throws Exception {
    long deadline = System.nanoTime() + max.toNanos();
    var stats = operator.command("stats");
    double activity = activity(stats);
    long since = System.nanoTime();
    while (System.nanoTime() < deadline) {
      Thread.sleep(500); // polling another process's counters
      var now = operator.command("stats");
      double a = activity(now);
      stats = now;
      if (a != activity) {
        activity = a;
        since = System.nanoTime();
      } else if (System.nanoTime() - since >= quiet.toNanos()) {
        return new Settled(stats, since);
      }
    }
    return new Settled(stats, since);
  }

  private static double activity(JsonNode stats) {
    double sum = 0;
    for (var v : stats.path("reconciles")) {
      sum += v.asDouble();
    }
    for (var v : stats.path("writes")) {
      sum += v.asDouble();
    }
    return sum;
  }

  // ---------------------------------------------------------------------------------------------
  // watches that time the run

  private final class Watches implements AutoCloseable {
    final Map<String, Long> established = new ConcurrentHashMap<>();
    final Map<String, Long> created = new ConcurrentHashMap<>();
    final Map<String, Long> applied = new ConcurrentHashMap<>();
    final Map<String, String> phase = new ConcurrentHashMap<>();

    /** The target (CRD name) of every config. */
    final Map<String, String> targetOf = new ConcurrentHashMap<>();

    /** The latest status of every config, as the watch saw it. */
    final Map<String, dev.versio.api.config.ConversionConfigStatus> status =
        new ConcurrentHashMap<>();

    final Map<String, Set<String>> phasesBefore = new ConcurrentHashMap<>();
    final AtomicInteger configUpdates = new AtomicInteger();
    final AtomicInteger serverUpdates = new AtomicInteger();
    final AtomicInteger crdUpdates = new AtomicInteger();
    private final List<AutoCloseable> informers = new ArrayList<>();

    Watches(KubernetesClient client) {
      informers.add(
          client
              .apiextensions()
              .v1()
              .customResourceDefinitions()
              .inform(
                  handler(
                      (CustomResourceDefinition crd, boolean update) -> {
                        if (!crd.getSpec().getGroup().endsWith(".bench.versio.dev")) {
                          return;
                        }
                        if (update) {
                          crdUpdates.incrementAndGet();
                        }
                        if (crd.getStatus() != null
                            && crd.getStatus().getConditions() != null
                            && crd.getStatus().getConditions().stream()
                                .anyMatch(
                                    c ->
                                        "Established".equals(c.getType())
                                            && "True".equals(c.getStatus()))) {
                          established.putIfAbsent(crd.getMetadata().getName(), System.nanoTime());
                        }
                      }),
                  0));
      informers.add(
          client
              .resources(CRDConversionConfig.class)
              .inform(
                  handler(
                      (CRDConversionConfig config, boolean update) -> {
                        long now = System.nanoTime();
                        var name = config.getMetadata().getName();
                        if (update) {
                          configUpdates.incrementAndGet();
                        }
                        if (config.getSpec() != null && config.getSpec().targetName() != null) {
                          targetOf.put(name, config.getSpec().targetName());
                        }
                        var status = config.getStatus();
                        var p = status == null || status.phase == null ? "(none)" : status.phase;
                        phase.put(name, p);
                        if (status != null) {
                          this.status.put(name, status);
                        }
                        if ("Applied".equals(p)) {
                          applied.putIfAbsent(name, now);
                        } else if (!applied.containsKey(name)) {
                          phasesBefore
                              .computeIfAbsent(name, k -> ConcurrentHashMap.newKeySet())
                              .add(p);
                        }
                      }),
                  0));
      informers.add(
          client
              .resources(ConversionWebhookServer.class)
              .inform(
                  handler(
                      (ConversionWebhookServer server, boolean update) -> {
                        if (update) {
                          serverUpdates.incrementAndGet();
                        }
                      }),
                  0));
    }

    boolean awaitEstablished(int count, Duration max) throws InterruptedException {
      return await(() -> established.size() >= count, max);
    }

    boolean awaitApplied(int count, Duration max) throws InterruptedException {
      return await(() -> applied.size() >= count, max);
    }

    long lastEstablished() {
      return established.values().stream().mapToLong(Long::longValue).max().orElse(0);
    }

    long lastApplied() {
      return applied.values().stream().mapToLong(Long::longValue).max().orElse(0);
    }

    List<Double> latenciesSeconds() {
      var out = new ArrayList<Double>();
      applied.forEach(
          (name, at) -> {
            var c = created.get(name);
            if (c != null) {
              out.add(seconds(at - c));
            }
          });
      Collections.sort(out);
      return out;
    }

    Map<String, Integer> phaseCounts() {
      var counts = new java.util.TreeMap<String, Integer>();
      for (int i = 0; i < n; i++) {
        counts.merge(
            phase.getOrDefault(ScaleFixtures.configName(i), "(not seen)"), 1, Integer::sum);
      }
      return counts;
    }

    /** How many configs showed each phase before their first Applied. */
    Map<String, Integer> phasesBeforeApplied() {
      var counts = new java.util.TreeMap<String, Integer>();
      phasesBefore.values().forEach(set -> set.forEach(p -> counts.merge(p, 1, Integer::sum)));
      return counts;
    }

    @Override
    public void close() throws Exception {
      for (var informer : informers) {
        informer.close();
      }
    }
  }

  private interface Seen<T> {
    void seen(T object, boolean update);
  }

  private static <T> ResourceEventHandler<T> handler(Seen<T> seen) {
    return new ResourceEventHandler<>() {
      @Override
      public void onAdd(T obj) {
        seen.seen(obj, false);
      }

      @Override
      public void onUpdate(T oldObj, T newObj) {
        seen.seen(newObj, true);
      }

      @Override
      public void onDelete(T obj, boolean deletedFinalStateUnknown) {}
    };
  }

  private interface Condition {
    boolean met();
  }

  private static boolean await(Condition condition, Duration max) throws InterruptedException {
    long deadline = System.nanoTime() + max.toNanos();
    while (!condition.met()) {
      if (System.nanoTime() > deadline) {
        return false;
      }
      Thread.sleep(5); // polling what the watches recorded
    }
    return true;
  }

  // ---------------------------------------------------------------------------------------------
  // results

  private static final class Result {
    String failure;
    double crdCreateRequests;
    double crdEstablished;
    double configCreateRequests;
    double fromEstablished;
    double fromFirstCreate;
    double fromOperatorStart;
    double latencyP50;
    double latencyP99;
    double latencyMax;
    double configReconciles;
    double configReconcileFailures;
    double serverReconciles;
    double statusWrites;
    double applyWrites;
    double eventWrites;
    double writeErrors;
    double writesPerConfig;
    double writesAtAppliedPerConfig;
    double configUpdates;
    int serverStatusUpdates;
    int crdUpdatesInConfigPhase;
    double cpuSeconds;
    double gcMillis;
    long peakHeapRun;
    long peakHeapSinceStart;
    long liveHeap;
    long heapCommitted;
    double settleSeconds;
    LabCpu cpu = new LabCpu(0, 0, 0, 0);
    LabCpu crdCpu = new LabCpu(0, 0, 0, 0);
    double reconcileMillis;
    double reconcileExecutions;
    String threadCpu = "";
    double applyMillis;

    static Result failed(String why) {
      return new Result().fail(why);
    }

    Result fail(String why) {
      failure = why;
      return this;
    }

    boolean ok() {
      return failure == null;
    }

    void record(JsonNode before, JsonNode atApplied, JsonNode after, long live, int n) {
      configReconciles =
          delta(
                  before,
                  after,
                  "reconciles",
                  "reconciliations.started.total{" + CONFIG_CONTROLLER + "}")
              / n;
      configReconcileFailures =
          delta(
              before,
              after,
              "reconciles",
              "reconciliations.failure.total{" + CONFIG_CONTROLLER + "}");
      serverReconciles =
          delta(
              before,
              after,
              "reconciles",
              "reconciliations.started.total{" + SERVER_CONTROLLER + "}");
      statusWrites = writes(before, after, "status") / n;
      applyWrites = writes(before, after, "apply") / n;
      eventWrites = writes(before, after, "event") / n;
      writeErrors =
          delta(before, after, "writes", "status/error")
              + delta(before, after, "writes", "apply/error")
              + delta(before, after, "writes", "event/error");
      writesPerConfig = statusWrites + applyWrites + eventWrites;
      writesAtAppliedPerConfig =
          (writes(before, atApplied, "status")
                  + writes(before, atApplied, "apply")
                  + writes(before, atApplied, "event"))
              / n;
      cpuSeconds =
          (after.path("cpuMillis").asDouble()
                  - (before == null ? 0 : before.path("cpuMillis").asDouble()))
              / 1000;
      gcMillis =
          after.path("gcMillis").asDouble()
              - (before == null ? 0 : before.path("gcMillis").asDouble());
      peakHeapRun = after.path("peakHeapInWindowBytes").asLong();
      peakHeapSinceStart = after.path("peakHeapSinceStartBytes").asLong();
      heapCommitted = after.path("heapCommittedBytes").asLong();
      liveHeap = live;
      reconcileMillis =
          meanMillis(
              before, after, "reconciliations.execution.duration{" + CONFIG_CONTROLLER + "}");
      applyMillis = meanMillis(before, after, "versio.operator.apply.duration{success}");
      threadCpu = threadCpu(before, after);
      reconcileExecutions =
          delta(
                  before,
                  after,
                  "timers",
                  "reconciliations.execution.duration{" + CONFIG_CONTROLLER + "}",
                  "count")
              / n;
    }

    /** The operator JVM's CPU by kind of thread between two stats, in seconds. */
    private static String threadCpu(JsonNode before, JsonNode after) {
      var deltas = new ArrayList<Map.Entry<String, Double>>();
      after
          .path("threadCpuMillis")
          .properties()
          .forEach(
              e -> {
                double b =
                    before == null
                        ? 0
                        : before.path("threadCpuMillis").path(e.getKey()).asDouble(0);
                deltas.add(Map.entry(e.getKey(), (e.getValue().asDouble() - b) / 1000));
              });
      deltas.sort(Map.Entry.<String, Double>comparingByValue().reversed());
      var text = new StringBuilder();
      for (var e : deltas.subList(0, Math.min(8, deltas.size()))) {
        text.append(text.isEmpty() ? "" : ", ")
            .append(String.format(Locale.ROOT, "%s %.1f s", e.getKey(), e.getValue()));
      }
      return text.toString();
    }

    private static double meanMillis(JsonNode before, JsonNode after, String timer) {
      double count = delta(before, after, "timers", timer, "count");
      double total = delta(before, after, "timers", timer, "totalMillis");
      return count == 0 ? Double.NaN : total / count;
    }

    private static double delta(
        JsonNode before, JsonNode after, String group, String key, String field) {
      double b = before == null ? 0 : before.path(group).path(key).path(field).asDouble(0);
      return after.path(group).path(key).path(field).asDouble(0) - b;
    }

    private static double writes(JsonNode before, JsonNode after, String kind) {
      return delta(before, after, "writes", kind + "/success")
          + delta(before, after, "writes", kind + "/error");
    }

    private static double delta(JsonNode before, JsonNode after, String group, String key) {
      double b = before == null ? 0 : before.path(group).path(key).asDouble(0);
      return after.path(group).path(key).asDouble(0) - b;
    }

    void report(OperatorScale bench, int n) {
      bench.say(
          "operator during the config phase: %.2f reconciles per config (%.0f failed), %.0f server"
              + " reconciles; writes per config %.2f (status %.2f, apply %.2f, event %.2f; %.0f"
              + " errors), %.2f by the time all were Applied",
          configReconciles,
          configReconcileFailures,
          serverReconciles,
          writesPerConfig,
          statusWrites,
          applyWrites,
          eventWrites,
          writeErrors,
          writesAtAppliedPerConfig);
      bench.say(
          "reconciler calls per config %.2f (the rest of the reconciles only added the"
              + " finalizer), mean call %.1f ms; mean server-side apply of a CRD %.1f ms",
          reconcileExecutions, reconcileMillis, applyMillis);
      bench.say("CPU from the first config create to the last Applied: %s", cpu);
      bench.say("operator CPU by thread kind, config phase and settle: %s", threadCpu);
      bench.say(
          "watches: %.2f updates per config object (finalizer + status), %d server status"
              + " updates, %d CRD updates",
          configUpdates, serverStatusUpdates, crdUpdatesInConfigPhase);
      bench.say(
          "operator JVM: CPU %.1f s, GC %.0f ms; heap peak %s (since CRD phase) / %s (since"
              + " start), live after settle %s, committed %s",
          cpuSeconds,
          gcMillis,
          mib(peakHeapRun),
          mib(peakHeapSinceStart),
          mib(liveHeap),
          mib(heapCommitted));
    }
  }

  private void summary(List<Result> results) {
    var ok = results.stream().filter(Result::ok).toList();
    say("");
    say(
        "================ operator scale: %d CRDs x 1 config, %s ================",
        n, cold ? "cold start" : "operator running");
    say(
        "runs: %d, succeeded: %d, failed: %d",
        results.size(), ok.size(), results.size() - ok.size());
    for (int i = 0; i < results.size(); i++) {
      if (!results.get(i).ok()) {
        say("  run %d FAILED: %s", i + 1, results.get(i).failure);
      }
    }
    if (ok.isEmpty()) {
      say("no successful run: no figures");
      say("=".repeat(96));
      return;
    }
    say("%-52s %9s %8s %8s  %s", "figure", "median", "min", "max", "unit (successful runs)");
    row("CRD creation: first create -> last Established", ok, r -> r.crdEstablished, "s");
    row("  CRD create requests (all sent)", ok, r -> r.crdCreateRequests, "s");
    row("configs: last CRD Established -> all Applied", ok, r -> r.fromEstablished, "s");
    row("configs: first config create -> all Applied", ok, r -> r.fromFirstCreate, "s");
    if (cold) {
      row("configs: operator JVM start -> all Applied", ok, r -> r.fromOperatorStart, "s");
    }
    row("  config create requests (all sent)", ok, r -> r.configCreateRequests, "s");
    row("  per config create -> Applied, p50", ok, r -> r.latencyP50, "s");
    row("  per config create -> Applied, p99", ok, r -> r.latencyP99, "s");
    row("reconciles per config", ok, r -> r.configReconciles, "");
    row("server reconciles (total)", ok, r -> r.serverReconciles, "");
    row("writes per config (status+apply+event)", ok, r -> r.writesPerConfig, "");
    row("  status writes per config (incl. server)", ok, r -> r.statusWrites, "");
    row("  applies per config", ok, r -> r.applyWrites, "");
    row("  events per config", ok, r -> r.eventWrites, "");
    row("server status updates (total)", ok, r -> r.serverStatusUpdates, "");
    row("  reconciler calls per config", ok, r -> r.reconcileExecutions, "");
    row("  mean reconciler call", ok, r -> r.reconcileMillis, "ms");
    row("  mean server-side apply of a CRD", ok, r -> r.applyMillis, "ms");
    row("CPU first config create -> all Applied: apiserver", ok, r -> r.cpu.apiserver(), "s");
    row("  etcd", ok, r -> r.cpu.etcd(), "s");
    row("  operator", ok, r -> r.cpu.operator(), "s");
    row("  harness (webhook server, watches, creates)", ok, r -> r.cpu.harness(), "s");
    row("CPU during the CRD phase: apiserver", ok, r -> r.crdCpu.apiserver(), "s");
    row("operator CPU, config phase + settle", ok, r -> r.cpuSeconds, "s");
    row("operator heap peak (CRD phase to settle)", ok, r -> r.peakHeapRun / 1048576.0, "MiB");
    row("operator heap peak (since its start)", ok, r -> r.peakHeapSinceStart / 1048576.0, "MiB");
    row("operator live heap after settle (full GC)", ok, r -> r.liveHeap / 1048576.0, "MiB");
    var target = median(ok.stream().map(r -> r.fromFirstCreate).toList());
    var worst = ok.stream().mapToDouble(r -> r.fromFirstCreate).max().orElse(Double.NaN);
    if (n == 300 && !cold) {
      say(
          "target <= 30 s for 300 configs (first create -> all Applied): %s (median %.2f s, worst"
              + " %.2f s, %d failed run(s))",
          verdict(target, worst, ok.size() == results.size()),
          target,
          worst,
          results.size() - ok.size());
    }
    say("=".repeat(96));
  }

  /** Met only when no run failed and every run stayed within 30 s. */
  private static String verdict(double median, double worst, boolean noFailure) {
    if (!noFailure) {
      return "NOT MET (a run failed)";
    }
    if (worst <= 30) {
      return "MET by every run";
    }
    return median <= 30 ? "NOT MET by every run (the median is within)" : "NOT MET";
  }

  private interface Figure {
    double of(Result r);
  }

  private void row(String label, List<Result> ok, Figure figure, String unit) {
    var values = ok.stream().map(figure::of).sorted().toList();
    say(
        "%-52s %9.2f %8.2f %8.2f  %s",
        label, median(values), values.getFirst(), values.getLast(), unit);
  }

  private static double median(List<Double> values) {
    var sorted = values.stream().sorted().toList();
    int size = sorted.size();
    return size % 2 == 1
        ? sorted.get(size / 2)
        : (sorted.get(size / 2 - 1) + sorted.get(size / 2)) / 2;
  }

  private static double percentile(List<Double> sorted, int p) {
    int index = (int) Math.ceil(p / 100.0 * sorted.size()) - 1;
    return sorted.get(Math.max(0, Math.min(sorted.size() - 1, index)));
  }

  private static double seconds(long nanos) {
    return nanos / 1e9;
  }

  private static String mib(long bytes) {
    return String.format(Locale.ROOT, "%.1f MiB", bytes / 1048576.0);
  }

  private static double loadAverage() {
    return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
  }

  private void say(String format, Object... args) {
    var line = args.length == 0 ? format : String.format(Locale.ROOT, format, args);
    System.out.println(line);
    System.out.flush();
    if (raw != null) {
      raw.println(line);
    }
  }
}
