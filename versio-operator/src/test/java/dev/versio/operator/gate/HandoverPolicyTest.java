package dev.versio.operator.gate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.versio.api.served.ServedView;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class HandoverPolicyTest {
  private static final Instant NOW = Instant.parse("2026-12-01T00:00:00Z");
  private static final Duration GRACE = Duration.ofSeconds(30);
  private static final String FROM = "https://a.example:9443";
  private static final String TO = "https://b.example:9443";

  private static HandoverVerdict judge(
      String lastApplied, ServedView view, Integer ready, Instant waitingSince) {
    return HandoverPolicy.judge(
        "widgets.example.com", "b", null, lastApplied, TO, view, ready, waitingSince, GRACE, NOW);
  }

  private static ServedView serving(int replicas, String... targets) {
    return new ServedView(List.of(targets), replicas, List.of());
  }

  @Test
  void aFirstApplyAndAnApplyToTheSameEndpointAreNoMove() {
    assertThat(judge(null, ServedView.NONE, null, null))
        .isInstanceOf(HandoverVerdict.NotAMove.class);
    assertThat(judge(TO, ServedView.NONE, null, null)).isInstanceOf(HandoverVerdict.NotAMove.class);
  }

  @Test
  void aMoveProceedsWhenEveryLiveReplicaOfTheDestinationServesTheTarget() {
    var verdict = judge(FROM, serving(2, "widgets.example.com"), 2, null);
    assertThat(verdict).isInstanceOf(HandoverVerdict.Ready.class);
    assertThat(verdict.proceeds()).isTrue();
    assertThat(verdict.message()).contains("all 2 live replica(s) serve it");
  }

  @Test
  void aMoveWaitsWhileAReportingReplicaLacksTheTargetOrAReadyReplicaHasNotReported() {
    var lacking = judge(FROM, serving(2, "other.example.com"), 2, null);
    assertThat(lacking).isInstanceOf(HandoverVerdict.Waiting.class);
    assertThat(lacking.proceeds()).isFalse();

    var unreported = judge(FROM, serving(1, "widgets.example.com"), 2, null);
    assertThat(unreported).isInstanceOf(HandoverVerdict.Waiting.class);
    assertThat(unreported.message()).contains("1 of 2 ready replicas report");
  }

  @Test
  void anUnreadableReportBlocksTheMoveWhateverTheOthersSay() {
    var view =
        new ServedView(List.of("widgets.example.com"), 1, List.of("versio/b-2: 1 of 2 parts"));
    var verdict = judge(FROM, view, null, NOW.minus(Duration.ofHours(1)));
    assertThat(verdict).isInstanceOf(HandoverVerdict.Unreadable.class);
    assertThat(verdict.proceeds()).isFalse();
  }

  @Test
  void noReportAtAllWaitsForTheGracePeriodThenMovesUnverified() {
    assertThat(judge(FROM, ServedView.NONE, null, null))
        .isInstanceOf(HandoverVerdict.Waiting.class);
    assertThat(judge(FROM, ServedView.NONE, null, NOW.minusSeconds(29)))
        .isInstanceOf(HandoverVerdict.Waiting.class);
    var late = judge(FROM, ServedView.NONE, null, NOW.minusSeconds(30));
    assertThat(late).isInstanceOf(HandoverVerdict.Unverified.class);
    assertThat(late.proceeds()).isTrue();
  }

  /** A move judged behind the shared front: the URL stays {@code TO}, the server may change. */
  private static HandoverVerdict atTheFront(String lastServer, ServedView view) {
    return HandoverPolicy.judge(
        "widgets.example.com", "b", lastServer, TO, TO, view, 2, null, GRACE, NOW);
  }

  @Test
  void behindTheSharedFrontAChangeOfServerAtTheSameUrlIsAMoveAndWaitsForTheDestination() {
    // every server behind the front has the same endpoint: only status.servedBy tells a move
    assertThat(atTheFront("a", serving(2, "other.example.com")))
        .isInstanceOf(HandoverVerdict.Waiting.class);
    assertThat(atTheFront("a", serving(2, "widgets.example.com")))
        .isInstanceOf(HandoverVerdict.Ready.class);
    assertThat(atTheFront("b", ServedView.NONE))
        .as("the same server at the same URL")
        .isInstanceOf(HandoverVerdict.NotAMove.class);
    assertThat(atTheFront(null, ServedView.NONE))
        .as("a status written before servedBy existed: the URL decides, as before")
        .isInstanceOf(HandoverVerdict.NotAMove.class);
  }
}
