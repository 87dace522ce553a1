package dev.versio.coordination.core;

import static dev.versio.coordination.core.Members.member;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class MemberObservationsTest {
  private final ManualClock clock = new ManualClock();
  private final MemberObservations observations = new MemberObservations(clock);

  @Test
  void aMemberStaysLiveForItsLeaseDurationAfterWeLastSawItsLeaseChange() {
    observations.observe(List.of(member("a", "1")));
    clock.advanceSeconds(14.9);
    observations.observe(List.of(member("a", "1")));
    assertThat(observations.live("a")).isTrue();
    clock.advanceSeconds(0.1);
    assertThat(observations.live("a")).isFalse();
    assertThat(observations.expired("a")).isTrue();
  }

  @Test
  void aRenewalSeenLocallyRestartsTheCountWhateverTheRemoteClockSays() {
    observations.observe(List.of(member("a", "1")));
    clock.advanceSeconds(10);
    observations.observe(List.of(member("a", "2")));
    clock.advanceSeconds(10);
    assertThat(observations.live("a")).isTrue();
    clock.advanceSeconds(5);
    assertThat(observations.expired("a")).isTrue();
  }

  @Test
  void aFencedMemberIsNeitherLiveNorExpiredButTakeableByItsRecord() {
    var a = member("a", "1");
    observations.observe(List.of(Members.fenced(a, "b", "2")));
    assertThat(observations.live("a")).isFalse();
    assertThat(observations.expired("a")).isFalse();
    assertThat(observations.record("a")).get().extracting(MemberRecord::fenced).isEqualTo(true);
  }

  @Test
  void aDeletedMemberIsRememberedAsRecentlyGoneForOneLeaseDuration() {
    observations.observe(List.of(member("a", "1")));
    clock.advanceSeconds(3);
    observations.observe(List.of());
    assertThat(observations.recentlyGone("a")).isTrue();
    assertThat(observations.record("a")).isEmpty();
    clock.advanceSeconds(15);
    observations.observe(List.of());
    assertThat(observations.recentlyGone("a")).isFalse();
  }

  @Test
  void aHolderNeverSeenCountsAsMissingOnlyOnceItHasBeenAbsentForTheBound() {
    var bound = Duration.ofSeconds(15);
    assertThat(observations.missingFor("ghost", bound)).isFalse();
    clock.advanceSeconds(15);
    assertThat(observations.missingFor("ghost", bound)).isTrue();
  }

  @Test
  void theNextExpiryIsTheEarliestOtherMemberDeadline() {
    observations.observe(List.of(member("a", "1"), member("self", "1")));
    clock.advanceSeconds(4);
    observations.observe(List.of(member("a", "1"), member("self", "2"), member("b", "1")));
    assertThat(observations.untilNextExpiry("self")).contains(Duration.ofSeconds(11));
    assertThat(observations.liveMembers())
        .extracting(MemberRecord::id)
        .containsExactlyInAnyOrder("a", "b", "self");
  }
}
