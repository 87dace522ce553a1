package dev.versio.webhook.registry;

import dev.versio.engine.route.Router;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What a replica holds for one target: a servable router, or only the error of the last compile (a
 * placeholder that is reported but never served).
 *
 * @param target the CRD/XRD name (the {@code /convert/{target}} path)
 * @param router the compiled router, empty for an error-only placeholder
 * @param config which config produced it ({@code crd/<name>} or {@code xrd/<name>})
 * @param planHash identifies what was compiled ({@code gen=<targetGeneration>/<configGeneration>})
 * @param compiledAt when the router was compiled
 * @param lastError the error of the last failed compile, or null
 * @param lastErrorAt when it failed
 */
public record RegistryEntry(
    String target,
    Optional<Router> router,
    String config,
    String planHash,
    Instant compiledAt,
    String lastError,
    Instant lastErrorAt) {
  public RegistryEntry {
    Objects.requireNonNull(target, "target");
    Objects.requireNonNull(router, "router");
  }

  /** Whether this entry can answer conversions. */
  public boolean servable() {
    return router.isPresent();
  }

  /** The versions this entry's router knows (hub first), or empty for a placeholder. */
  public List<String> versions() {
    return router
        .map(
            r -> {
              var list = new ArrayList<String>();
              list.add(r.config().hubVersion());
              list.addAll(r.config().plans().keySet().stream().sorted().toList());
              return List.copyOf(list);
            })
        .orElse(List.of());
  }
}
