package dev.versio.bench.operator;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.management.GarbageCollectionNotificationInfo;
import dev.versio.operator.OperatorOptions;
import dev.versio.operator.VersioOperator;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.NotificationEmitter;
import javax.management.openmbean.CompositeData;

/**
 * The operator side of {@link OperatorScale}: one {@link VersioOperator} with {@link
 * OperatorOptions#defaults} (fan-out 50/s, 4 reconcile threads, no admission) and nothing else in
 * this JVM, so its heap and CPU are the operator's own. Driven over standard input, one command a
 * line; every answer is one line {@code BENCH <json>} on standard output (logs go to stderr).
 *
 * <ul>
 *   <li>{@code stats}: JOSDK's reconcile counters per controller, {@code versio_operator_writes}
 *       per kind, heap now, peak heap since start and since the last {@code reset}, GC and CPU time
 *       of this process
 *   <li>{@code reset}: starts a new peak-heap window
 *   <li>{@code gc}: runs full collections until the heap in use stops falling (live heap)
 *   <li>{@code quit}: stops the operator and exits
 * </ul>
 *
 * <p>Peak heap is the largest heap in use seen by a 10 ms sampler or just before any collection (GC
 * notifications), so short peaks between samples are caught too.
 *
 * <p>Usage: {@code OperatorProcess <kubeconfig> [--front-url URL]}: with {@code --front-url}, the
 * operator points every shared server's targets at that one address (the pool's front).
 */
public final class OperatorProcess {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** The operator's reconcile threads here unless {@code -D}{@value #THREADS_PROPERTY} says. */
  static final int DEFAULT_THREADS = 4;

  /** Another count, e.g. {@code --operator-jvm-args "-Dbench.operator.reconcileThreads=12"}. */
  static final String THREADS_PROPERTY = "bench.operator.reconcileThreads";

  /** The reconcile threads an operator JVM started with {@code jvmArgs} runs. */
  static int reconcileThreads(List<String> jvmArgs) {
    var prefix = "-D" + THREADS_PROPERTY + "=";
    return jvmArgs.stream()
        .filter(a -> a.startsWith(prefix))
        .map(a -> Integer.parseInt(a.substring(prefix.length())))
        .reduce((first, last) -> last) // the JVM takes the last one given
        .orElse(DEFAULT_THREADS);
  }

  private static final AtomicLong PEAK_SINCE_START = new AtomicLong();
  private static final AtomicLong PEAK_IN_WINDOW = new AtomicLong();

  private OperatorProcess() {}

  public static void main(String[] args) throws Exception {
    watchHeap();
    var config = Config.fromKubeconfig(Files.readString(Path.of(args[0])));
    String frontUrl = args.length == 3 && args[1].equals("--front-url") ? args[2] : null;
    var client = new KubernetesClientBuilder().withConfig(config).build();
    long started = System.nanoTime();
    OperatorScale.createSystemNamespace(client);
    var operator =
        VersioOperator.start(
            client,
            OperatorOptions.defaults("versio-system").toBuilder()
                .reconcileThreads(Integer.getInteger(THREADS_PROPERTY, DEFAULT_THREADS))
                // a lab: replicas are processes (URL mode), every CRD here is the lab's own
                .allowUrlMode(true)
                .targetGroups(java.util.List.of("*"))
                .frontUrl(frontUrl)
                .build(),
            Clock.systemUTC());
    var ready = new LinkedHashMap<String, Object>();
    ready.put("ready", true);
    ready.put("startMillis", (System.nanoTime() - started) / 1_000_000);
    answer(ready);
    var in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    String line;
    while ((line = in.readLine()) != null) {
      switch (line.trim()) {
        case "stats" -> answer(stats(operator.metrics().registry()));
        case "reset" -> {
          PEAK_IN_WINDOW.set(heapUsed());
          answer(Map.of("reset", true));
        }
        case "gc" -> answer(Map.of("liveHeapBytes", liveHeap()));
        case "quit" -> {
          operator.close();
          client.close();
          answer(Map.of("stopped", true));
          System.exit(0);
        }
        default -> answer(Map.of("error", "unknown command " + line));
      }
    }
    operator.close();
    client.close();
    System.exit(0);
  }

  private static void answer(Map<String, Object> values) throws Exception {
    System.out.println("BENCH " + JSON.writeValueAsString(values));
    System.out.flush();
  }

