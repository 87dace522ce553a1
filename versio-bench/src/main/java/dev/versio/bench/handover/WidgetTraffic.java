package dev.versio.bench.handover;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Sustained reads and writes of Widgets at {@code v1}, a version that is not stored, so every
 * request goes through the conversion webhook: a write is one JSON merge patch of {@code spec.size}
 * (the stored object converted to {@code v1}, patched, converted in to {@code v2}, stored,
 * converted back out), a read is one GET. Requests are sent at a fixed rate; each object is touched
 * by one request at a time and its expected value is known, so a wrong value is caught: a write
 * must echo what it wrote, a read must return the last value written (either candidate after a
 * write that failed). Latency counts from the scheduled send time; requests still queued when the
 * run stops count as unfinished, i.e. failed.
 */
final class WidgetTraffic implements AutoCloseable {
  /** One Widget type's address at the spoke version. */
  record WidgetType(String group, String plural, String kind) {
    ResourceDefinitionContext v1() {
      return new ResourceDefinitionContext.Builder()
          .withGroup(group)
          .withVersion("v1")
          .withPlural(plural)
          .withKind(kind)
          .withNamespaced(true)
          .build();
    }
  }

  /** A second of the run (from its start) in which {@code requests} took over a second. */
  record SlowSecond(long second, long requests, long maxMillis) {}

  /** Seconds since the traffic started. */
  double elapsedSeconds() {
    return (System.nanoTime() - startedNanos) / 1e9;
  }

  /** A failed or wrong request, kept for the report. */
  record Incident(double second, String kind, String object, String what) {}

  private static final int MAX_INCIDENTS = 200;

