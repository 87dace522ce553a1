package dev.versio.webhook.forward;

/**
 * Behind the front, which targets this replica still holds but has handed over to another server
 * whose live replicas all serve them: their reviews are passed there, and answered here only when
 * no replica of that server answers.
 */
@FunctionalInterface
public interface Handovers {
  /** None handed over (no front). */
  Handovers NONE = target -> null;

  /** The server {@code target} was handed over to, or null when it is not. */
  String destinationOf(String target);
}
