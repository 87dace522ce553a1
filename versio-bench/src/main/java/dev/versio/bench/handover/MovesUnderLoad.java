package dev.versio.bench.handover;

import static dev.versio.bench.handover.MoveFixture.ALPHA;
import static dev.versio.bench.handover.MoveFixture.BETA;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.versio.api.config.CRDConversionConfig;
import dev.versio.api.server.ConversionWebhookServer;
import dev.versio.api.server.ConversionWebhookServerSpec;
import dev.versio.bench.handover.MoveFixture.Intent;
import dev.versio.operator.OperatorOptions;
import dev.versio.operator.VersioOperator;
import dev.versio.operator.gate.HandoverGate;
import dev.versio.testkit.ControlPlane;
import dev.versio.testkit.ControlPlaneAssets;
import dev.versio.testkit.Crds;
import dev.versio.testkit.fleet.Widgets;
import dev.versio.testkit.process.LoopbackPorts;
import dev.versio.testkit.process.ProcessLedger;
import dev.versio.testkit.process.Watchdog;
import dev.versio.testkit.tls.CertificateAuthority;
import dev.versio.testkit.tls.MountedSecret;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.UnaryOperator;

/**
 * Moves conversion targets between two servers while Widgets are read and written through the
 * webhook, and checks that nothing fails: two ConversionWebhookServers in URL mode ({@code alpha},
 * the default, and {@code beta}), each with replicas as separate {@code versio webhook-server}
 * processes behind a {@link LoopbackBalancer}, the operator (with admission) in this JVM, eight
 * Widget CRDs with one config each, and {@link WidgetTraffic} at a fixed rate.
 *
 * <p>One cycle is twelve steps, 24 moves: pin, unpin, alpha joins the pool, beta joins the pool
 * (grow), a pool without the default rejected by admission, weight up, weight down, beta leaves the
 * pool (shrink), beta deleted after its targets moved, beta created again straight into the pool,
 * beta leaves, alpha leaves (back to the start). Some moves start while every replica of the
 * destination is stopped for a moment ({@code SIGSTOP}, as a throttled or paused process is), so
 * the handover gate has to wait for it. After each step the harness waits until every target points
 * where the shared resolver says it must, and compares the moves the configs' status shows with the
 * moves the step implies; every move must be {@code HandoverReady=True/HandoverReady}.
 *
 * <p>The same harness is run with the safety off to show what it guards against: {@code --drain 0s}
 * (replicas drop a plan as soon as a target stops naming them) and {@code --no-handover-gate} (the
 * operator repoints without waiting for the destination).
 */
