package dev.versio.webhook.sync;

import dev.versio.webhook.registry.RegistryEntry;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * Which configs claim which target on this replica, and which claim wins. Several configs may name
 * the same target; the winner is chosen the same way whether they arrive in the initial sync or one
 * by one later: a servable entry first, then the smaller config name. A target is released only
 * when no config claims it any more. Thread-safe (the sync worker writes, event handlers read).
 */
final class TargetClaims {
  /** Orders claims: servable first, then by config (kind/name). */
  static final Comparator<RegistryEntry> WINNER_FIRST =
      Comparator.comparing((RegistryEntry e) -> !e.servable()).thenComparing(RegistryEntry::config);

  private final Map<ConfigKey, String> targetOf = new HashMap<>();
  private final Map<String, TreeMap<ConfigKey, RegistryEntry>> claims = new HashMap<>();

  /**
   * Records what {@code key} now claims ({@code entry} empty: nothing, because it is gone or
   * assigned elsewhere) and returns the targets whose winner may have changed.
   */
  synchronized Set<String> update(ConfigKey key, Optional<RegistryEntry> entry) {
    var affected = new LinkedHashSet<String>();
    var before = targetOf.remove(key);
    if (before != null) {
      var forTarget = claims.get(before);
      forTarget.remove(key);
      if (forTarget.isEmpty()) {
        claims.remove(before);
      }
      affected.add(before);
    }
    entry.ifPresent(
        e -> {
          targetOf.put(key, e.target());
          claims
              .computeIfAbsent(
                  e.target(), t -> new TreeMap<>(Comparator.comparing(Object::toString)))
              .put(key, e);
          affected.add(e.target());
        });
    return affected;
  }

  /** The winning entry for {@code target}, or empty when no config claims it. */
  synchronized Optional<RegistryEntry> winner(String target) {
    var forTarget = claims.get(target);
    return forTarget == null ? Optional.empty() : forTarget.values().stream().min(WINNER_FIRST);
  }

  /** The config keys that claim {@code target}. */
  synchronized Set<ConfigKey> claimants(String target) {
    var forTarget = claims.get(target);
    return forTarget == null ? Set.of() : Set.copyOf(forTarget.keySet());
  }

  /** What {@code key} claims now, if anything. */
  synchronized Optional<RegistryEntry> entryOf(ConfigKey key) {
    var target = targetOf.get(key);
    return target == null ? Optional.empty() : Optional.ofNullable(claims.get(target).get(key));
  }

  /** The target {@code key} claims, if any. */
  synchronized Optional<String> targetOf(ConfigKey key) {
    return Optional.ofNullable(targetOf.get(key));
  }

  /** Every config key that claims something. */
  synchronized Set<ConfigKey> keys() {
    return Set.copyOf(targetOf.keySet());
  }
}
