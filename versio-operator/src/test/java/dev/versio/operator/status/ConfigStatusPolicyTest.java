package dev.versio.operator.status;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import dev.versio.api.config.ConversionConfigStatus;
import dev.versio.api.config.ConversionConfigStatus.SpokeStatus;
import dev.versio.operator.status.ConfigStatusPolicy.DriftPolicy;
import dev.versio.operator.status.Observation.Check;
import dev.versio.operator.status.Observation.InvalidCause;
import dev.versio.operator.status.Observation.Outcome;
import dev.versio.operator.status.Observation.Revert;
import dev.versio.operator.status.Observation.WaitCause;
import io.fabric8.kubernetes.api.model.Condition;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

class ConfigStatusPolicyTest {
  private static final Instant EARLIER = Instant.parse("2025-03-01T10:00:00Z");
  private static final Instant NOW = Instant.parse("2025-03-01T11:30:00.750Z");
  private static final String EARLIER_TEXT = "2025-03-01T10:00:00Z";
  private static final String NOW_TEXT = "2025-03-01T11:30:00Z";
  private static final long PREVIOUS_GENERATION = 4;
  private static final long GENERATION = 5;
  private static final String URL = "https://versio.example:8443/convert/caches.example.com";
  private static final String PATH = "/convert/caches.example.com";

  /** What a condition must look like after the decision; null means absent. */
  record Cond(boolean status, String reason) {}

  private static Cond yes(String reason) {
    return new Cond(true, reason);
  }

  private static Cond no(String reason) {
    return new Cond(false, reason);
  }

  private static final Cond ABSENT = null;

  /** The status before the decision, as the policy would have left it. */
  enum Before {
    NONE(null),
    PENDING(Phase.PENDING),
    INVALID(Phase.INVALID),
    APPLIED(Phase.APPLIED),
    STALE(Phase.STALE),
    FAILED_REVERTED(Phase.FAILED),
    FAILED_REVERT_FAILED(Phase.FAILED),
    FAILING_CLOSED(Phase.FAILED);

    final Phase phase;

    Before(Phase phase) {
      this.phase = phase;
    }

    ConversionConfigStatus status() {
      if (this == NONE) {
        return null;
      }
      var status = new ConversionConfigStatus();
      status.phase = phase.text();
      status.observedGeneration = PREVIOUS_GENERATION;
      var c = status.conditions;
      switch (this) {
        case PENDING -> stamp(c, Conditions.VALIDATED, true, "Validated");
        case INVALID -> stamp(c, Conditions.VALIDATED, false, "Invalid");
        case APPLIED -> {
          stamp(c, Conditions.VALIDATED, true, "Validated");
          stamp(c, Conditions.APPLIED, true, "Applied");
          status.webhookURL = URL;
          status.webhookPath = PATH;
        }
        case STALE -> {
          stamp(c, Conditions.VALIDATED, false, "ValidationFailed");
          stamp(c, Conditions.APPLIED, true, "Applied");
          stamp(c, Conditions.STALE, true, "SchemaDrift");
        }
        case FAILED_REVERTED -> {
          stamp(c, Conditions.VALIDATED, false, "ValidationFailed");
          stamp(c, Conditions.APPLIED, false, "Reverted");
        }
        case FAILED_REVERT_FAILED -> {
          stamp(c, Conditions.VALIDATED, false, "ValidationFailed");
          stamp(c, Conditions.APPLIED, false, "RevertFailed");
        }
        case FAILING_CLOSED -> {
          stamp(c, Conditions.VALIDATED, false, "ValidationFailed");
          stamp(c, Conditions.APPLIED, false, "FailingClosed");
        }
        default -> throw new IllegalStateException(name());
      }
      return status;
    }
  }

  private static void stamp(List<Condition> conditions, String type, boolean ok, String reason) {
    Conditions.set(conditions, type, ok, reason, "before: " + reason, PREVIOUS_GENERATION, EARLIER);
  }

  /** One row of the phase/drift table. */
  record Row(
      Before before,
      Outcome outcome,
      Phase phase,
      String reason,
      Cond validated,
      Cond applied,
      Cond stale) {}

  private static Outcome invalid(InvalidCause cause) {
    return new Outcome.Invalid(cause, "cannot apply: " + cause.reason());
  }

  private static Outcome validationFailed(Revert revert) {
    return new Outcome.ValidationFailed("the rules do not fit the live schema", revert);
  }

