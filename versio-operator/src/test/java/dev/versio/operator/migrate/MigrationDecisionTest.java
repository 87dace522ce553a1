package dev.versio.operator.migrate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.versio.api.config.StorageMigrationSpec;
import dev.versio.api.config.StorageMigrationStatus;
import dev.versio.operator.migrate.MigrationDecision.Phases;
import java.util.List;
import org.junit.jupiter.api.Test;

class MigrationDecisionTest {
  private static final StorageTarget PROMOTED = Targets.widgets("v1", "v2");
  private static final StorageTarget CLEAN = Targets.widgets("v2");

  @Test
  void aManualConfigStartsNothingUntilItsAnnotationAsks() {
    assertThat(decide(manual(), null, null, PROMOTED, true, false))
        .isInstanceOf(MigrationDecision.Keep.class);
    assertThat(decide(null, "2026-12-04", null, PROMOTED, true, false))
        .isEqualTo(new MigrationDecision.Start("2026-12-04"));
  }

  @Test
  void aRequestThatAlreadyRanDoesNotRunAgainButANewValueDoes() {
    var done = status(Phases.SUCCEEDED, "v2");
    done.request = "first";
    assertThat(decide(manual(), "first", done, PROMOTED, true, false))
        .isInstanceOf(MigrationDecision.Keep.class);
    assertThat(decide(manual(), "second", done, PROMOTED, true, false))
        .isEqualTo(new MigrationDecision.Start("second"));
  }

  @Test
  void anAutomaticConfigStartsWhenStoredVersionsListsAnOlderVersion() {
    assertThat(decide(automatic(), null, null, PROMOTED, true, false))
        .isEqualTo(new MigrationDecision.Start(null));
    assertThat(decide(automatic(), null, null, CLEAN, true, false))
        .isInstanceOf(MigrationDecision.Keep.class);
  }

  @Test
  void aRunUnderWayHerePausesWhenTheConfigIsNoLongerAppliedOrACrdLosesTheConversion() {
    var running = status(Phases.RUNNING, "v2");
    assertThat(
            MigrationDecision.decide(
                automatic(), null, running, MigrationTarget.of(PROMOTED), false, true))
        .isInstanceOf(MigrationDecision.Pause.class);
    var notReady =
        new MigrationTarget(List.of(PROMOTED), "crd/widgets.example.com does not carry it yet");
    assertThat(MigrationDecision.decide(automatic(), null, running, notReady, true, true))
        .isEqualTo(new MigrationDecision.Pause("crd/widgets.example.com does not carry it yet"));
    assertThat(
            MigrationDecision.decide(
                automatic(), null, running, MigrationTarget.of(PROMOTED), true, true))
        .isInstanceOf(MigrationDecision.Keep.class);
  }

  @Test
  void anXrdsRunThatPrunedBothCrdsDoesNotStartAgainOnAViewBetweenTheTwoPrunes() {
    var claims = Targets.claims("v1", "v2");
    var composite = revision(CLEAN, "uid-1/2");
    var done = status(Phases.SUCCEEDED, "v2");
    done.storedVersionsBefore = List.of("v1", "v2");
    done.prunedCrd = "uid-1/2,uid-2/3";
    // the composite's CRD already pruned, the claim's not yet: [v2] and [v1, v2], read as [v2, v1]
    var between = new MigrationTarget(List.of(composite, claims), null);
    assertThat(between.storedVersions()).containsExactly("v2", "v1");
    assertThat(MigrationDecision.decide(automatic(), null, done, between, true, false))
        .isInstanceOf(MigrationDecision.Keep.class);
    // a claim CRD changed since (another revision) is a new need
    var changed = new MigrationTarget(List.of(composite, revision(claims, "uid-2/4")), null);
    assertThat(MigrationDecision.decide(automatic(), null, done, changed, true, false))
        .isEqualTo(new MigrationDecision.Start(null));
  }

  @Test
  void nothingStartsOrResumesWhileAGeneratedCrdDoesNotConvertYet() {
    var notReady =
        new MigrationTarget(List.of(PROMOTED), "crd/widgets.example.com does not carry it yet");
    var running = status(Phases.RUNNING, "v2");
    assertThat(MigrationDecision.decide(automatic(), null, null, notReady, true, false))
        .isInstanceOf(MigrationDecision.Keep.class);
    assertThat(MigrationDecision.decide(manual(), "now", null, notReady, true, false))
        .isInstanceOf(MigrationDecision.Keep.class);
    assertThat(MigrationDecision.decide(automatic(), null, running, notReady, true, false))
        .isInstanceOf(MigrationDecision.Keep.class);
    assertThat(MigrationDecision.decide(automatic(), "cancel", running, notReady, true, false))
        .as("a cancel still ends it")
        .isInstanceOf(MigrationDecision.Cancel.class);
  }

