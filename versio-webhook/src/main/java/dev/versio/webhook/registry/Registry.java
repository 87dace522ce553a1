package dev.versio.webhook.registry;

import dev.versio.engine.route.Router;
import java.time.Clock;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * The compiled routers of one replica, by target. Reads are one atomic load of an immutable map (no
 * lock on the conversion path); writers copy the map and swap it. A failed compile never removes a
 * working router: it only annotates the entry (or creates an error-only placeholder).
 */
public final class Registry {
  private final AtomicReference<Map<String, RegistryEntry>> entries =
      new AtomicReference<>(Map.of());
  private final Clock clock;
  private final Consumer<Map<String, RegistryEntry>> onChange;

  /**
   * @param onChange called (on the writer's thread) with the new snapshot after every change
   */
  public Registry(Clock clock, Consumer<Map<String, RegistryEntry>> onChange) {
    this.clock = clock;
    this.onChange = onChange;
  }

  /** The entry for {@code target}, if any (servable or not). Lock-free. */
  public Optional<RegistryEntry> get(String target) {
    return Optional.ofNullable(entries.get().get(target));
  }

  /** An immutable view of every entry. */
  public Map<String, RegistryEntry> snapshot() {
    return entries.get();
  }

  /** Installs a freshly compiled router for {@code target}, clearing any recorded error. */
  public synchronized void set(String target, Router router, String config, String planHash) {
    update(
        target,
        new RegistryEntry(
            target, Optional.of(router), config, planHash, clock.instant(), null, null));
  }

  /**
   * Records a failed compile: the previous router (if any) keeps serving; otherwise an error-only
   * placeholder makes the failure visible.
   */
  public synchronized void recordError(String target, String config, String error) {
    var previous = entries.get().get(target);
    var now = clock.instant();
    var entry =
        previous == null
            ? new RegistryEntry(target, Optional.empty(), config, null, null, error, now)
            : new RegistryEntry(
                target,
                previous.router(),
                config,
                previous.planHash(),
                previous.compiledAt(),
                error,
                now);
    update(target, entry);
  }

  /**
   * Replaces whatever serves {@code target} with an error-only placeholder: every conversion of it
   * is answered with a Failure naming {@code error} (a config that fails closed).
   */
  public synchronized void refuse(String target, String config, String error) {
    update(
        target,
        new RegistryEntry(target, Optional.empty(), config, null, null, error, clock.instant()));
  }

  /** Drops {@code target} (its config was deleted or is assigned elsewhere). */
  public synchronized void remove(String target) {
    if (!entries.get().containsKey(target)) {
      return;
    }
    var copy = new HashMap<>(entries.get());
    copy.remove(target);
    swap(copy);
  }

  /** Replaces every entry at once (the end of the initial sync). */
  public synchronized void replaceAll(Map<String, RegistryEntry> all) {
    swap(new HashMap<>(all));
  }

  private void update(String target, RegistryEntry entry) {
    var copy = new HashMap<>(entries.get());
    copy.put(target, entry);
    swap(copy);
  }

  private void swap(Map<String, RegistryEntry> copy) {
    var frozen = Collections.unmodifiableMap(copy);
    entries.set(frozen);
    onChange.accept(frozen);
  }
}
