package dev.versio.coordination.gate;

import java.util.Map;
import java.util.Set;

/** Told when this replica gains or loses shards. Calls come in order on one thread. */
public interface OwnershipListener {
  /** Shards newly held, with their epochs: resync their objects. */
  void gained(Map<Integer, Long> epochs);

  /**
   * Shards held all along whose writes were refused for a while (a renewal confirmed only after its
   * deadline): events that arrived then were dropped, so resync their objects. By default the same
   * as {@link #gained}.
   */
  default void resumed(Map<Integer, Long> epochs) {
    gained(epochs);
  }

  /** Shards no longer held: drop queued work for them (writes are refused already). */
  void lost(Set<Integer> shards);
}
