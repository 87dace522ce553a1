package dev.versio.coordination.core;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;

/** A clock the test moves by hand. */
public final class ManualClock implements InstantSource {
  private Instant now = Instant.parse("2026-01-01T00:00:00Z");

  @Override
  public Instant instant() {
    return now;
  }

  public void advance(Duration by) {
    now = now.plus(by);
  }

  public void advanceSeconds(double seconds) {
    advance(Duration.ofNanos((long) (seconds * 1e9)));
  }
}