  private static Outcome waiting(WaitCause cause) {
    return new Outcome.Waiting(cause, "held: " + cause.reason());
  }

  private static Outcome applied() {
    return new Outcome.Applied(URL, PATH, "the target converts through " + URL);
  }

  static Stream<Arguments> table() {
    var rows = new ArrayList<Arguments>();
    for (var cause : InvalidCause.values()) {
      rows.add(
          argumentSet(
              "never applied + " + cause.reason() + " → Invalid/" + cause.reason(),
              new Row(
                  Before.NONE,
                  invalid(cause),
                  Phase.INVALID,
                  cause.reason(),
                  no("Invalid"),
                  ABSENT,
                  ABSENT)));
      rows.add(
          argumentSet(
              "Pending + " + cause.reason() + " → Invalid/" + cause.reason(),
              new Row(
                  Before.PENDING,
                  invalid(cause),
                  Phase.INVALID,
                  cause.reason(),
                  no("Invalid"),
                  ABSENT,
                  ABSENT)));
      rows.add(
          argumentSet(
              "Applied + " + cause.reason() + " → Stale/PostApplyInvalid",
              new Row(
                  Before.APPLIED,
                  invalid(cause),
                  Phase.STALE,
                  "PostApplyInvalid",
                  no("Invalid"),
                  yes("Applied"),
                  yes("PostApplyInvalid"))));
      rows.add(
          argumentSet(
              "Stale + " + cause.reason() + " → Stale/PostApplyInvalid",
              new Row(
                  Before.STALE,
                  invalid(cause),
                  Phase.STALE,
                  "PostApplyInvalid",
                  no("Invalid"),
                  yes("Applied"),
                  yes("PostApplyInvalid"))));
    }
    rows.add(
        argumentSet(
            "reverted (Failed) + TargetNotFound → Invalid, still saying it was reverted",
            new Row(
                Before.FAILED_REVERTED,
                invalid(InvalidCause.TARGET_NOT_FOUND),
                Phase.INVALID,
                "TargetNotFound",
                no("Invalid"),
                no("Reverted"),
                ABSENT)));
    rows.add(
        argumentSet(
            "never applied + ValidationFailed → Invalid/ValidationFailed",
            new Row(
                Before.NONE,
                validationFailed(Revert.NOT_ATTEMPTED),
                Phase.INVALID,
                "ValidationFailed",
                no("ValidationFailed"),
                ABSENT,
                ABSENT)));
    rows.add(
        argumentSet(
            "Pending + ValidationFailed → Invalid/ValidationFailed",
            new Row(
                Before.PENDING,
                validationFailed(Revert.NOT_ATTEMPTED),
                Phase.INVALID,
                "ValidationFailed",
                no("ValidationFailed"),
                ABSENT,
                ABSENT)));
    rows.add(
        argumentSet(
            "Applied + ValidationFailed, KeepServingStale → Stale/SchemaDrift",
            new Row(
                Before.APPLIED,
                validationFailed(Revert.NOT_ATTEMPTED),
                Phase.STALE,
                "SchemaDrift",
                no("ValidationFailed"),
                yes("Applied"),
                yes("SchemaDrift"))));
    rows.add(
        argumentSet(
            "Stale + ValidationFailed, KeepServingStale → Stale/SchemaDrift",
            new Row(
                Before.STALE,
                validationFailed(Revert.NOT_ATTEMPTED),
                Phase.STALE,
                "SchemaDrift",
                no("ValidationFailed"),
                yes("Applied"),
                yes("SchemaDrift"))));
    for (var before :
        List.of(Before.APPLIED, Before.STALE, Before.FAILED_REVERT_FAILED, Before.FAILING_CLOSED)) {
      rows.add(
          argumentSet(
              before
                  + " + ValidationFailed, FAILING_CLOSED (several versions served) → Failed,"
                  + " Applied=False/FailingClosed",
              new Row(
                  before,
                  validationFailed(Revert.FAILING_CLOSED),
                  Phase.FAILED,
                  "FailingClosed",
                  no("ValidationFailed"),
                  no("FailingClosed"),
                  ABSENT)));
      rows.add(
          argumentSet(
              before + " + ValidationFailed, REVERTED → Failed, Applied=False/Reverted",
              new Row(
                  before,
                  validationFailed(Revert.REVERTED),
                  Phase.FAILED,
                  "Reverted",
                  no("ValidationFailed"),
                  no("Reverted"),
                  ABSENT)));
      rows.add(
          argumentSet(
              before + " + ValidationFailed, REVERT_FAILED → Failed, Applied=False/RevertFailed",
              new Row(
                  before,
                  validationFailed(Revert.REVERT_FAILED),
                  Phase.FAILED,
                  "RevertFailed",
                  no("ValidationFailed"),
                  no("RevertFailed"),
                  ABSENT)));
    }
    rows.add(
        argumentSet(
            "failed revert + policy now KeepServingStale + still invalid → Stale/SchemaDrift (the"
                + " webhook is still on the target)",
            new Row(
                Before.FAILED_REVERT_FAILED,
                validationFailed(Revert.NOT_ATTEMPTED),
                Phase.STALE,
                "SchemaDrift",
                no("ValidationFailed"),
                no("RevertFailed"),
                yes("SchemaDrift"))));
    rows.add(
        argumentSet(
            "reverted (Failed) + still invalid → stays Failed",
            new Row(
                Before.FAILED_REVERTED,
                validationFailed(Revert.NOT_ATTEMPTED),
                Phase.FAILED,
                "Reverted",
                no("ValidationFailed"),
                no("Reverted"),
                ABSENT)));
    for (var cause : WaitCause.values()) {
      for (var before : List.of(Before.NONE, Before.PENDING, Before.INVALID)) {
        rows.add(
            argumentSet(
                before + " + waiting on " + cause.reason() + " → Pending",
                new Row(
                    before,
                    waiting(cause),
                    Phase.PENDING,
                    cause.reason(),
                    yes("Validated"),
                    ABSENT,
                    ABSENT)));
      }
      rows.add(
          argumentSet(
              "reverted (Failed) + waiting on " + cause.reason() + " → Pending",
              new Row(
                  Before.FAILED_REVERTED,
                  waiting(cause),
                  Phase.PENDING,
                  cause.reason(),
                  yes("Validated"),
                  no("Reverted"),
                  ABSENT)));
      for (var before : List.of(Before.APPLIED, Before.STALE)) {
        rows.add(
            argumentSet(
                before + " + waiting on " + cause.reason() + " → Stale/" + cause.reason(),
                new Row(
                    before,
                    waiting(cause),
                    Phase.STALE,
                    cause.reason(),
                    yes("Validated"),
                    yes("Applied"),
                    yes(cause.reason()))));
      }
    }
    for (var before : Before.values()) {
      rows.add(
          argumentSet(
              before + " + applied → Applied",
              new Row(
                  before,
                  applied(),
                  Phase.APPLIED,
                  "Applied",
                  yes("Validated"),
                  yes("Applied"),
                  ABSENT)));
    }
    return rows.stream();
  }