public final class MovesUnderLoad {
  private static final String NAMESPACE = "versio-system";
  private static final String LOAD_NAMESPACE = "moves";
  private static final Duration STEP_TIMEOUT = Duration.ofSeconds(120);
  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).findAndRegisterModules();

  /**
   * How a run goes.
   *
   * @param duration how long to keep cycling; a cycle that has started is finished (zero = one
   *     cycle)
   * @param rate reads plus writes per second
   * @param drain the replicas' {@code --drain}
   * @param handoverGate whether the operator's handover gate is on
   * @param replicas replica processes per server
   * @param perType Widgets per CRD
   * @param warmUp how long traffic runs before the first step; latencies of that time are not
   *     counted (failures are)
   * @param dwell how long traffic runs between steps
   * @param pause how long the destination's replicas stay stopped on the steps that stop them
   * @param front whether every replica sits behind one shared front (the operator's {@code
   *     --front-url}) that forwards reviews to the replica holding the target, so moves leave the
   *     target CRDs alone; false: each target names its server's own endpoint, as before the front
   * @param renewEvery how often the replicas' serving certificate is renewed while the steps run (a
   *     new leaf from the same CA, at most {@link #RENEWALS} times); zero: never
   * @param steps how many steps of the cycle run (from its first); zero: the whole cycle
   */
  public record Settings(
      Duration duration,
      double rate,
      Duration drain,
      boolean handoverGate,
      int replicas,
      int perType,
      Duration warmUp,
      Duration dwell,
      Duration pause,
      boolean front,
      Duration renewEvery,
      int steps) {
    /** Five years of renewals of the managed serving certificates (one every 80 days). */
    public static final int RENEWALS = 23;

    /**
     * One cycle at 110 requests/s with the chart's 30 s drain (a review the apiserver sent before a
     * move can wait seconds in a loaded apiserver's queue). The serving certificate is renewed
     * every 2 s, so five years of renewals fall inside the cycle.
     */
    public static Settings ci() {
      return new Settings(
          Duration.ZERO,
          110,
          Duration.ofSeconds(30),
          true,
          2,
          2,
          Duration.ofSeconds(10),
          Duration.ofSeconds(3),
          Duration.ofSeconds(3),
          true,
          Duration.ofSeconds(2),
          0);
    }

    /** These settings at another request rate. */
    public Settings atRate(double perSecond) {
      return new Settings(
          duration,
          perSecond,
          drain,
          handoverGate,
          replicas,
          perType,
          warmUp,
          dwell,
          pause,
          front,
          renewEvery,
          steps);
    }

    /** These settings with the serving certificate renewed every {@code every} (zero: never). */
    public Settings renewingEvery(Duration every) {
      return new Settings(
          duration,
          rate,
          drain,
          handoverGate,
          replicas,
          perType,
          warmUp,
          dwell,
          pause,
          front,
          every,
          steps);
    }

    /** These settings with the replicas' {@code --drain} set to {@code drain}. */
    public Settings drainingFor(Duration drain) {
      return new Settings(
          duration,
          rate,
          drain,
          handoverGate,
          replicas,
          perType,
          warmUp,
          dwell,
          pause,
          front,
          renewEvery,
          steps);
    }

    /** These settings with every target naming its server's own endpoint (no front). */
    public Settings perServerEndpoints() {
      return new Settings(
          duration,
          rate,
          drain,
          handoverGate,
          replicas,
          perType,
          warmUp,
          dwell,
          pause,
          false,
          renewEvery,
          steps);
    }

    /**
     * These settings running only the first {@code count} steps of the cycle (the steps themselves
     * and their checks unchanged).
     */
    public Settings firstSteps(int count) {
      if (count < 1) {
        throw new IllegalArgumentException("at least one step: " + count);
      }
      return new Settings(
          duration,
          rate,
          drain,
          handoverGate,
          replicas,
          perType,
          warmUp,
          dwell,
          pause,
          front,
          renewEvery,
          count);
    }
  }

  /**
   * How the replicas answered, summed over all of them: reviews answered where they arrived ({@code
   * local}), passed on to the holder ({@code forwarded}), passed by a replica that still held the
   * target to the server it moved to ({@code handedOver}), forwards that found no holder or no
   * answer, and the forwarding latency (p50/p99 over every forward, from the replicas' histograms).
   */
  public record Routes(
      long local,
      long forwarded,
      long handedOver,
      long noHolder,
      long forwardFailed,
      double forwardP50Millis,
      double forwardP99Millis) {
    public double forwardedFraction() {
      long all = local + forwarded + handedOver;
      return all == 0 ? 0 : (double) (forwarded + handedOver) / all;
    }
  }

  /** A move the step implies: {@code plural}'s config from one server to another. */
  public record ExpectedMove(String config, String from, String to) {}

  /** What one step did. */
  public record Step(
      int cycle,
      String name,
      double startSecond,
      List<ExpectedMove> expected,
      List<MoveLedger.Move> observed,
      double secondsToRepoint,
      boolean destinationPaused,
      String problem) {}

  /** Everything a run measured. */
  public record Report(
      Settings settings,
      Instant started,
      List<Step> steps,
      WidgetTraffic.Result traffic,
      String admissionRejection,
      Map<String, String> placementWithBothInPool,
      Map<String, List<Long>> reviewsPerReplica,
      Map<String, List<Long>> connectionsPerReplica,
      WatchAudit.Result watches,
      Routes routes,
      LeafRenewals.Result renewals,
      List<String> problems) {
    public long moves() {
      return steps.stream().mapToLong(s -> s.observed().size()).sum();
    }

    public long verifiedMoves() {
      return steps.stream()
          .flatMap(s -> s.observed().stream())
          .filter(MoveLedger.Move::verified)
          .count();
    }

    public boolean passed() {
      return problems.isEmpty() && traffic.failed() == 0 && traffic.wrong() == 0;
    }
  }

  private final ControlPlane controlPlane;
  private final KubernetesClient client;
  private final Settings settings;
  private final Path workDir;
  private final PrintStream out;
  private final Map<String, ServerReplicas> servers = new LinkedHashMap<>();
  private final List<String> problems = new ArrayList<>();
  private String caBundle;
  private CertificateAuthority ca;
  private MountedSecret tlsSecret;
  private LeafRenewals renewals;
  private Intent intent = Intent.initial();
  private LoopbackBalancer front;

  private String frontUrl() {
    return "https://127.0.0.1:" + front.port();
  }

  private MovesUnderLoad(
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
  }

  /** Runs the harness against {@code controlPlane}, keeping logs under {@code workDir}. */
  public static Report run(
      ControlPlane controlPlane, Settings settings, Path workDir, PrintStream out)
      throws Exception {
    try (var client = controlPlane.adminClient()) {
      return new MovesUnderLoad(controlPlane, client, settings, workDir, out).run();
    }
  }

  private Report run() throws Exception {
    var started = Instant.now();
    var ledgerFile = new ProcessLedger(ProcessLedger.defaultDirectory(), out::println);
    try (var ledger = ledgerFile.open("moves-" + controlPlane.id());
        var watchdog = Watchdog.start(ledger.file())) {
      installCluster();
      say(
          "starting %d replicas of %s and of %s (drain %s)",
          settings.replicas(), ALPHA, BETA, settings.drain());
      // both servers' replicas start at once (each server's own replicas do already)
      try (var starting = Executors.newFixedThreadPool(2)) {
        var futures = new LinkedHashMap<String, Future<ServerReplicas>>();
        for (var name : List.of(ALPHA, BETA)) {
          futures.put(
              name,
              starting.submit(
                  () ->
                      ServerReplicas.start(
                          name,
                          settings.replicas(),
                          NAMESPACE,
                          workDir.resolve("tls"),
                          settings.drain(),
                          controlPlane.kubeconfig(),
                          workDir.resolve("logs"),
                          ledger,
                          List.of("-Xmx256m"),
                          settings.front()
                              ? List.of("--forward-reviews", "--cert-reload-interval", "1s")
                              : List.of("--cert-reload-interval", "1s"))));
        }
        Exception failed = null;
        for (var future : futures.entrySet()) {
          try {
            servers.put(future.getKey(), future.getValue().get());
          } catch (ExecutionException e) {
            failed = e.getCause() instanceof Exception cause ? cause : e;
          }
        }
        if (failed != null) { // no replica outlives a failed start
          for (var replicas : servers.values()) {
            replicas.close();
          }
          throw failed;
        }
      }
      if (settings.front()) {
        var ports = new ArrayList<Integer>();
        servers.values().forEach(r -> ports.addAll(r.conversionPorts()));
        front = LoopbackBalancer.start(ports);
        say("front: one balancer over all %d replicas at %s", ports.size(), frontUrl());
      }
      applyServer(ALPHA, true, false);
      applyServer(BETA, false, false);
      var admissionPort = LoopbackPorts.free();
      var options =
          OperatorOptions.defaults(NAMESPACE).toBuilder()
              .host("127.0.0.1")
              // a lab: replicas are processes (URL mode) and every CRD here is the lab's own
              .allowUrlMode(true)
              .targetGroups(java.util.List.of("*"))
              .gateRequeue(Duration.ofSeconds(1))
              .frontUrl(settings.front() ? frontUrl() : null)
              .deletionRequeue(Duration.ofSeconds(1))
              .admission(
                  OperatorOptions.Admission.local(
                      admissionPort, URI.create("https://127.0.0.1:" + admissionPort)))
              .build();
      try (var operator =
              VersioOperator.start(
                  client,
                  options,
                  Clock.systemUTC(),
                  settings.handoverGate() ? null : HandoverGate.passThrough());
          var moves = new MoveLedger(client, this::serverOfUrl)) {
        say(
            "operator started (handover gate %s); creating %d configs",
            settings.handoverGate() ? "on" : "BYPASSED", MoveFixture.PLURALS.size());
        for (var plural : MoveFixture.PLURALS) {
          client
              .resource(
                  Widgets.renameConfig(
                      MoveFixture.config(plural), MoveFixture.target(plural), null))
              .create();
        }
        awaitPlacement(intent.placement());
        try (var traffic =
            new WidgetTraffic(
                loadClient(),
                LOAD_NAMESPACE,
                MoveFixture.widgetTypes(),
                settings.perType(),
                settings.rate(),
                16)) {
          traffic.start();
          say(
              "traffic: %.0f requests/s (reads and writes at v1, stored as v2); %d s of warm-up"
                  + " before the first move (its latencies are not counted, its failures are)",
              settings.rate(), settings.warmUp().toSeconds());
          Thread.sleep(settings.warmUp().toMillis()); // cold JVMs: let the traffic settle first
          traffic.resetLatencies();
          var audit = WatchAudit.start(client, LOAD_NAMESPACE);
          renewals = LeafRenewals.start(ca, tlsSecret, settings.renewEvery(), Settings.RENEWALS);
          var steps = new ArrayList<Step>();
          String rejection = null;
          Map<String, String> bothInPool = null;
          long deadline = System.nanoTime() + settings.duration().toNanos();
          int cycle = 0;
          do {
            cycle++;
            for (var step : cycle()) {
              if (step.admissionProbe()) {
                rejection = probeAdmission();
                continue;
              }
              steps.add(runStep(cycle, step, moves, traffic));
              if (step.name().equals("beta joins the pool (grow)") && bothInPool == null) {
                bothInPool = intent.placement();
              }
              dwell();
            }
          } while (System.nanoTime() < deadline);
          renewals.awaitAll(Duration.ofSeconds(120)); // every renewal under traffic and audit
          var watches = audit.finish();
          var result = traffic.stop(Duration.ofSeconds(30));
          var reviews = new TreeMap<String, List<Long>>();
          var connections = new TreeMap<String, List<Long>>();
          servers.forEach(
              (name, replicas) -> {
                reviews.put(name, replicas.reviewsPerReplica());
                connections.put(name, replicas.connectionsPerReplica());
                if (!replicas.exited().isEmpty()) {
                  problems.add("replicas exited: " + replicas.exited());
                }
              });
          var routes = routes();
          var renewed =
              renewals.finish(
                  conversionPorts(),
                  Duration.ofSeconds(10),
                  () -> servers.values().stream().flatMap(r -> r.scrapes().stream()).toList());
          if (!renewed.notServingTheLast().isEmpty()) {
            problems.add(
                "replicas not serving the last renewed certificate: "
                    + renewed.notServingTheLast());
          }
          var report =
              new Report(
                  settings,
                  started,
                  steps,
                  result,
                  rejection,
                  bothInPool,
                  reviews,
                  connections,
                  watches,
                  routes,
                  renewed,
                  List.copyOf(problems));
          summarize(report);
          return report;
        }
      } finally {
        if (renewals != null) {
          renewals.close();
        }
        if (front != null) {
          front.close();
        }
        for (var replicas : servers.values()) {
          replicas.close();
        }
        client
            .admissionRegistration()
            .v1()
            .validatingWebhookConfigurations()
            .withName(options.admission().webhookConfiguration())
            .delete();
      }
    }
  }

  // ---- the steps ----

  /** One step of a cycle: how it changes the intent, how it changes the cluster. */
  private record Plan(
      String name,
      UnaryOperator<Intent> change,
      Runnable apply,
      boolean pauseDestination,
      boolean admissionProbe) {
    static Plan of(String name, UnaryOperator<Intent> change, Runnable apply, boolean pause) {
      return new Plan(name, change, apply, pause, false);
    }
  }

  private List<Plan> cycle() {
    var pinned = MoveFixture.PLURALS.getFirst();
    var plans = new ArrayList<Plan>();
    plans.add(
        Plan.of(
            "pin " + pinned + " to beta",
            i -> i.withPin(pinned, BETA),
            () -> patchConfig(pinned, "{\"spec\":{\"webhookServerRef\":{\"name\":\"beta\"}}}"),
            true));
    plans.add(
        Plan.of(
            "unpin " + pinned,
            i -> i.withPin(pinned, null),
            () -> patchConfig(pinned, "{\"spec\":{\"webhookServerRef\":null}}"),
            false));
    plans.add(
        Plan.of(
            "alpha joins the pool",
            i -> i.withAlphaInPool(true),
            () -> patchServer(ALPHA, "{\"spec\":{\"sharding\":{}}}"),
            false));
    plans.add(
        Plan.of(
            "beta joins the pool (grow)",
            i -> i.withBeta(true, true, 1),
            () -> patchServer(BETA, "{\"spec\":{\"sharding\":{}}}"),
            true));
    plans.add(new Plan("admission: pool without the default", i -> i, () -> {}, false, true));
    plans.add(
        Plan.of(
            "beta weight 3",
            i -> i.withBeta(true, true, 3),
            () -> patchServer(BETA, "{\"spec\":{\"sharding\":{\"weight\":3}}}"),
            false));
    plans.add(
        Plan.of(
            "beta weight 1",
            i -> i.withBeta(true, true, 1),
            () -> patchServer(BETA, "{\"spec\":{\"sharding\":{\"weight\":1}}}"),
            false));
    plans.add(
        Plan.of(
            "beta leaves the pool (shrink)",
            i -> i.withBeta(true, false, 1),
            () -> patchServer(BETA, "{\"spec\":{\"sharding\":null}}"),
            false));
    plans.add(
        Plan.of(
            "beta deleted",
            i -> i.withBeta(false, false, 1),
            () -> client.resources(ConversionWebhookServer.class).withName(BETA).delete(),
            false));
    plans.add(
        Plan.of(
            "beta created in the pool",
            i -> i.withBeta(true, true, 1),
            () -> applyServer(BETA, false, true),
            true));
    plans.add(
        Plan.of(
            "beta leaves the pool",
            i -> i.withBeta(true, false, 1),
            () -> patchServer(BETA, "{\"spec\":{\"sharding\":null}}"),
            false));
    plans.add(
        Plan.of(
            "alpha leaves the pool",
            i -> i.withAlphaInPool(false),
            () -> patchServer(ALPHA, "{\"spec\":{\"sharding\":null}}"),
            false));
    return settings.steps() == 0
        ? plans
        : List.copyOf(plans.subList(0, Math.min(settings.steps(), plans.size())));
  }

  private Step runStep(int cycle, Plan plan, MoveLedger moves, WidgetTraffic traffic)
      throws InterruptedException {
    double at = traffic.elapsedSeconds();
    var before = intent.placement();
    var next = plan.change().apply(intent);
    var after = next.placement();
    var expected = new ArrayList<ExpectedMove>();
    var destinations = new TreeSet<String>();
    for (var plural : MoveFixture.PLURALS) {
      if (!before.get(plural).equals(after.get(plural))) {
        expected.add(
            new ExpectedMove(MoveFixture.config(plural), before.get(plural), after.get(plural)));
        destinations.add(after.get(plural));
      }
    }
    int seen = moves.moves().size();
    boolean pause = plan.pauseDestination() && !destinations.isEmpty();
    if (pause) {
      destinations.forEach(d -> pauseServer(d, true));
    }
    long t0 = System.nanoTime();
    String problem = null;
    try {
      plan.apply().run();
      intent = next;
      if (pause) {
        Thread.sleep(settings.pause().toMillis()); // the destination is stopped for this long
      }
    } finally {
      if (pause) {
        destinations.forEach(d -> pauseServer(d, false));
      }
    }
    try {
      awaitPlacement(after);
      if (!next.betaExists()) {
        awaitGone(BETA);
      }
    } catch (IllegalStateException e) {
      problem = e.getMessage();
    }
    double seconds = (System.nanoTime() - t0) / 1e9;
    // the ledger's informer may see the last status a moment after the poll did
    long settle = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    while (moves.movesSince(seen).size() < expected.size() && System.nanoTime() < settle) {
      Thread.sleep(50);
    }
    var observed = moves.movesSince(seen);
    if (problem == null) {
      problem = compare(expected, observed);
    }
    if (problem != null) {
      problems.add("cycle " + cycle + ", " + plan.name() + ": " + problem);
    }
    say(
        "t=%5.0f s  cycle %d · %-32s %d move(s)%s in %.1f s%s",
        at,
        cycle,
        plan.name(),
        observed.size(),
        pause ? " (destination stopped " + settings.pause().toSeconds() + " s)" : "",
        seconds,
        problem == null ? "" : "  PROBLEM: " + problem);
    return new Step(cycle, plan.name(), at, expected, observed, seconds, pause, problem);
  }

  /**
   * Stops (or resumes) a server's replicas; behind the front they also leave (rejoin) its rotation
   * for new connections, as a Service drops pods whose readiness fails.
   */
  private void pauseServer(String name, boolean stop) {
    var replicas = servers.get(name);
    if (front != null) {
      replicas.conversionPorts().forEach(p -> front.outOfRotation(p, stop));
    }
    if (stop) {
      replicas.pause();
    } else {
      replicas.resume();
    }
  }

  private static String compare(List<ExpectedMove> expected, List<MoveLedger.Move> observed) {
    var want =
        expected.stream()
            .map(e -> e.config() + " " + e.from() + " -> " + e.to())
            .collect(java.util.stream.Collectors.toCollection(TreeSet::new));
    var got =
        observed.stream()
            .map(m -> m.config() + " " + m.from() + " -> " + m.to())
            .collect(java.util.stream.Collectors.toCollection(TreeSet::new));
    if (!want.equals(got) || observed.size() != expected.size()) {
      return "expected moves " + want + ", observed " + got;
    }
    var unverified = observed.stream().filter(m -> !m.verified()).toList();
    return unverified.isEmpty() ? null : "moves not verified: " + unverified;
  }

  /** Tries a pool without the default server; admission must refuse it. */
  private String probeAdmission() {
    try {
      patchServer(ALPHA, "{\"spec\":{\"sharding\":null}}");
      problems.add("admission accepted a sharding pool without the default server");
      patchServer(ALPHA, "{\"spec\":{\"sharding\":{}}}");
      return null;
    } catch (KubernetesClientException e) {
      say("admission refused a pool without the default (HTTP %d)", e.getCode());
      return e.getMessage();
    }
  }

  // ---- cluster ----

  private void installCluster() throws IOException {
    // Versio's CRDs as released (deploy/crds), as the operator's scale harness installs them
    Crds.applyVersioCrds(client);
    for (var ns : List.of(NAMESPACE, LOAD_NAMESPACE)) {
      client
          .namespaces()
          .resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build())
          .serverSideApply();
    }
    for (var plural : MoveFixture.PLURALS) {
      var crd = Widgets.crd(MoveFixture.GROUP, plural, MoveFixture.kind(plural));
      client.resource(crd).serverSideApply();
      Crds.awaitEstablished(client, crd.getMetadata().getName());
    }
    ca = CertificateAuthority.create("versio-moves");
    // the replicas' certificate folder, as the kubelet mounts a Secret; the replicas behind the
    // front trust each other by the CA that signed them all (ca.crt)
    tlsSecret = MountedSecret.create(workDir.resolve("tls"), LeafRenewals.leafFiles(ca));
    caBundle = ca.material().certificateBase64();
  }

  private void applyServer(String name, boolean isDefault, boolean inPool) {
    var server = Widgets.urlServer(name, servers.get(name).url(), caBundle);
    server.getSpec().isDefault = isDefault ? Boolean.TRUE : null;
    server.getSpec().sharding = inPool ? new ConversionWebhookServerSpec.Sharding() : null;
    client.resource(server).forceConflicts().serverSideApply();
  }

  private void patchServer(String name, String json) {
    client
        .resources(ConversionWebhookServer.class)
        .withName(name)
        .patch(PatchContext.of(PatchType.JSON_MERGE), json);
  }

  private void patchConfig(String plural, String json) {
    client
        .resources(CRDConversionConfig.class)
        .withName(MoveFixture.config(plural))
        .patch(PatchContext.of(PatchType.JSON_MERGE), json);
  }

  private String serverOfUrl(String url) {
    for (var entry : servers.entrySet()) {
      if (url.startsWith(entry.getValue().url() + "/")) {
        return entry.getKey();
      }
    }
    return url;
  }

  /** Waits until every config is Applied with its target pointing at the expected server. */
  private void awaitPlacement(Map<String, String> placement) throws InterruptedException {
    long deadline = System.nanoTime() + STEP_TIMEOUT.toNanos();
    Map<String, String> last = Map.of();
    while (System.nanoTime() < deadline) {
      var now = new TreeMap<String, String>();
      boolean done = true;
      for (var config : client.resources(CRDConversionConfig.class).list().getItems()) {
        var plural = config.getMetadata().getName().substring("move-".length());
        var status = config.getStatus();
        var where =
            status == null || status.webhookURL == null
                ? "(none)"
                : (status.servedBy != null ? status.servedBy : serverOfUrl(status.webhookURL))
                    + "/"
                    + status.phase;
        now.put(plural, where);
        if (!(placement.get(plural) + "/Applied").equals(where)) {
          done = false;
        }
      }
      if (done && now.size() == placement.size()) {
        return;
      }
      last = now;
      Thread.sleep(100); // polling the cluster
    }
    throw new IllegalStateException(
        "targets not repointed within "
            + STEP_TIMEOUT.toSeconds()
            + " s: want "
            + placement
            + ", have "
            + last);
  }

  private void awaitGone(String server) throws InterruptedException {
    long deadline = System.nanoTime() + STEP_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      if (client.resources(ConversionWebhookServer.class).withName(server).get() == null) {
        return;
      }
      Thread.sleep(100); // polling the cluster
    }
    throw new IllegalStateException(
        server + " still exists " + STEP_TIMEOUT.toSeconds() + " s after its delete");
  }

  private void dwell() throws InterruptedException {
    Thread.sleep(settings.dwell().toMillis()); // traffic runs between steps
  }

  /** A client of its own for the traffic: a 10 s request timeout and no retries. */
  private KubernetesClient loadClient() {
    var config =
        new ConfigBuilder(controlPlane.adminConfig())
            .withRequestTimeout(10_000)
            .withRequestRetryBackoffLimit(0)
            .build();
    return new KubernetesClientBuilder().withConfig(config).build();
  }

  // ---- report ----

  /** Every replica's conversion port, by replica ({@code <server>-<i>}). */
  private Map<String, Integer> conversionPorts() {
    var ports = new TreeMap<String, Integer>();
    servers.forEach(
        (name, replicas) -> {
          var list = replicas.conversionPorts();
          for (int i = 0; i < list.size(); i++) {
            ports.put(name + "-" + i, list.get(i));
          }
        });
    return ports;
  }

  /** Sums every replica's routing counters and forwarding histogram. */
  private Routes routes() {
    long local = 0;
    long forwarded = 0;
    long handedOver = 0;
    long noHolder = 0;
    long failed = 0;
    var buckets = new TreeMap<Double, Double>();
    for (var replicas : servers.values()) {
      for (var body : replicas.scrapes()) {
        if (body.isEmpty()) {
          continue;
        }
        local += count(body, "versio_webhook_reviews_routed_total", "route=\"local\"");
        forwarded += count(body, "versio_webhook_reviews_routed_total", "route=\"forwarded\"");
        handedOver += count(body, "versio_webhook_reviews_routed_total", "route=\"handed_over\"");
        noHolder += count(body, "versio_webhook_forwarded_reviews_total", "result=\"no_holder\"");
        failed += count(body, "versio_webhook_forwarded_reviews_total", "result=\"failed\"");
        for (var line : body.lines().toList()) {
          if (line.startsWith("versio_webhook_forward_duration_seconds_bucket{")) {
            var le = line.replaceFirst(".*le=\"([^\"]+)\".*", "$1");
            var value = Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            buckets.merge(
                le.equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(le),
                value,
                Double::sum);
          }
        }
      }
    }
    return new Routes(
        local,
        forwarded,
        handedOver,
        noHolder,
        failed,
        quantileMillis(buckets, 0.50),
        quantileMillis(buckets, 0.99));
  }

  private static long count(String exposition, String metric, String label) {
    return (long) dev.versio.testkit.metrics.Exposition.sum(exposition, metric, label);
  }

  /** The upper bound (ms) of the histogram bucket holding quantile {@code q}; NaN when empty. */
  private static double quantileMillis(TreeMap<Double, Double> cumulative, double q) {
    if (cumulative.isEmpty()) {
      return Double.NaN;
    }
    double total = cumulative.lastEntry().getValue();
    if (total == 0) {
      return Double.NaN;
    }
    for (var e : cumulative.entrySet()) {
      if (e.getValue() >= q * total) {
        return e.getKey() * 1000;
      }
    }
    return Double.POSITIVE_INFINITY;
  }

  private void summarize(Report report) {
    var t = report.traffic();
    say("");
    say(
        "moves: %d (%d verified HandoverReady) in %d steps",
        report.moves(), report.verifiedMoves(), report.steps().size());
    say(
        "traffic: %d reads + %d writes in %.0f s = %.1f/s (target %.0f/s); failed %d (unfinished %d),"
            + " wrong values %d; latency from schedule p50 %.1f ms, p99 %.1f ms, max %.1f ms",
        t.reads(),
        t.writes(),
        t.seconds(),
        t.achievedPerSecond(),
        t.targetPerSecond(),
        t.failed(),
        t.unfinished(),
        t.wrong(),
        t.p50Millis(),
        t.p99Millis(),
        t.maxMillis());
    t.failureCauses().forEach((cause, n) -> say("  %6d × %s", n, cause));
    t.incidents().stream()
        .limit(10)
        .forEach(i -> say("  t=%.1f s %s %s: %s", i.second(), i.kind(), i.object(), i.what()));
    if (!t.slowSeconds().isEmpty()) {
      say(
          "seconds with requests over 1 s (t: count, max ms): %s",
          t.slowSeconds().stream()
              .map(x -> x.second() + ": " + x.requests() + ", " + x.maxMillis())
              .collect(java.util.stream.Collectors.joining("; ")));
    }
    say(
        "reviews per replica: %s; connections per replica: %s%s",
        report.reviewsPerReplica(),
        report.connectionsPerReplica(),
        front == null
            ? ""
            : "; connections through the front per replica: " + front.connectionsPerBackend());
    if (report.renewals().written() > 0) {
      say(
          "serving certificate renewed %d times during the steps (a new leaf from the same CA, as"
              + " the kubelet delivers it); replicas' reloads %d, rejected %d; every replica serves"
              + " the last: %s",
          report.renewals().written(),
          report.renewals().reloads(),
          report.renewals().rejectedReloads(),
          report.renewals().notServingTheLast().isEmpty()
              ? "yes"
              : "no, not " + report.renewals().notServingTheLast());
    }
    var repoint =
        report.steps().stream()
            .filter(s -> !s.expected().isEmpty())
            .mapToDouble(Step::secondsToRepoint)
            .sorted()
            .toArray();
    if (repoint.length > 0) {
      say(
          "time from a change to all its targets repointed: median %.1f s, max %.1f s (%d steps with moves)",
          repoint[repoint.length / 2], repoint[repoint.length - 1], repoint.length);
    }
    var watches = report.watches();
    say(
        "watch audit (a watch per target at v1 and at v2, reopened when ended): %d ended; target"
            + " CRDs whose generation changed: %d of %d %s",
        watches.endedTotal(),
        watches.writtenTargets().size(),
        watches.generationsAtStart().size(),
        watches.endedWatches());
    var r = report.routes();
    say(
        "routes: %d reviews answered where they arrived, %d forwarded to the holder and %d handed"
            + " over by a replica whose target had moved (%.1f %% in all), %d forwards found no"
            + " holder, %d failed; forwarding latency p50 ≤ %.2f ms, p99 ≤ %.2f ms (histogram"
            + " bucket bounds)",
        r.local(),
        r.forwarded(),
        r.handedOver(),
        100 * r.forwardedFraction(),
        r.noHolder(),
        r.forwardFailed(),
        r.forwardP50Millis(),
        r.forwardP99Millis());
    report.problems().forEach(p -> say("PROBLEM: %s", p));
    say(report.passed() ? "PASSED" : "FAILED");
  }

  private void say(String format, Object... args) {
    out.println(String.format(java.util.Locale.ROOT, format, args));
    out.flush();
  }

  // ---- main ----

  /**
   * {@code MovesUnderLoad [--duration 10m] [--rate 200] [--drain 30s] [--no-handover-gate]
   * [--per-server-endpoints] [--replicas 2] [--per-type 2] [--warm-up 20s] [--dwell 15s] [--pause
   * 3s] [--renew-every 20s] [--out FILE.json]}: starts its own control plane, runs cycles for the
   * duration, prints the report, writes it as JSON, and exits 0 only when nothing failed.
   */
  public static void main(String[] args) throws Exception {
    var flags = new LinkedHashMap<String, String>();
    for (int i = 0; i < args.length; i++) {
      var name = args[i].replaceFirst("^--", "");
      if (name.equals("no-handover-gate") || name.equals("per-server-endpoints")) {
        flags.put(name, "true");
      } else if (i + 1 < args.length) {
        flags.put(name, args[++i]);
      } else {
        System.err.println("--" + name + " needs a value");
        System.exit(2);
      }
    }
    var known =
        Set.of(
            "duration",
            "rate",
            "drain",
            "no-handover-gate",
            "per-server-endpoints",
            "replicas",
            "dwell",
            "pause",
            "out",
            "per-type",
            "warm-up",
            "renew-every",
            "steps");
    for (var name : flags.keySet()) {
      if (!known.contains(name)) {
        System.err.println("unknown flag --" + name + "; known: " + new TreeSet<>(known));
        System.exit(2);
      }
    }
    var settings =
        new Settings(
            dev.versio.cli.Durations.parse(flags.getOrDefault("duration", "10m")),
            Double.parseDouble(flags.getOrDefault("rate", "200")),
            dev.versio.cli.Durations.parse(flags.getOrDefault("drain", "30s")),
            !flags.containsKey("no-handover-gate"),
            Integer.parseInt(flags.getOrDefault("replicas", "2")),
            Integer.parseInt(flags.getOrDefault("per-type", "2")),
            dev.versio.cli.Durations.parse(flags.getOrDefault("warm-up", "20s")),
            dev.versio.cli.Durations.parse(flags.getOrDefault("dwell", "15s")),
            dev.versio.cli.Durations.parse(flags.getOrDefault("pause", "3s")),
            !flags.containsKey("per-server-endpoints"),
            dev.versio.cli.Durations.parse(flags.getOrDefault("renew-every", "20s")),
            Integer.parseInt(flags.getOrDefault("steps", "0")));
    var workDir = Files.createTempDirectory("versio-moves-");
    PrintStream out = System.out;
    out.printf(
        "# Versio moves under load, %s; %d cores; settings %s%n",
        Instant.now(), Runtime.getRuntime().availableProcessors(), settings);
    Report report;
    try (var controlPlane =
        ControlPlane.start(
            ControlPlaneAssets.locate(), workDir.resolve("cluster"), System.err::println)) {
      report = run(controlPlane, settings, workDir, out);
    }
    if (flags.containsKey("out")) {
      var file = Path.of(flags.get("out"));
      if (file.toAbsolutePath().getParent() != null) {
        Files.createDirectories(file.toAbsolutePath().getParent());
      }
      JSON.writeValue(file.toFile(), report);
      out.println("report written to " + file);
    }
    System.exit(report.passed() ? 0 : 1);
  }
}
