package dev.versio.coordination.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class ReplicaOwnershipTest {
  private final ManualClock clock = new ManualClock();
  private final CoordinationSettings settings = CoordinationSettings.defaults("test", "1.0.0");
  private final ReplicaOwnership ownership = new ReplicaOwnership(settings, clock, "a", "inc-1");

  @Test
  void nothingMayBeWrittenBeforeTheFirstConfirmedRenewal() {
    assertThat(ownership.permitted()).isFalse();
    assertThatThrownBy(() -> ownership.acquired(3, 1)).hasMessageContaining("renew deadline");
  }

  @Test
  void writesArePermittedUntilTheRenewDeadlineCountedFromTheRenewalsStart() {
    var start = clock.instant();
    clock.advanceSeconds(0.5);
    ownership.renewed(start);
    ownership.acquired(3, 7);
    assertThat(ownership.mayWrite(3)).isEqualTo(OptionalLong.of(7));
    assertThat(ownership.mayWrite(4)).isEmpty();
    clock.advanceSeconds(9.49);
    assertThat(ownership.mayWrite(3)).isEqualTo(OptionalLong.of(7));
    clock.advanceSeconds(0.01);
    assertThat(ownership.mayWrite(3))
        .as("at the deadline, even before anyone enforces it")
        .isEmpty();
    assertThat(ownership.enforceDeadline()).containsExactly(3);
    assertThat(ownership.owned()).isEmpty();
  }

  @Test
  void aRenewalConfirmedAfterTheDeadlineWhileShardsWereStillHeldIsReportedOnceForAResync() {
    ownership.renewed(clock.instant());
    ownership.acquired(3, 7);
    var lateStart = clock.instant().plusSeconds(9);
    clock.advanceSeconds(10.5);
    assertThat(ownership.mayWrite(3)).as("writes refused in the gap").isEmpty();
    ownership.renewed(lateStart);
    assertThat(ownership.mayWrite(3)).isEqualTo(OptionalLong.of(7));
    assertThat(ownership.takeResumed()).isTrue();
    assertThat(ownership.takeResumed()).as("reported once").isFalse();
  }

  @Test
  void renewalsInTimeAndLapsesWithNothingHeldAreNotReported() {
    ownership.renewed(clock.instant());
    clock.advanceSeconds(5);
    ownership.renewed(clock.instant());
    ownership.acquired(3, 7);
    clock.advanceSeconds(5);
    ownership.renewed(clock.instant());
    assertThat(ownership.takeResumed()).as("renewed in time").isFalse();
    ownership.drop(3);
    clock.advanceSeconds(20);
    ownership.renewed(clock.instant());
    assertThat(ownership.takeResumed()).as("nothing was held in the gap").isFalse();
  }

  @Test
  void eachConfirmedRenewalMovesTheDeadlineButAnOlderConfirmationNeverShortensIt() {
    var first = clock.instant();
    ownership.renewed(first);
    clock.advanceSeconds(5);
    ownership.renewed(clock.instant());
    ownership.renewed(first);
    assertThat(ownership.permittedUntil()).isEqualTo(first.plusSeconds(15));
  }

  @Test
  void beingFencedDropsEveryShardAndNeedsANewRenewal() {
    ownership.renewed(clock.instant());
    ownership.acquired(1, 1);
    ownership.acquired(2, 4);
    assertThat(ownership.reincarnate("inc-2")).containsExactly(1, 2);
    assertThat(ownership.incarnation()).isEqualTo("inc-2");
    assertThat(ownership.permitted()).isFalse();
  }

  @Test
  void theViewForOtherThreadsAnswersByItsOwnDeadline() {
    ownership.renewed(clock.instant());
    ownership.acquired(5, 2);
    var view = ownership.view();
    assertThat(view.epochAt(5, clock.instant())).isEqualTo(OptionalLong.of(2));
    assertThat(view.epochAt(5, clock.instant().plusSeconds(10))).isEmpty();
  }
}