  private static Analysis analysis(String hash) {
    var spoke = new SpokeStatus();
    spoke.version = "v1";
    spoke.hubToSpokeLossless = true;
    spoke.spokeToHubLossless = true;
    return new Analysis(List.of(spoke), true, hash, List.of(), List.of());
  }

  private static Observation observation(Outcome outcome) {
    return new Observation(GENERATION, 9L, analysis("sha256:next"), "primary", null, null, outcome);
  }

  private static ConfigStatusPolicy.Decision decide(ConversionConfigStatus before, Outcome o) {
    return ConfigStatusPolicy.next(before, observation(o), NOW);
  }

  private static Optional<Condition> condition(ConversionConfigStatus status, String type) {
    return Conditions.find(status.conditions, type);
  }

  private static void assertCondition(ConversionConfigStatus status, String type, Cond expected) {
    var actual = condition(status, type);
    if (expected == null) {
      assertThat(actual).as("%s is absent", type).isEmpty();
      return;
    }
    assertThat(actual).as("%s is present", type).isPresent();
    assertThat(actual.get().getStatus())
        .as("%s status", type)
        .isEqualTo(expected.status() ? "True" : "False");
    assertThat(actual.get().getReason()).as("%s reason", type).isEqualTo(expected.reason());
  }

  @ParameterizedTest
  @MethodSource("table")
  void everyRowOfThePhaseAndDriftTableDecidesItsPhaseReasonAndConditions(Row row) {
    var previous = row.before().status();

    var decision = decide(previous, row.outcome());
    var status = decision.status();

    assertThat(status.phase).isEqualTo(row.phase().text());
    assertThat(status.message).isEqualTo(row.outcome().message());
    assertThat(status.observedGeneration).isEqualTo(GENERATION);
    assertCondition(status, Conditions.VALIDATED, row.validated());
    assertCondition(status, Conditions.APPLIED, row.applied());
    assertCondition(status, Conditions.STALE, row.stale());
    if (row.stale() != null && !(row.outcome() instanceof Outcome.ValidationFailed)) {
      assertThat(condition(status, Conditions.STALE).orElseThrow().getMessage())
          .isEqualTo("the target keeps the last applied conversion: " + row.outcome().message());
    }
    assertThat(condition(status, Conditions.VALIDATED).orElseThrow().getObservedGeneration())
        .isEqualTo(GENERATION);
    if (row.before().phase == row.phase()) {
      assertThat(decision.change()).as("no change within one phase").isEmpty();
    } else {
      var change = decision.change().orElseThrow();
      assertThat(change.from()).isEqualTo(row.before().phase);
      assertThat(change.to()).isEqualTo(row.phase());
      assertThat(change.reason()).as("the reason metrics and events carry").isEqualTo(row.reason());
      assertThat(change.message()).isEqualTo(row.outcome().message());
    }
  }

