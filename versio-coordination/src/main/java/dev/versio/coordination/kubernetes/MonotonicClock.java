package dev.versio.coordination.kubernetes;

import java.time.Instant;
import java.time.InstantSource;

/**
 * An {@link InstantSource} that never jumps: it starts at the wall-clock time of its creation and
 * then advances with {@link System#nanoTime()}. Liveness and deadlines use it, so that an NTP step
 * or an offset wall clock cannot shorten or extend a lease.
 */
public final class MonotonicClock implements InstantSource {
  private final Instant origin = Instant.now();
  private final long originNanos = System.nanoTime();

  @Override
  public Instant instant() {
    return origin.plusNanos(System.nanoTime() - originNanos);
  }
}
