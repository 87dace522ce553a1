package dev.versio.api.served;

import java.util.List;
import java.util.Objects;

/**
 * What the live replicas of one server report: the targets every one of them serves (the
 * intersection), how many replicas report readably, and which live replicas' reports cannot be
 * read. A replica whose report cannot be read blocks a handover to its server rather than counting
 * as serving nothing.
 *
 * @param servedTargets sorted; served by every live replica that reports readably
 * @param reportingReplicas live replicas whose report reads
 * @param unreadable live replicas whose report does not, each with the reason
 */
public record ServedView(
    List<String> servedTargets, int reportingReplicas, List<String> unreadable) {
  public static final ServedView NONE = new ServedView(List.of(), 0, List.of());

  public ServedView {
    servedTargets = List.copyOf(servedTargets);
    unreadable = List.copyOf(unreadable);
    if (reportingReplicas < 0) {
      throw new IllegalArgumentException("reportingReplicas must not be negative");
    }
    Objects.requireNonNull(servedTargets, "servedTargets");
  }
}
