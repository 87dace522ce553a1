package dev.versio.webhook.review;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * What processing one request produced.
 *
 * @param httpStatus 200 for every review (success or Failure), 400 for a malformed request
 * @param body the response body: a ConversionReview, or a plain-text message for a 400
 * @param result how it ended
 * @param uid the request UID, or null when the request had none
 * @param from the source version of the last object, or null
 * @param to the desired version, or null
 * @param objects how many objects the request carried
 * @param failure the failure message, or null on success
 * @param cause the exception behind an {@link ReviewResult#INTERNAL_ERROR} (logged once, with its
 *     stack trace, by the transport), else null
 */
public record ReviewOutcome(
    int httpStatus,
    JsonNode body,
    String text,
    ReviewResult result,
    String uid,
    String from,
    String to,
    int objects,
    String failure,
    Throwable cause) {

  /** An outcome without an exception behind it. */
  public ReviewOutcome(
      int httpStatus,
      JsonNode body,
      String text,
      ReviewResult result,
      String uid,
      String from,
      String to,
      int objects,
      String failure) {
    this(httpStatus, body, text, result, uid, from, to, objects, failure, null);
  }
}
