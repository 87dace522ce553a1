package dev.versio.coordination.chaos;

import dev.versio.coordination.shard.ObjectKey;
import dev.versio.coordination.shard.RendezvousAssignment;
import dev.versio.coordination.shard.ShardFunction;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;

/**
 * Drives replicas of {@link DemoWorker} through crashes (SIGKILL), planned stops (SIGTERM),
 * restarts, scale-out and scale-in, with ConfigMap churn and clock offsets, and measures what users
 * feel: how long the keys of a lost replica wait for their new owner, and how many shards move on
 * each join.
 */
final class ChaosRun {
  /** Parameters; {@link #fromSystemProperties()} reads {@code chaos.*}. */
  record Parameters(
      int replicas,
      int disruptions,
      int shards,
      int keys,
      int leaseSeconds,
      long renewMillis,
      long deadlineMillis,
      long retryMillis,
      double resyncPerSecond,
      double maxClockOffsetSeconds,
      long seed) {
    static Parameters fromSystemProperties() {
      return new Parameters(
          Integer.getInteger("chaos.replicas", 3),
          Integer.getInteger("chaos.disruptions", 4),
          Integer.getInteger("chaos.shards", 256),
          Integer.getInteger("chaos.keys", 60),
          Integer.getInteger("chaos.leaseSeconds", 6),
          Long.getLong("chaos.renewMillis", 2_000),
          Long.getLong("chaos.deadlineMillis", 3_500),
          Long.getLong("chaos.retryMillis", 500),
          Double.parseDouble(System.getProperty("chaos.resyncPerSecond", "20")),
          Double.parseDouble(System.getProperty("chaos.maxClockOffsetSeconds", "10")),
          Long.getLong("chaos.seed", System.nanoTime()));
    }

    Duration crashBound() {
      return Duration.ofSeconds(leaseSeconds).plusMillis(renewMillis).plusSeconds(3);
    }
  }

  enum Kind {
    KILL,
    TERM,
    ADD,
    REMOVE
  }

  /** One disruption and what it cost. */
  record Disruption(
      Kind kind,
      String replica,
      int membersBefore,
      int affectedKeys,
      double seconds,
      double shardGapSeconds,
      int shardsMoved,
      int movedBetweenStaying) {}

  /**
   * Shards whose holder changed between two snapshots, and of those the ones that moved between two
   * members other than the one that joined or left.
   */
  record Moves(int moved, int betweenStaying) {
    static Moves of(Map<Integer, String> before, Map<Integer, String> after, String changed) {
      int moved = 0;
      int between = 0;
      for (var e : before.entrySet()) {
        var now = after.get(e.getKey());
        if (!e.getValue().equals(now)) {
          moved++;
          if (!e.getValue().equals(changed) && !changed.equals(now)) {
            between++;
          }
        }
      }
      return new Moves(moved, between);
    }
  }

  private final Parameters p;
  private final KubernetesClient client;
  private final String namespace;
  private final Path kubeconfig;
  private final Path logs;
  private final Random random;
  private final ShardFunction shardFunction;
  private final Map<String, WorkerProcess> running = new LinkedHashMap<>();
  private final List<Disruption> disruptions = new ArrayList<>();
  private final List<Double> joinMoveRatios = new ArrayList<>();
  private final List<Disruption> joins = new ArrayList<>();
  private final List<ObjectKey> keys = new ArrayList<>();
  private WriteAuditor auditor;
  private int nextId;
  private int churn;
  private String unsteady = "";

  ChaosRun(Parameters p, KubernetesClient client, String namespace, Path kubeconfig, Path logs) {
    this.p = p;
    this.client = client;
    this.namespace = namespace;
    this.kubeconfig = kubeconfig;
    this.logs = logs;
    this.random = new Random(p.seed());
    this.shardFunction = new ShardFunction(p.shards());
  }

  WriteAuditor auditor() {
    return auditor;
  }

  List<Disruption> disruptions() {
    return disruptions;
  }

  /** Every join: scale-outs and restarts after a crash or planned stop. */
  List<Disruption> joins() {
    var all = new ArrayList<Disruption>(joins);
    disruptions.stream().filter(d -> d.kind() == Kind.ADD).forEach(all::add);
    return all;
  }

