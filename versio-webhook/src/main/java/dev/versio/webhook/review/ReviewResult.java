package dev.versio.webhook.review;

import java.util.Locale;

/** How a review ended, for metrics and logs. */
public enum ReviewResult {
  SUCCESS,
  /** A conversion failed; the apiserver gets a Failure review naming the rule. */
  ERROR,
  /** The request was not a well-formed ConversionReview (HTTP 400). */
  BAD_REQUEST,
  /** This replica holds no servable plan for the target. */
  NOT_REGISTERED,
  /** An unexpected error inside Versio (a bug); the review fails closed. */
  INTERNAL_ERROR,
  /** The review did not finish within its wall-clock budget; the apiserver got a Failure. */
  OVER_BUDGET,
  /**
   * This replica does not hold the target and no replica that does answered within the forwarding
   * budget; the apiserver got a Failure.
   */
  FORWARD_FAILED;

  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }
}
