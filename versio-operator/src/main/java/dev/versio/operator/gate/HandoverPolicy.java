package dev.versio.operator.gate;

import dev.versio.api.served.ServedView;
import java.time.Duration;
import java.time.Instant;

/**
 * The handover decision, pure: a move of {@code target} from the endpoint it was last applied to
 * onto {@code destination} goes ahead only when every live replica of the destination reports
 * serving the target. A report that cannot be read blocks; no report at all for the grace period
 * lets the move go ahead as unverified (and says so).
 */
public final class HandoverPolicy {
  private HandoverPolicy() {}

  /**
   * @param lastServer the server that served the target when last seen (the config's {@code
   *     status.servedBy}), or null when unknown: behind the shared front every server has the same
   *     endpoint, so a change of server at the same URL is a move too
   * @param lastAppliedUrl the webhook URL the target was last applied to (the config's {@code
   *     status.webhookURL}), or null when it never was
   * @param destinationUrl the destination server's endpoint
   * @param readyReplicas the destination's ready replicas (Service mode), or null when unknown
   * @param waitingSince when this process first held this move, or null when it never did
   */
  public static HandoverVerdict judge(
      String target,
      String destination,
      String lastServer,
      String lastAppliedUrl,
      String destinationUrl,
      ServedView view,
      Integer readyReplicas,
      Instant waitingSince,
      Duration grace,
      Instant now) {
    boolean sameServer = lastServer == null || lastServer.equals(destination);
    if (lastAppliedUrl == null || lastAppliedUrl.equals(destinationUrl) && sameServer) {
      return new HandoverVerdict.NotAMove();
    }
    var move = "move of " + target + " to ConversionWebhookServer " + destination + ": ";
    if (!view.unreadable().isEmpty()) {
      return new HandoverVerdict.Unreadable(
          move
              + "blocked: the served-targets report of "
              + String.join("; ", view.unreadable())
              + " cannot be read");
    }
    if (view.reportingReplicas() == 0) {
      var since = waitingSince == null ? now : waitingSince;
      if (!now.isBefore(since.plus(grace))) {
        return new HandoverVerdict.Unverified(
            move
                + "no replica reported its served targets within "
                + grace.toSeconds()
                + " s; moved without verification");
      }
      return new HandoverVerdict.Waiting(
          move
              + "waiting for the destination's replicas to report their served targets (moving"
              + " unverified after "
              + grace.toSeconds()
              + " s)");
    }
    if (readyReplicas != null && view.reportingReplicas() < readyReplicas) {
      return new HandoverVerdict.Waiting(
          move
              + "waiting: "
              + view.reportingReplicas()
              + " of "
              + readyReplicas
              + " ready replicas report their served targets");
    }
    if (view.servedTargets().contains(target)) {
      return new HandoverVerdict.Ready(
          move + "all " + view.reportingReplicas() + " live replica(s) serve it");
    }
    return new HandoverVerdict.Waiting(
        move
            + "waiting until all "
            + view.reportingReplicas()
            + " live replica(s) report serving it");
  }
}
