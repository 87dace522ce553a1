package dev.versio.api.assign;

import java.util.Objects;

/** Which server serves a config's target, and why — or why none does. */
public sealed interface Assignment {
  /** How the server was chosen. */
  enum Route {
    /** {@code spec.webhookServerRef} names it. */
    EXPLICIT,
    /** Weighted rendezvous hashing over the sharding pool. */
    SHARDED,
    /** The single default server. */
    DEFAULT
  }

  /** The target is served by {@code server}. */
  record Assigned(String server, Route route) implements Assignment {
    public Assigned {
      Objects.requireNonNull(server, "server");
      Objects.requireNonNull(route, "route");
    }
  }

  /** No server can be chosen; {@code reason} says what to fix. */
  record Unresolved(String reason) implements Assignment {
    public Unresolved {
      Objects.requireNonNull(reason, "reason");
    }
  }

  /** Whether this assignment names {@code server}. */
  default boolean isTo(String server) {
    return this instanceof Assigned a && a.server().equals(server);
  }
}
