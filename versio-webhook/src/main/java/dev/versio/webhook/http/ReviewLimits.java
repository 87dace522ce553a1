package dev.versio.webhook.http;

import dev.versio.api.http.InFlightLimits;
import java.time.Duration;
import java.util.Objects;

/**
 * What one conversion endpoint allows a request: body size, requests and bytes in flight (in all
 * and per client), time to send its body, and time to process it off the event loops.
 *
 * @param maxBodyBytes the largest body (413 above it)
 * @param inFlight requests, requests per client and body bytes held at once (429 beyond them)
 * @param bodyTimeout how long a request may take to send its whole body (408 after it)
 * @param reviewBudget how long a review processed on a worker may take before it is answered with a
 *     Failure naming the budget
 */
public record ReviewLimits(
    long maxBodyBytes, InFlightLimits inFlight, Duration bodyTimeout, Duration reviewBudget) {

  /**
   * 10 s: the apiserver sends a review's body at once; only a slow or stalled client needs more.
   */
  public static final Duration DEFAULT_BODY_TIMEOUT = Duration.ofSeconds(10);

  public ReviewLimits {
    Objects.requireNonNull(inFlight, "inFlight");
    positive(bodyTimeout, "the body timeout");
    positive(reviewBudget, "the review budget");
    if (maxBodyBytes < 1) {
      throw new IllegalArgumentException("the body limit must be positive, got " + maxBodyBytes);
    }
  }

  /**
   * {@code maxInFlight} requests, with no share per client and a byte budget of {@code maxInFlight}
   * bodies of the largest size (the limits before a client share and a byte budget existed).
   */
  public static ReviewLimits of(long maxBodyBytes, int maxInFlight, Duration reviewBudget) {
    return new ReviewLimits(
        maxBodyBytes,
        new InFlightLimits(maxInFlight, maxInFlight, saturated(maxBodyBytes, maxInFlight)),
        DEFAULT_BODY_TIMEOUT,
        reviewBudget);
  }

  private static long saturated(long a, long b) {
    long product = a * b;
    return a != 0 && (product / a != b || product < 0) ? Long.MAX_VALUE : product;
  }

  private static void positive(Duration value, String what) {
    Objects.requireNonNull(value, what);
    if (value.isNegative() || value.isZero()) {
      throw new IllegalArgumentException(what + " must be positive, got " + value);
    }
  }
}