  @Test
  void nothingStartsOrResumesWhileTheConfigIsNotApplied() {
    assertThat(decide(automatic(), "now", null, PROMOTED, false, false))
        .isInstanceOf(MigrationDecision.Keep.class);
    assertThat(decide(automatic(), null, status(Phases.RUNNING, "v2"), PROMOTED, false, false))
        .isInstanceOf(MigrationDecision.Keep.class);
  }

  @Test
  void aRunRecordedAsUnderWayThatNoReplicaRunsIsResumedFromItsStatus() {
    var running = status(Phases.RUNNING, "v2");
    running.continueToken = "page-3";
    assertThat(decide(manual(), null, running, PROMOTED, true, false))
        .isEqualTo(new MigrationDecision.Resume(running));
    var pruning = status(Phases.PRUNING, "v2");
    assertThat(decide(manual(), null, pruning, PROMOTED, true, false))
        .isEqualTo(new MigrationDecision.Resume(pruning));
  }

  @Test
  void aRunHereGoesOnAndIsNotStartedTwice() {
    assertThat(decide(automatic(), "new", status(Phases.RUNNING, "v2"), PROMOTED, true, true))
        .isInstanceOf(MigrationDecision.Keep.class);
  }

  @Test
  void aRunHereForAStorageVersionThatWasSupersededIsCancelledToo() {
    assertThat(decide(automatic(), null, status(Phases.RUNNING, "v1"), PROMOTED, true, true))
        .isInstanceOf(MigrationDecision.Cancel.class);
  }

  @Test
  void aRunForAStorageVersionThatIsNoLongerTheStorageVersionIsEnded() {
    assertThat(decide(automatic(), null, status(Phases.RUNNING, "v1"), PROMOTED, true, false))
        .isInstanceOf(MigrationDecision.Cancel.class);
  }

  @Test
  void cancelStopsARunningOneAndIsIgnoredOtherwise() {
    assertThat(decide(automatic(), "cancel", status(Phases.RUNNING, "v2"), PROMOTED, true, true))
        .isInstanceOf(MigrationDecision.Cancel.class);
    assertThat(decide(automatic(), "cancel", status(Phases.RUNNING, "v2"), PROMOTED, true, false))
        .isInstanceOf(MigrationDecision.Cancel.class);
    assertThat(decide(automatic(), "cancel", null, PROMOTED, true, false))
        .as("cancel never starts one, even for an Automatic config")
        .isInstanceOf(MigrationDecision.Keep.class);
  }

  @Test
  void anAutomaticConfigDoesNotRetryAFailedOrCancelledRunByItself() {
    for (var phase : List.of(Phases.FAILED, Phases.CANCELLED)) {
      assertThat(decide(automatic(), null, status(phase, "v2"), PROMOTED, true, false))
          .as(phase)
          .isInstanceOf(MigrationDecision.Keep.class);
    }
    assertThat(decide(automatic(), null, status(Phases.FAILED, "v1"), PROMOTED, true, false))
        .as("a failure at the previous storage version does not hold back the new one")
        .isEqualTo(new MigrationDecision.Start(null));
  }

  @Test
  void anAutomaticConfigDoesNotStartAgainWhileTheCrdItSeesIsOlderThanItsOwnPrune() {
    var done = status(Phases.SUCCEEDED, "v2");
    done.storedVersionsBefore = List.of("v1", "v2");
    done.prunedCrd = "uid-1/2";
    assertThat(decide(automatic(), null, done, PROMOTED, true, false))
        .as("the same CRD, seen before the prune: it still lists v1")
        .isInstanceOf(MigrationDecision.Keep.class);

    assertThat(decide(automatic(), null, done, revision(PROMOTED, "uid-1/4"), true, false))
        .as("storage rolled back to v1 and promoted to v2 again: v1 holds new objects")
        .isEqualTo(new MigrationDecision.Start(null));
    assertThat(decide(automatic(), null, done, revision(PROMOTED, "uid-2/2"), true, false))
        .as("the CRD deleted and created again")
        .isEqualTo(new MigrationDecision.Start(null));
  }

  private static StorageTarget revision(StorageTarget target, String revision) {
    return new StorageTarget(
        target.name(),
        target.group(),
        target.kind(),
        target.plural(),
        target.namespaced(),
        target.storageVersion(),
        target.storedVersions(),
        revision);
  }

  private static MigrationDecision decide(
      StorageMigrationSpec spec,
      String request,
      StorageMigrationStatus previous,
      StorageTarget target,
      boolean applied,
      boolean runningHere) {
    return MigrationDecision.decide(
        spec, request, previous, MigrationTarget.of(target), applied, runningHere);
  }

  private static StorageMigrationSpec manual() {
    return new StorageMigrationSpec();
  }

  private static StorageMigrationSpec automatic() {
    var spec = new StorageMigrationSpec();
    spec.policy = "Automatic";
    return spec;
  }

  private static StorageMigrationStatus status(String phase, String storageVersion) {
    var status = new StorageMigrationStatus();
    status.phase = phase;
    status.storageVersion = storageVersion;
    status.startedAt = "2026-12-04T10:00:00Z";
    return status;
  }
}