  private static Map<String, Object> stats(MeterRegistry registry) {
    var out = new LinkedHashMap<String, Object>();
    var reconciles = new TreeMap<String, Double>();
    var writes = new TreeMap<String, Double>();
    var timers = new TreeMap<String, Map<String, Double>>();
    for (var meter : registry.getMeters()) {
      var id = meter.getId();
      if (meter instanceof Timer timer
          && (id.getName().startsWith("reconciliations.execution")
              || id.getName().equals("versio.operator.apply.duration"))) {
        var key =
            id.getName()
                + "{"
                + (id.getTag("controller.name") != null
                    ? id.getTag("controller.name")
                    : id.getTag("result"))
                + "}";
        var t = timers.computeIfAbsent(key, k -> new TreeMap<>());
        t.merge("count", (double) timer.count(), Double::sum);
        t.merge("totalMillis", timer.totalTime(TimeUnit.MILLISECONDS), Double::sum);
        t.merge("maxMillis", timer.max(TimeUnit.MILLISECONDS), Math::max);
        continue;
      }
      if (!(meter instanceof Counter counter)) {
        continue;
      }
      if (id.getName().startsWith("reconciliations.")) {
        var key = id.getName() + "{" + id.getTag("controller.name") + "}";
        reconciles.merge(key, counter.count(), Double::sum);
      } else if (id.getName().equals("versio.operator.writes")) {
        writes.merge(id.getTag("kind") + "/" + id.getTag("result"), counter.count(), Double::sum);
      }
    }
    out.put("reconciles", reconciles);
    out.put("writes", writes);
    out.put("timers", timers);
    out.put("heapUsedBytes", heapUsed());
    out.put(
        "heapCommittedBytes",
        ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getCommitted());
    out.put("heapMaxBytes", ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getMax());
    out.put("peakHeapSinceStartBytes", PEAK_SINCE_START.get());
    out.put("peakHeapInWindowBytes", PEAK_IN_WINDOW.get());
    long gcCount = 0;
    long gcMillis = 0;
    for (var gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      gcCount += Math.max(0, gc.getCollectionCount());
      gcMillis += Math.max(0, gc.getCollectionTime());
    }
    out.put("gcCount", gcCount);
    out.put("gcMillis", gcMillis);
    var os = ManagementFactory.getOperatingSystemMXBean();
    if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
      out.put("cpuMillis", sun.getProcessCpuTime() / 1_000_000);
    }
    out.put("threads", ManagementFactory.getThreadMXBean().getThreadCount());
    out.put("threadCpuMillis", threadCpu());
    return out;
  }

  /**
   * CPU time of this process by kind of thread, from {@code /proc/self/task} so that the JVM's own
   * threads count too: {@code jit} (C1/C2 compiler threads), {@code gc}, {@code jvm} (other JVM
   * threads), {@code sampler} (this harness's heap sampler) and {@code application} (everything
   * else: reconcilers, HTTP client, informers). Empty where there is no {@code /proc}.
   */
  private static Map<String, Long> threadCpu() {
    var out = new TreeMap<String, Long>();
    long tick = 10; // USER_HZ is 100 on Linux
    try (var tasks = Files.list(Path.of("/proc/self/task"))) {
      for (var task : tasks.toList()) {
        String stat;
        try {
          stat = Files.readString(task.resolve("stat"));
        } catch (java.io.IOException e) {
          continue; // the thread ended meanwhile
        }
        var name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
        var fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
        out.merge(kindOf(name), ticks * tick, Long::sum);
      }
    } catch (java.io.IOException | RuntimeException e) {
      return Map.of();
    }
    return out;
  }

  private static String kindOf(String thread) {
    if (thread.startsWith("C1 Compiler") || thread.startsWith("C2 Compiler")) {
      return "jit";
    }
    if (thread.startsWith("GC ") || thread.startsWith("G1 ")) {
      return "gc";
    }
    if (thread.startsWith("bench-heap")) {
      return "sampler";
    }
    for (var jvm :
        List.of(
            "VM ",
            "Signal Dispatch",
            "Service Thread",
            "Monitor Deflati",
            "Common-Cleaner",
            "Notification Th",
            "Finalizer",
            "Reference Handl",
            "Attach Listener",
            "java")) {
      if (thread.startsWith(jvm)) {
        return "jvm";
      }
    }
    return "application";
  }

  private static long heapUsed() {
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  private static void record(long used) {
    PEAK_SINCE_START.accumulateAndGet(used, Math::max);
    PEAK_IN_WINDOW.accumulateAndGet(used, Math::max);
  }

  private static void watchHeap() {
    var heapPools =
        ManagementFactory.getMemoryPoolMXBeans().stream()
            .filter(p -> p.getType() == MemoryType.HEAP)
            .map(p -> p.getName())
            .toList();
    for (var gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      if (gc instanceof NotificationEmitter emitter) {
        emitter.addNotificationListener(
            (notification, handback) -> {
              if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(
                  notification.getType())) {
                return;
              }
              var info =
                  GarbageCollectionNotificationInfo.from(
                      (CompositeData) notification.getUserData());
              long before = 0;
              for (var entry : info.getGcInfo().getMemoryUsageBeforeGc().entrySet()) {
                if (heapPools.contains(entry.getKey())) {
                  before += entry.getValue().getUsed();
                }
              }
              record(before);
            },
            null,
            null);
      }
    }
    Thread.ofPlatform()
        .daemon()
        .name("bench-heap-sampler")
        .start(
            () -> {
              while (true) {
                record(heapUsed());
                try {
                  Thread.sleep(10); // sampling the heap for the peak figure
                } catch (InterruptedException e) {
                  return;
                }
              }
            });
  }

  /** Full collections until the heap in use stops falling; returns it. */
  static long liveHeap() {
    long last = Long.MAX_VALUE;
    for (int i = 0; i < 5; i++) {
      System.gc();
      long used = heapUsed();
      if (used >= last * 0.99) {
        return Math.min(used, last);
      }
      last = used;
    }
    return last;
  }
}
