package dev.versio.coordination.gate;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Objects;

/**
 * A rate limit of {@code ratePerSecond} with a burst of one second's worth, on an injected clock.
 */
public final class TokenBucket {
  private final InstantSource clock;
  private final double ratePerSecond;
  private final double capacity;
  private double tokens;
  private Instant refilledAt;

  public TokenBucket(InstantSource clock, double ratePerSecond) {
    this.clock = Objects.requireNonNull(clock, "clock");
    if (!(ratePerSecond > 0)) {
      throw new IllegalArgumentException("rate must be positive, got " + ratePerSecond);
    }
    this.ratePerSecond = ratePerSecond;
    this.capacity = Math.max(1, ratePerSecond);
    this.tokens = 1;
    this.refilledAt = clock.instant();
  }

  /** Takes a token if one is available now. */
  public boolean tryTake() {
    refill();
    if (tokens >= 1) {
      tokens -= 1;
      return true;
    }
    return false;
  }

  /** How long until the next token. */
  public Duration untilNext() {
    refill();
    if (tokens >= 1) {
      return Duration.ZERO;
    }
    return Duration.ofNanos((long) Math.ceil((1 - tokens) / ratePerSecond * 1e9));
  }

  private void refill() {
    var now = clock.instant();
    double elapsed = Duration.between(refilledAt, now).toNanos() / 1e9;
    if (elapsed > 0) {
      tokens = Math.min(capacity, tokens + elapsed * ratePerSecond);
      refilledAt = now;
    }
  }
}