  @Test
  void anAppliedDecisionRecordsTheWebhookAndThePlanItApplied() {
    var status = decide(Before.STALE.status(), applied()).status();

    assertThat(status.webhookURL).isEqualTo(URL);
    assertThat(status.webhookPath).isEqualTo(PATH);
    assertThat(status.schemaHash).isEqualTo("sha256:next");
    assertThat(status.lastAppliedPlanHash).isEqualTo("sha256:next");
    assertThat(condition(status, Conditions.APPLIED).orElseThrow().getMessage())
        .isEqualTo("the target converts through " + URL);
  }

  @Test
  void aStaleDecisionKeepsTheLastAppliedPlanHashAndWebhook() {
    var previous = Before.APPLIED.status();
    previous.lastAppliedPlanHash = "sha256:applied";

    var status = decide(previous, validationFailed(Revert.NOT_ATTEMPTED)).status();

    assertThat(status.schemaHash).isEqualTo("sha256:next");
    assertThat(status.lastAppliedPlanHash).isEqualTo("sha256:applied");
    assertThat(status.webhookURL).isEqualTo(URL);
  }

  @Test
  void theAnalysisTargetGenerationAndServerOfTheObservationReachTheStatus() {
    var status = decide(null, applied()).status();

    assertThat(status.observedTargetGeneration).isEqualTo(9L);
    assertThat(status.assignedWebhookServer).isEqualTo("primary");
    assertThat(status.overallLossless).isTrue();
    assertThat(status.spokeStatuses).extracting(s -> s.version).containsExactly("v1");
  }

  @Test
  void gatesThatWereNotReachedLeaveTheirFieldsAsTheyWere() {
    var previous = Before.APPLIED.status();
    previous.schemaHash = "sha256:old";
    previous.observedTargetGeneration = 3L;
    previous.assignedWebhookServer = "primary";
    var observation =
        new Observation(
            GENERATION, null, null, null, null, null, invalid(InvalidCause.TARGET_NOT_FOUND));

    var status = ConfigStatusPolicy.next(previous, observation, NOW).status();

    assertThat(status.schemaHash).isEqualTo("sha256:old");
    assertThat(status.observedTargetGeneration).isEqualTo(3L);
    assertThat(status.assignedWebhookServer).isEqualTo("primary");
  }

  @Test
  void theHealthChecksOfTheObservationBecomeTargetHealthyAndWebhookServerReady() {
    var observation =
        new Observation(
            GENERATION,
            9L,
            analysis("sha256:x"),
            "primary",
            new Check(true, "Established", "CRD caches.example.com is Established"),
            new Check(false, "ServerNotReady", "ConversionWebhookServer primary is not ready"),
            waiting(WaitCause.SERVER_NOT_READY));

    var status = ConfigStatusPolicy.next(null, observation, NOW).status();

    var target = condition(status, Conditions.TARGET_HEALTHY).orElseThrow();
    assertThat(target.getStatus()).isEqualTo("True");
    assertThat(target.getReason()).isEqualTo("Established");
    assertThat(target.getMessage()).isEqualTo("CRD caches.example.com is Established");
    assertThat(target.getObservedGeneration()).isEqualTo(GENERATION);
    var server = condition(status, Conditions.WEBHOOK_SERVER_READY).orElseThrow();
    assertThat(server.getStatus()).isEqualTo("False");
    assertThat(server.getReason()).isEqualTo("ServerNotReady");
    assertThat(server.getMessage()).isEqualTo("ConversionWebhookServer primary is not ready");
  }