  List<Double> joinMoveRatios() {
    return joinMoveRatios;
  }

  Set<String> running() {
    return running.keySet();
  }

  void run() throws Exception {
    auditor = new WriteAuditor(client, namespace, shardFunction);
    for (int i = 0; i < p.keys(); i++) {
      createKey("cm-" + i);
    }
    var first = new ArrayList<WorkerProcess>();
    for (int i = 0; i < p.replicas(); i++) {
      first.add(launch(newId()));
    }
    for (var w : first) {
      w.awaitReady();
    }
    awaitSteady("initial start");
    for (int i = 0; i < p.disruptions(); i++) {
      var kind = nextKind(i);
      churn();
      switch (kind) {
        case KILL -> crash();
        case TERM -> plannedStop(true);
        case REMOVE -> plannedStop(false);
        case ADD -> join(newId(), Kind.ADD);
      }
      var last = disruptions.getLast();
      System.out.printf(
          java.util.Locale.ROOT,
          "[%d/%d] %-6s %-9s members %d: shards re-held %.2f s, keys rewritten %.2f s, moved %d%n",
          i + 1,
          p.disruptions(),
          last.kind(),
          last.replica(),
          running.size(),
          last.shardGapSeconds(),
          last.seconds(),
          last.shardsMoved());
      auditor
          .broken()
          .ifPresent(
              b -> {
                throw new IllegalStateException(b);
              });
    }
  }

  /** Lease updates per second over a quiet window with the current members. */
  double leaseWritesPerSecond(Duration window) throws InterruptedException {
    long before = auditor.leaseUpdates();
    Thread.sleep(window.toMillis()); // a measurement window, not a wait for logic
    return (auditor.leaseUpdates() - before) / (window.toMillis() / 1000.0);
  }

  /**
   * Writes an owner annotation as a replica that owns nothing, so the test can show that the audit
   * does catch a write by a non-owner.
   */
  ObjectKey intrude() throws InterruptedException {
    var key = keys.getFirst();
    client
        .configMaps()
        .inNamespace(namespace)
        .withName(key.name())
        .edit(
            cm ->
                new ConfigMapBuilder(cm)
                    .editMetadata()
                    .addToAnnotations(DemoWorker.OWNER, "intruder/999")
                    .endMetadata()
                    .build());
    auditor.sync(client, namespace);
    return key;
  }

  /**
   * The live-lane queue waits the replicas reported when they stopped (crashed ones report
   * nothing): total events, the largest per-replica p99 and the largest single wait, in ms.
   */
  double[] liveQueueWaits() throws java.io.IOException {
    long n = 0;
    double worstP99 = 0;
    double max = 0;
    try (var files = java.nio.file.Files.list(logs)) {
      for (var file : files.filter(f -> f.toString().endsWith(".log")).toList()) {
        for (var line : java.nio.file.Files.readAllLines(file)) {
          var m =
              java.util.regex.Pattern.compile(
                      "QUEUE-WAIT live n=(\\d+) p99=([\\d.]+) max=([\\d.]+)")
                  .matcher(line);
          if (m.find()) {
            n += Long.parseLong(m.group(1));
            worstP99 = Math.max(worstP99, Double.parseDouble(m.group(2)));
            max = Math.max(max, Double.parseDouble(m.group(3)));
          }
        }
      }
    }
    return new double[] {n, worstP99, max};
  }

  /** Planned stop of every replica (their releases are audited too). */
  void stopWorkers() throws InterruptedException {
    for (var w : running.values()) {
      w.terminate();
    }
    running.clear();
  }

  void stopAll() throws InterruptedException {
    for (var w : running.values()) {
      w.terminate();
    }
    running.clear();
    if (auditor != null) {
      auditor.close();
    }
  }