  private final KubernetesClient client;
  private final String namespace;
  private final double ratePerSecond;
  private final BlockingQueue<Widget> idle;
  private final List<Widget> widgets = new ArrayList<>();
  private final BlockingQueue<Long> tickets = new LinkedBlockingQueue<>();
  private final ScheduledExecutorService scheduler =
      Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "traffic-schedule"));
  private final List<Thread> workers = new ArrayList<>();
  private final AtomicLong reads = new AtomicLong();
  private final AtomicLong writes = new AtomicLong();
  private final AtomicLong failed = new AtomicLong();
  private final AtomicLong wrong = new AtomicLong();
  private final AtomicLong scheduled = new AtomicLong();
  private final java.util.concurrent.atomic.AtomicInteger inFlight =
      new java.util.concurrent.atomic.AtomicInteger();
  private final Map<String, AtomicLong> causes = new ConcurrentHashMap<>();
  private final ConcurrentLinkedQueue<Incident> incidents = new ConcurrentLinkedQueue<>();
  private final ConcurrentLinkedQueue<long[]> latencies = new ConcurrentLinkedQueue<>();
  private volatile boolean running;
  private long startedNanos;
  private long stoppedNanos;
  private long unfinished;

  private static final class Widget {
    final WidgetType type;
    final String name;
    long sequence;
    Set<Long> expected;
    boolean writeNext = true;

    Widget(WidgetType type, String name, long initial) {
      this.type = type;
      this.name = name;
      this.sequence = initial;
      this.expected = Set.of(initial);
    }

    String id() {
      return type.plural() + "/" + name;
    }

    GenericKubernetesResource stub(String namespace) {
      return new GenericKubernetesResourceBuilder()
          .withApiVersion(type.group() + "/v1")
          .withKind(type.kind())
          .withNewMetadata()
          .withName(name)
          .withNamespace(namespace)
          .endMetadata()
          .build();
    }
  }

  /**
   * Creates {@code perType} Widgets of each type in {@code namespace} (through the webhook, at v1)
   * and prepares {@code workers} senders at {@code ratePerSecond}.
   */
  WidgetTraffic(
      KubernetesClient client,
      String namespace,
      List<WidgetType> types,
      int perType,
      double ratePerSecond,
      int workerCount) {
    this.client = client;
    this.namespace = namespace;
    this.ratePerSecond = ratePerSecond;
    for (var type : types) {
      for (int i = 0; i < perType; i++) {
        var widget = new Widget(type, "w" + i, 1);
        var object =
            new GenericKubernetesResourceBuilder()
                .withApiVersion(type.group() + "/v1")
                .withKind(type.kind())
                .withNewMetadata()
                .withName(widget.name)
                .withNamespace(namespace)
                .endMetadata()
                .addToAdditionalProperties("spec", Map.of("size", 1, "engine", "diesel"))
                .build();
        client
            .genericKubernetesResources(type.v1())
            .inNamespace(namespace)
            .resource(object)
            .create();
        widgets.add(widget);
      }
    }
    this.idle = new ArrayBlockingQueue<>(widgets.size(), false, widgets);
    for (int i = 0; i < workerCount; i++) {
      workers.add(Thread.ofPlatform().name("traffic-" + i).daemon().unstarted(this::work));
    }
  }

  /** Starts sending at the fixed rate. */
  void start() {
    running = true;
    startedNanos = System.nanoTime();
    workers.forEach(Thread::start);
    long periodNanos = (long) (1_000_000_000L / ratePerSecond);
    scheduler.scheduleAtFixedRate(
        () -> {
          scheduled.incrementAndGet();
          tickets.add(System.nanoTime());
        },
        0,
        periodNanos,
        TimeUnit.NANOSECONDS);
  }

  /**
   * Stops scheduling, lets the senders finish what is queued for up to {@code grace}, and counts
   * what is left as unfinished.
   */
  Result stop(Duration grace) throws InterruptedException {
    scheduler.shutdownNow();
    stoppedNanos = System.nanoTime();
    long deadline = System.nanoTime() + grace.toNanos();
    while ((!tickets.isEmpty() || inFlight.get() > 0) && System.nanoTime() < deadline) {
      Thread.sleep(50); // waiting for other threads' requests to finish
    }
    running = false;
    unfinished = tickets.size() + inFlight.get();
    tickets.clear();
    for (var worker : workers) {
      worker.interrupt(); // only idle ones are left, waiting for a ticket
      worker.join(grace.toMillis() + 15_000);
    }
    return result();
  }

  /**
   * Forgets the latencies so far (a warm-up); requests, failures and wrong values keep counting
   * from the start.
   */
  void resetLatencies() {
    latencies.clear();
  }

  private void work() {
    while (true) {
      long ticket;
      try {
        ticket = tickets.take();
      } catch (InterruptedException e) {
        return;
      }
      Widget widget;
      inFlight.incrementAndGet();
      try {
        widget = idle.take();
      } catch (InterruptedException e) {
        inFlight.decrementAndGet();
        tickets.add(ticket);
        return;
      }
      try {
        if (widget.writeNext) {
          write(widget);
        } else {
          read(widget);
        }
        widget.writeNext = !widget.writeNext;
      } finally {
        long now = System.nanoTime();
        latencies.add(new long[] {now - ticket, now - startedNanos});
        idle.add(widget);
        inFlight.decrementAndGet();
      }
      if (!running && tickets.isEmpty()) {
        return;
      }
    }
  }

  private void write(Widget widget) {
    writes.incrementAndGet();
    long value = widget.sequence + 1;
    var before = widget.expected;
    try {
      var answer =
          client
              .genericKubernetesResources(widget.type.v1())
              .inNamespace(namespace)
              // with the object given, the client sends the PATCH alone (no GET first)
              .resource(widget.stub(namespace))
              .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"size\":" + value + "}}");
      widget.sequence = value;
      widget.expected = Set.of(value);
      var echoed = size(answer);
      if (echoed == null || echoed != value) {
        wrong(widget, "write", "wrote size " + value + ", the answer says " + echoed);
      }
    } catch (RuntimeException e) {
      widget.sequence = value;
      var candidates = new java.util.HashSet<>(before);
      candidates.add(value);
      widget.expected = Set.copyOf(candidates);
      fail(widget, "write", e);
    }
  }

  private void read(Widget widget) {
    reads.incrementAndGet();
    try {
      var answer =
          client
              .genericKubernetesResources(widget.type.v1())
              .inNamespace(namespace)
              .withName(widget.name)
              .get();
      var got = answer == null ? null : size(answer);
      if (got == null || !widget.expected.contains(got)) {
        wrong(widget, "read", "expected size " + widget.expected + ", read " + got);
      } else {
        widget.expected = Set.of(got);
      }
    } catch (RuntimeException e) {
      fail(widget, "read", e);
    }
  }

  private static Long size(GenericKubernetesResource object) {
    var spec = object.getAdditionalProperties().get("spec");
    if (spec instanceof Map<?, ?> map && map.get("size") instanceof Number n) {
      return n.longValue();
    }
    return null;
  }

  private void fail(Widget widget, String kind, RuntimeException e) {
    failed.incrementAndGet();
    var message = String.valueOf(e.getMessage()).lines().findFirst().orElse("");
    var code =
        e instanceof KubernetesClientException k
            ? "HTTP " + k.getCode()
            : e.getClass().getSimpleName();
    var cause = kind + ": " + code + ": " + shorten(message);
    causes.computeIfAbsent(cause, k -> new AtomicLong()).incrementAndGet();
    incident(widget, kind, code + ": " + shorten(message));
  }

  private void wrong(Widget widget, String kind, String what) {
    wrong.incrementAndGet();
    incident(widget, kind + " (wrong value)", what);
  }

  private void incident(Widget widget, String kind, String what) {
    if (incidents.size() < MAX_INCIDENTS) {
      incidents.add(new Incident(elapsedSeconds(), kind, widget.id(), what));
    }
  }

  /** The error's message without the object-specific tail, so equal causes group together. */
  private static String shorten(String message) {
    var s =
        message
            .replaceAll("^Failure executing: \\S+ at: \\S+\\. ", "")
            .replaceAll("\\. Received status: .*$", "")
            .replaceAll("\\b[a-z0-9-]+(\\.[a-z0-9-]+)+\\.[a-z]{2,}\\b", "<name>")
            .replaceAll("Kind=\\w+", "Kind=<kind>")
            .replaceAll("\\b[0-9a-f]{8}-[0-9a-f-]{27}\\b", "<uid>");
    return s.length() > 160 ? s.substring(0, 160) + "…" : s;
  }

  /** The traffic's figures so far. */
  Result result() {
    long end = stoppedNanos == 0 ? System.nanoTime() : stoppedNanos;
    double seconds = (end - startedNanos) / 1e9;
    long[] all = latencies.stream().mapToLong(l -> l[0]).toArray();
    Arrays.sort(all);
    // seconds of the run (by completion) in which some request took more than a second
    var slow = new TreeMap<Long, long[]>();
    for (var l : latencies) {
      if (l[0] > 1_000_000_000L) {
        var bucket = slow.computeIfAbsent(l[1] / 1_000_000_000L, k -> new long[2]);
        bucket[0]++;
        bucket[1] = Math.max(bucket[1], l[0] / 1_000_000);
      }
    }
    var slowSeconds = new ArrayList<SlowSecond>();
    slow.forEach((second, b) -> slowSeconds.add(new SlowSecond(second, b[0], b[1])));
    return new Result(
        reads.get(),
        writes.get(),
        failed.get() + unfinished,
        wrong.get(),
        unfinished,
        scheduled.get(),
        seconds,
        (reads.get() + writes.get()) / seconds,
        ratePerSecond,
        percentile(all, 0.50),
        percentile(all, 0.99),
        all.length == 0 ? 0 : all[all.length - 1] / 1e6,
        slowSeconds,
        new TreeMap<>(
            causes.entrySet().stream()
                .collect(
                    java.util.stream.Collectors.toMap(Map.Entry::getKey, e -> e.getValue().get()))),
        List.copyOf(incidents));
  }

  private static double percentile(long[] sorted, double p) {
    if (sorted.length == 0) {
      return 0;
    }
    int i = (int) Math.ceil(p * sorted.length) - 1;
    return sorted[Math.max(0, Math.min(sorted.length - 1, i))] / 1e6;
  }

  /**
   * @param failed failed requests, unfinished ones included
   * @param wrong requests answered with a value other than the one expected
   */
  record Result(
      long reads,
      long writes,
      long failed,
      long wrong,
      long unfinished,
      long scheduled,
      double seconds,
      double achievedPerSecond,
      double targetPerSecond,
      double p50Millis,
      double p99Millis,
      double maxMillis,
      List<SlowSecond> slowSeconds,
      Map<String, Long> failureCauses,
      List<Incident> incidents) {}

  @Override
  public void close() {
    scheduler.shutdownNow();
    running = false;
    workers.forEach(Thread::interrupt);
  }
}