  @Test
  void theFirstStatusReportsAChangeFromNothing() {
    var change = decide(null, waiting(WaitCause.NOT_ESTABLISHED)).change().orElseThrow();

    assertThat(change.from()).isNull();
    assertThat(change.to()).isEqualTo(Phase.PENDING);
    assertThat(change.reason()).isEqualTo("NotEstablished");
  }

  @Test
  void aStatusWithAnUnknownPhaseReportsAChangeFromNothing() {
    var previous = new ConversionConfigStatus();
    previous.phase = "Exploded";

    var change = decide(previous, applied()).change().orElseThrow();

    assertThat(change.from()).isNull();
    assertThat(change.to()).isEqualTo(Phase.APPLIED);
  }

  @Test
  void theSameObservationTwiceReportsNoSecondChange() {
    var first = decide(null, applied());

    var second = decide(first.status(), applied());

    assertThat(first.change()).isPresent();
    assertThat(second.change()).isEmpty();
  }

  @Test
  void everyConditionSetByADecisionCarriesTheObservedGeneration() {
    var observation =
        new Observation(
            GENERATION,
            9L,
            analysis("sha256:x"),
            "primary",
            new Check(true, "Established", "ok"),
            new Check(true, "ServerReady", "ok"),
            applied());

    var status = ConfigStatusPolicy.next(Before.STALE.status(), observation, NOW).status();

    assertThat(status.conditions)
        .extracting(Condition::getType)
        .containsExactlyInAnyOrder(
            Conditions.VALIDATED,
            Conditions.APPLIED,
            Conditions.TARGET_HEALTHY,
            Conditions.WEBHOOK_SERVER_READY);
    assertThat(status.conditions)
        .extracting(Condition::getObservedGeneration)
        .containsOnly(GENERATION);
  }

  @Test
  void theStatusItStartsFromIsNotModified() {
    var previous = Before.STALE.status();
    var conditionsBefore = List.copyOf(previous.conditions);

    decide(previous, applied());

    assertThat(previous.phase).isEqualTo("Stale");
    assertThat(previous.conditions).containsExactlyElementsOf(conditionsBefore);
    assertThat(previous.webhookURL).isNull();
    assertThat(previous.observedGeneration).isEqualTo(PREVIOUS_GENERATION);
  }

  @Test
  void aConditionWhoseStatusDoesNotFlipKeepsItsTransitionTimeButTakesTheNewReasonAndGeneration() {
    var previous = Before.APPLIED.status();

    var status = decide(previous, validationFailed(Revert.NOT_ATTEMPTED)).status();

    var applied = condition(status, Conditions.APPLIED).orElseThrow();
    assertThat(applied.getStatus()).isEqualTo("True");
    assertThat(applied.getLastTransitionTime()).isEqualTo(EARLIER_TEXT);
    var reapplied = decide(status, applied()).status();
    var again = condition(reapplied, Conditions.APPLIED).orElseThrow();
    assertThat(again.getLastTransitionTime()).isEqualTo(EARLIER_TEXT);
    assertThat(again.getMessage()).isEqualTo("the target converts through " + URL);
    assertThat(again.getObservedGeneration()).isEqualTo(GENERATION);
  }

  @Test
  void aConditionWhoseStatusFlipsIsRestampedToTheSecond() {
    var previous = Before.APPLIED.status();

    var status = decide(previous, validationFailed(Revert.REVERTED)).status();

    var validated = condition(status, Conditions.VALIDATED).orElseThrow();
    assertThat(validated.getStatus()).isEqualTo("False");
    assertThat(validated.getLastTransitionTime()).isEqualTo(NOW_TEXT);
    var applied = condition(status, Conditions.APPLIED).orElseThrow();
    assertThat(applied.getStatus()).isEqualTo("False");
    assertThat(applied.getLastTransitionTime()).isEqualTo(NOW_TEXT);
  }