  private Kind nextKind(int i) {
    if (p.disruptions() <= 4) {
      return List.of(Kind.KILL, Kind.TERM, Kind.ADD, Kind.REMOVE).get(i % 4);
    }
    if (running.size() <= 2) {
      return random.nextBoolean() ? Kind.ADD : Kind.KILL;
    }
    if (running.size() >= 5) {
      return random.nextBoolean() ? Kind.REMOVE : Kind.KILL;
    }
    // crashes are what the long run is about: half of all disruptions
    int r = random.nextInt(8);
    return r < 4 ? Kind.KILL : r < 6 ? Kind.TERM : r < 7 ? Kind.ADD : Kind.REMOVE;
  }

  private void crash() throws Exception {
    var victim = randomRunning();
    var before = holdersNow();
    var affected = keysHeldBy(victim, before);
    long t0 = System.nanoTime();
    running.remove(victim).kill();
    double seconds = awaitNewOwners(victim, affected, t0, p.crashBound().plusSeconds(30));
    disruptions.add(
        new Disruption(
            Kind.KILL,
            victim,
            running.size() + 1,
            affected.size(),
            seconds,
            shardGap(victim, before, t0),
            -1,
            -1));
    awaitSteady("after killing " + victim);
    join(victim, Kind.KILL); // restarted under the same id, like a StatefulSet pod
  }

  private void plannedStop(boolean restart) throws Exception {
    var victim = randomRunning();
    var before = holdersNow();
    var affected = keysHeldBy(victim, before);
    long t0 = System.nanoTime();
    var process = running.remove(victim);
    process.terminate();
    double seconds = awaitNewOwners(victim, affected, t0, Duration.ofSeconds(30));
    awaitSteady("after stopping " + victim);
    double gap = shardGap(victim, before, t0);
    var moves = Moves.of(before, holdersNow(), victim);
    disruptions.add(
        new Disruption(
            restart ? Kind.TERM : Kind.REMOVE,
            victim,
            running.size() + 1,
            affected.size(),
            seconds,
            gap,
            moves.moved(),
            moves.betweenStaying()));
    if (restart) {
      join(victim, Kind.TERM);
    }
  }

  private void join(String id, Kind cause) throws Exception {
    var before = holdersNow();
    int membersBefore = running.size();
    var worker = launch(id);
    worker.awaitReady();
    awaitSteady("after " + id + " joined");
    var moves = Moves.of(before, holdersNow(), id);
    int moved = moves.moved();
    int between = moves.betweenStaying();
    joinMoveRatios.add(moved / (double) p.shards() * (membersBefore + 1));
    if (cause == Kind.ADD) {
      disruptions.add(new Disruption(Kind.ADD, id, membersBefore, 0, 0, 0, moved, between));
    } else {
      joins.add(new Disruption(Kind.ADD, id, membersBefore, 0, 0, 0, moved, between));
    }
  }

  private double awaitNewOwners(String victim, List<ObjectKey> affected, long t0, Duration timeout)
      throws InterruptedException {
    long deadline = t0 + timeout.toNanos();
    while (true) {
      long latest = 0;
      boolean done = true;
      for (var key : affected) {
        var write = auditor.lastWrite(key);
        if (write.isEmpty()
            || write.get().owner().equals(victim)
            || write.get().receivedNanos() < t0) {
          done = false;
          break;
        }
        latest = Math.max(latest, write.get().receivedNanos());
      }
      if (done) {
        return affected.isEmpty() ? 0 : (latest - t0) / 1e9;
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError(
            "keys of " + victim + " were not all written by a new owner within " + timeout);
      }
      Thread.sleep(20); // polling the auditor's view of real writes
    }
  }

  private void awaitSteady(String when) throws InterruptedException {
    awaitCondition(
        "steady state " + when, Duration.ofSeconds(p.leaseSeconds() * 4L + 30), this::steady);
  }

