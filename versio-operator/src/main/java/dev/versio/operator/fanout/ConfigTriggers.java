package dev.versio.operator.fanout;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.javaoperatorsdk.operator.processing.event.Event;
import io.javaoperatorsdk.operator.processing.event.EventHandler;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.AbstractEventSource;
import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The event source through which the operator's own watches (targets, servers, Secrets) enqueue
 * configs of one kind: immediately, or paced — de-duplicated, the {@code i}-th one after {@code i /
 * qps} seconds — so a server change never floods the reconcile queue.
 */
public final class ConfigTriggers<P extends HasMetadata>
    extends AbstractEventSource<HasMetadata, P> {
  private final ScheduledExecutorService scheduler;
  private final double qps;
  private final Sink sink;
  private volatile java.util.function.Consumer<String> pacedSink;
  private final Map<String, ScheduledFuture<?>> rechecks = new ConcurrentHashMap<>();

  /**
   * Keys a paced fan-out has scheduled and not yet handed over: a second fan-out before then skips
   * them, since their reconcile runs after both changes anyway.
   */
  private final Set<String> pacedPending = ConcurrentHashMap.newKeySet();

  /** Keys a {@link #coalesced} call has scheduled and not yet handed over. */
  private final Set<String> coalescing = ConcurrentHashMap.newKeySet();

  /** Where triggered keys go (the JOSDK event handler, or a recorder in tests). */
  @FunctionalInterface
  public interface Sink {
    void trigger(String name);
  }

  public ConfigTriggers(String name, ScheduledExecutorService scheduler, double qps) {
    super(HasMetadata.class, name);
    this.scheduler = scheduler;
    this.qps = qps;
    this.sink = this::handle;
    this.pacedSink = sink::trigger;
  }

  /** A trigger that feeds {@code sink} instead of a controller (for tests of the mapping). */
  public ConfigTriggers(ScheduledExecutorService scheduler, double qps, Sink sink) {
    super(HasMetadata.class, "recording");
    this.scheduler = scheduler;
    this.qps = qps;
    this.sink = sink;
    this.pacedSink = sink::trigger;
  }

  private volatile java.util.function.Function<String, java.util.Optional<? extends HasMetadata>>
      lookup = name -> java.util.Optional.empty();

  /**
   * Where the triggered objects are found: a trigger of an object found there is a resource event,
   * which JOSDK takes even for an object it has no state of yet — one whose own events were
   * filtered because another replica owned it until now.
   */
  public void lookUpIn(
      java.util.function.Function<String, java.util.Optional<? extends HasMetadata>> lookup) {
    this.lookup = lookup;
  }

  private void handle(String name) {
    EventHandler handler = getEventHandler();
    if (handler != null && isRunning()) {
      var found = lookup.apply(name);
      handler.handleEvent(
          found.isPresent()
              ? new io.javaoperatorsdk.operator.processing.event.source.controller.ResourceEvent(
                  io.javaoperatorsdk.operator.processing.event.source.ResourceAction.UPDATED,
                  new ResourceID(name),
                  found.get())
              : new Event(new ResourceID(name)));
    }
  }

  /** Enqueues the cluster-scoped configs {@code names} now. */
  public void now(Collection<String> names) {
    new LinkedHashSet<>(names).forEach(sink::trigger);
  }

  /**
   * Hands the paced keys to {@code lane} instead of straight to the controller (the operator's
   * takeover lane: behind live events, a bounded number in flight); call before the first event.
   */
  public void pacedThrough(java.util.function.Consumer<String> lane) {
    this.pacedSink = java.util.Objects.requireNonNull(lane, "lane");
  }

  /**
   * Enqueues {@code names}, de-duplicated, spread at the configured rate. A name still waiting from
   * an earlier paced call is not scheduled again: it is reconciled after this change too.
   */
  public void paced(Collection<String> names) {
    var unique = new java.util.ArrayList<>(new LinkedHashSet<>(names));
    unique.removeIf(
        name -> !pacedPending.add(name)); // claimed at once: a concurrent call skips them
    var delays = FanoutSchedule.delays(unique.size(), qps);
    var target = pacedSink;
    int i = 0;
    try {
      for (; i < unique.size(); i++) {
        var name = unique.get(i);
        var delay = delays.get(i);
        if (delay.isZero()) {
          pacedPending.remove(name);
          target.accept(name);
        } else {
          scheduler.schedule(
              () -> {
                pacedPending.remove(name);
                target.accept(name);
              },
              delay.toNanos(),
              TimeUnit.NANOSECONDS);
        }
      }
    } catch (RuntimeException e) {
      // the name that failed and those after it were never handed over: a later fan-out takes them
      unique.subList(i, unique.size()).forEach(pacedPending::remove);
      throw e;
    }
  }

  /**
   * Enqueues {@code names}, de-duplicated, the way paced keys go (the takeover lane: behind live
   * events, a bounded number in flight) but without spreading them over time: for reconciles that
   * write no target, whose cost the lane's bound already limits.
   */
  public void unpaced(Collection<String> names) {
    var target = pacedSink;
    new LinkedHashSet<>(names).forEach(target);
  }

  /**
   * Enqueues each of {@code names} straight to the controller once {@code within} has passed; calls
   * for a name already waiting fold into that one (never pushing it further out), so a burst of
   * changes costs one reconcile per {@code within} instead of one per change.
   */
  public void coalesced(Collection<String> names, Duration within) {
    for (var name : new LinkedHashSet<>(names)) {
      if (coalescing.add(name)) {
        try {
          scheduler.schedule(
              () -> {
                coalescing.remove(name); // a change during the reconcile schedules the next one
                sink.trigger(name);
              },
              within.toNanos(),
              TimeUnit.NANOSECONDS);
        } catch (RuntimeException e) {
          coalescing.remove(name); // never scheduled: the next call must schedule it
          throw e;
        }
      }
    }
  }

  @Override
  public Set<HasMetadata> getSecondaryResources(P primary) {
    return Set.of();
  }

  /**
   * Enqueues {@code name} once more after {@code delay}, through the same way as paced keys (the
   * takeover lane, behind live events): a config waiting on a gate looks again without taking a
   * reconcile thread ahead of live events, however many configs wait at once. A later call for the
   * same name replaces the pending one, so a config has at most one re-check scheduled.
   */
  public void later(String name, Duration delay) {
    java.util.Objects.requireNonNull(name, "name");
    var pending = new java.util.concurrent.atomic.AtomicReference<ScheduledFuture<?>>();
    var future =
        scheduler.schedule(
            () -> {
              rechecks.remove(name, pending.get());
              pacedSink.accept(name);
            },
            delay.toNanos(),
            TimeUnit.NANOSECONDS);
    pending.set(future);
    var replaced = rechecks.put(name, future);
    if (replaced != null) {
      replaced.cancel(false);
    }
  }

  /** Re-checks scheduled by {@link #later} and not yet run. */
  public int pendingRechecks() {
    return rechecks.size();
  }

  /** How long the last of {@code n} paced keys waits. */
  public Duration spread(int n) {
    return FanoutSchedule.spread(n, qps);
  }
}