  @Test
  void aNewConditionIsStampedWithTheTimeOfTheDecision() {
    var status = decide(Before.APPLIED.status(), validationFailed(Revert.NOT_ATTEMPTED)).status();

    assertThat(condition(status, Conditions.STALE).orElseThrow().getLastTransitionTime())
        .isEqualTo(NOW_TEXT);
  }

  @Test
  void aBlockedDeleteSetsDeletionBlockedAndTheMessageButKeepsThePhase() {
    var status =
        ConfigStatusPolicy.deletionBlocked(
            Before.APPLIED.status(), GENERATION, "the CRD serves v1 and v2", NOW);

    var blocked = condition(status, Conditions.DELETION_BLOCKED).orElseThrow();
    assertThat(blocked.getStatus()).isEqualTo("True");
    assertThat(blocked.getReason()).isEqualTo("MultipleServedVersions");
    assertThat(blocked.getMessage()).isEqualTo("the CRD serves v1 and v2");
    assertThat(blocked.getObservedGeneration()).isEqualTo(GENERATION);
    assertThat(blocked.getLastTransitionTime()).isEqualTo(NOW_TEXT);
    assertThat(status.message).isEqualTo("the CRD serves v1 and v2");
    assertThat(status.observedGeneration).isEqualTo(GENERATION);
    assertThat(status.phase).isEqualTo("Applied");
    assertThat(Conditions.isTrue(status.conditions, Conditions.APPLIED)).isTrue();
  }

  @Test
  void aBlockedDeleteOfAConfigWithoutStatusStartsOne() {
    var status = ConfigStatusPolicy.deletionBlocked(null, GENERATION, "blocked", NOW);

    assertThat(status.conditions).extracting(Condition::getType).containsExactly("DeletionBlocked");
  }

  @Test
  void theNextNormalDecisionRemovesDeletionBlocked() {
    var blocked =
        ConfigStatusPolicy.deletionBlocked(Before.APPLIED.status(), GENERATION, "blocked", NOW);

    var status = decide(blocked, applied()).status();

    assertThat(condition(status, Conditions.DELETION_BLOCKED)).isEmpty();
  }

  @ParameterizedTest
  @EnumSource(Phase.class)
  void onlyPhasesThatNeedAttentionAreAnnouncedAsWarnings(Phase phase) {
    var change = new ConfigStatusPolicy.PhaseChange(null, phase, "Reason", "message");

    assertThat(change.warning())
        .isEqualTo(phase == Phase.INVALID || phase == Phase.STALE || phase == Phase.FAILED);
  }

  static Stream<Arguments> reverts() {
    return Arrays.stream(Before.values())
        .flatMap(
            before ->
                Stream.of(
                    Arguments.of(before, DriftPolicy.FAIL_CLOSED),
                    Arguments.of(before, DriftPolicy.KEEP_SERVING_STALE)));
  }

  @ParameterizedTest(name = "{0} under {1}")
  @MethodSource("reverts")
  void onlyFailClosedRevertsAndOnlyATargetThatStillPointsAtTheWebhook(
      Before before, DriftPolicy policy) {
    var expected =
        policy == DriftPolicy.FAIL_CLOSED
            && (before == Before.APPLIED
                || before == Before.STALE
                || before == Before.FAILED_REVERT_FAILED
                || before == Before.FAILING_CLOSED);

    assertThat(ConfigStatusPolicy.shouldRevert(before.status(), policy)).isEqualTo(expected);
  }

  @Test
  void onlyAppliedAndStaleCountAsApplied() {
    assertThat(
            Arrays.stream(Before.values()).filter(b -> ConfigStatusPolicy.wasApplied(b.status())))
        .containsExactly(Before.APPLIED, Before.STALE);
  }

  @Test
  void theDriftPolicyIsFailClosedOnlyWhenSpelledSo() {
    assertThat(DriftPolicy.of("FailClosed")).isEqualTo(DriftPolicy.FAIL_CLOSED);
    assertThat(DriftPolicy.of("KeepServingStale")).isEqualTo(DriftPolicy.KEEP_SERVING_STALE);
    assertThat(DriftPolicy.of(null)).isEqualTo(DriftPolicy.KEEP_SERVING_STALE);
    assertThat(DriftPolicy.of("failclosed")).isEqualTo(DriftPolicy.KEEP_SERVING_STALE);
  }
}
