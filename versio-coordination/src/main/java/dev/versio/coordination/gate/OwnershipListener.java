package dev.versio.coordination.gate;

import java.util.Map;
import java.util.Set;

/** Told when this replica gains or loses shards. Calls come in order on one thread. */
public interface OwnershipListener {
  /** Shards newly held, with their epochs: resync their objects. */
  void gained(Map<Integer, Long> epochs);

  /** Shards no longer held: drop queued work for them (writes are refused already). */
  void lost(Set<Integer> shards);
}