  private boolean steady() {
    var holders = auditor.holders();
    var expected = RendezvousAssignment.assign(running.keySet(), p.shards());
    if (expected.isEmpty()) {
      unsteady = "no members";
      return false;
    }
    for (var e : expected.entrySet()) {
      var holder = holders.get(e.getKey());
      if (holder == null || !holder.id().equals(e.getValue())) {
        unsteady =
            "shard "
                + e.getKey()
                + " held by "
                + (holder == null ? "nobody" : holder.id())
                + ", expected "
                + e.getValue();
        return false;
      }
    }
    for (var key : keys) {
      var holder = holders.get(shardFunction.shardOf(key));
      var write = auditor.lastWrite(key);
      if (write.isEmpty()
          || !write.get().owner().equals(holder.id())
          || write.get().epoch() != holder.epoch()) {
        unsteady =
            key.name()
                + " (shard "
                + shardFunction.shardOf(key)
                + " held by "
                + holder.id()
                + "/"
                + holder.epoch()
                + ") last written by "
                + write.map(w -> w.owner() + "/" + w.epoch()).orElse("nobody");
        return false;
      }
    }
    unsteady = "";
    return true;
  }

  private void awaitCondition(String what, Duration timeout, BooleanSupplier condition)
      throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean()) {
      auditor
          .broken()
          .ifPresent(
              b -> {
                throw new IllegalStateException("waiting for " + what + ": " + b);
              });
      if (System.nanoTime() > deadline) {
        var perHolder = new TreeMap<String, Integer>();
        auditor.holders().values().forEach(h -> perHolder.merge(h.id(), 1, Integer::sum));
        throw new AssertionError(
            "no "
                + what
                + " within "
                + timeout
                + "; shards per holder "
                + perHolder
                + ", running "
                + running.keySet()
                + "; first difference: "
                + unsteady);
      }
      Thread.sleep(50); // polling real apiserver state
    }
  }

  /** Seconds from {@code t0} until the last shard of {@code victim} had a new holder. */
  private double shardGap(String victim, Map<Integer, String> before, long t0) {
    long latest = t0;
    for (var e : before.entrySet()) {
      if (e.getValue().equals(victim)) {
        latest = Math.max(latest, auditor.heldSince(e.getKey()));
      }
    }
    return (latest - t0) / 1e9;
  }

  private Map<Integer, String> holdersNow() {
    var out = new TreeMap<Integer, String>();
    auditor.holders().forEach((s, h) -> out.put(s, h.id()));
    return out;
  }

  private List<ObjectKey> keysHeldBy(String victim, Map<Integer, String> holders) {
    return keys.stream().filter(k -> victim.equals(holders.get(shardFunction.shardOf(k)))).toList();
  }

  private String randomRunning() {
    var ids = new ArrayList<>(running.keySet());
    return ids.get(random.nextInt(ids.size()));
  }

  private void churn() {
    // a new key and a data change on an old one, so that live events flow during every disruption
    createKey("churn-" + churn++);
    var key = keys.get(random.nextInt(keys.size()));
    // a JSON merge patch without resourceVersion: the replicas write the same objects meanwhile
    client
        .configMaps()
        .inNamespace(namespace)
        .withName(key.name())
        .patch(
            io.fabric8.kubernetes.client.dsl.base.PatchContext.of(
                io.fabric8.kubernetes.client.dsl.base.PatchType.JSON_MERGE),
            "{\"data\":{\"tick\":\"" + churn + "\"}}");
  }

  private void createKey(String name) {
    client
        .configMaps()
        .inNamespace(namespace)
        .resource(
            new ConfigMapBuilder()
                .withNewMetadata()
                .withName(name)
                .addToLabels(DemoWorker.LABEL, "demo")
                .endMetadata()
                .addToData("tick", "0")
                .build())
        .create();
    keys.add(new ObjectKey(namespace, name));
  }

  private String newId() {
    return "worker-" + nextId++;
  }

  private WorkerProcess launch(String id) throws Exception {
    double offset = (random.nextDouble() * 2 - 1) * p.maxClockOffsetSeconds();
    var worker =
        WorkerProcess.start(
            id,
            logs,
            List.of(
                kubeconfig.toString(),
                namespace,
                id,
                Double.toString(offset),
                Integer.toString(p.shards()),
                Integer.toString(p.leaseSeconds()),
                Long.toString(p.renewMillis()),
                Long.toString(p.deadlineMillis()),
                Long.toString(p.retryMillis()),
                Double.toString(p.resyncPerSecond())));
    running.put(id, worker);
    return worker;
  }
}
