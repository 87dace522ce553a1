package dev.versio.operator.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.versio.api.served.ServedView;
import dev.versio.api.server.ConversionWebhookServerStatus;
import dev.versio.api.server.ConversionWebhookServerStatus.AssignedConfig;
import dev.versio.operator.server.ServerObservation.Check;
import dev.versio.operator.status.Conditions;
import io.fabric8.kubernetes.api.model.Condition;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ServerStatusPolicyTest {
  private static final Instant EARLIER = Instant.parse("2025-03-01T10:00:00Z");
  private static final Instant NOW = Instant.parse("2025-03-01T11:30:00.250Z");
  private static final String EARLIER_TEXT = "2025-03-01T10:00:00Z";
  private static final String NOW_TEXT = "2025-03-01T11:30:00Z";
  private static final Check OK = new Check(true, "Ready", "ok");

  private static AssignedConfig assigned(String kind, String name) {
    var config = new AssignedConfig();
    config.kind = kind;
    config.name = name;
    config.target = name;
    config.phase = "Applied";
    return config;
  }

  private static ServerObservation observation(
      Check available, List<AssignedConfig> assigned, List<String> otherDefaults) {
    return new ServerObservation(
        available,
        OK,
        OK,
        2,
        1,
        "https://primary.versio-system.svc:443",
        assigned,
        otherDefaults,
        ServedView.NONE);
  }

  @Test
  void theStatusCarriesWhatTheLiveReplicasReportServing() {
    var h = healthy();
    var observed =
        new ServerObservation(
            h.available(),
            h.certificateReady(),
            h.serviceReady(),
            2,
            2,
            h.endpoint(),
            List.of(),
            List.of(),
            new ServedView(List.of("a.example.com", "b.example.com"), 2, List.of()));

    var status = next(null, true, observed, Instant.parse("2026-12-01T00:00:00Z"));

    assertThat(status.servedTargets).containsExactly("a.example.com", "b.example.com");
    assertThat(status.reportingReplicas).isEqualTo(2);
    assertThat(status.servedTargetCount).as("for kubectl get's Served column").isEqualTo(2);
    assertThat(status.assignedConfigCount).isZero();
  }

  private static ServerObservation healthy() {
    return observation(OK, List.of(), List.of());
  }

  private static ConversionWebhookServerStatus next(
      ConversionWebhookServerStatus previous,
      boolean isDefault,
      ServerObservation observation,
      Instant now) {
    return ServerStatusPolicy.next(previous, isDefault, "primary", 3, observation, now);
  }

  private static Optional<Condition> condition(ConversionWebhookServerStatus status, String type) {
    return Conditions.find(status.conditions, type);
  }

  @Test
  void theThreeConditionsFollowTheObservation() {
    var available = new Check(false, "NoReadyReplicas", "0/2 replicas are ready");

    var status = next(null, false, observation(available, List.of(), List.of()), NOW);

    assertThat(status.conditions)
        .extracting(Condition::getType)
        .containsExactly("Available", "CertificateReady", "ServiceReady");
    var condition = condition(status, "Available").orElseThrow();
    assertThat(condition.getStatus()).isEqualTo("False");
    assertThat(condition.getReason()).isEqualTo("NoReadyReplicas");
    assertThat(condition.getMessage()).isEqualTo("0/2 replicas are ready");
    assertThat(condition.getObservedGeneration()).isEqualTo(3);
    assertThat(condition.getLastTransitionTime()).isEqualTo(NOW_TEXT);
    assertThat(Conditions.isTrue(status.conditions, "CertificateReady")).isTrue();
    assertThat(Conditions.isTrue(status.conditions, "ServiceReady")).isTrue();
  }

  @Test
  void aConditionKeepsItsTransitionTimeUntilItFlips() {
    var first = next(null, false, healthy(), EARLIER);

    var same = next(first, false, healthy(), NOW);
    var flipped =
        next(same, false, observation(new Check(false, "Down", "gone"), List.of(), List.of()), NOW);

    assertThat(condition(same, "Available").orElseThrow().getLastTransitionTime())
        .isEqualTo(EARLIER_TEXT);
    assertThat(condition(flipped, "Available").orElseThrow().getLastTransitionTime())
        .isEqualTo(NOW_TEXT);
    assertThat(condition(flipped, "ServiceReady").orElseThrow().getLastTransitionTime())
        .isEqualTo(EARLIER_TEXT);
  }

  @Test
  void replicasEndpointAndGenerationComeFromTheObservation() {
    var status = next(null, false, healthy(), NOW);

    assertThat(status.observedGeneration).isEqualTo(3);
    assertThat(status.replicas).isEqualTo(2);
    assertThat(status.readyReplicas).isEqualTo(1);
    assertThat(status.endpoint).isEqualTo("https://primary.versio-system.svc:443");
  }

  @Test
  void assignedConfigsAreSortedByNameThenKind() {
    var observation =
        observation(
            OK,
            List.of(
                assigned("XRDConversionConfig", "b"),
                assigned("XRDConversionConfig", "a"),
                assigned("CRDConversionConfig", "b"),
                assigned("CRDConversionConfig", "c")),
            List.of());

    var status = next(null, false, observation, NOW);

    assertThat(status.assignedConfigs)
        .extracting(c -> c.name + "/" + c.kind)
        .containsExactly(
            "a/XRDConversionConfig",
            "b/CRDConversionConfig",
            "b/XRDConversionConfig",
            "c/CRDConversionConfig");
  }

  @Test
  void aDefaultServerBesideOtherDefaultsReportsTheConflictNamingThemAll() {
    var status = next(null, true, observation(OK, List.of(), List.of("zeta", "alpha")), NOW);

    var conflict = condition(status, "DefaultConflict").orElseThrow();
    assertThat(conflict.getStatus()).isEqualTo("True");
    assertThat(conflict.getReason()).isEqualTo("MultipleDefaults");
    assertThat(conflict.getMessage())
        .isEqualTo(
            "several servers are marked default (alpha, primary, zeta); configs without"
                + " webhookServerRef resolve to none until exactly one is");
    assertThat(conflict.getObservedGeneration()).isEqualTo(3);
  }

  @Test
  void theOnlyDefaultServerHasNoConflict() {
    var status = next(null, true, healthy(), NOW);

    assertThat(condition(status, "DefaultConflict")).isEmpty();
  }

  @Test
  void aServerThatIsNotDefaultHasNoConflictWhateverOthersDo() {
    var status = next(null, false, observation(OK, List.of(), List.of("alpha", "zeta")), NOW);

    assertThat(condition(status, "DefaultConflict")).isEmpty();
  }

  @Test
  void theConflictIsRemovedOnceItEnds() {
    var conflicted = next(null, true, observation(OK, List.of(), List.of("alpha")), EARLIER);

    var resolved = next(conflicted, true, healthy(), NOW);
    var demoted = next(conflicted, false, observation(OK, List.of(), List.of("alpha")), NOW);

    assertThat(condition(conflicted, "DefaultConflict")).isPresent();
    assertThat(condition(resolved, "DefaultConflict")).isEmpty();
    assertThat(condition(demoted, "DefaultConflict")).isEmpty();
  }

  @Test
  void theStatusItStartsFromIsNotModified() {
    var previous = next(null, true, observation(OK, List.of(), List.of("alpha")), EARLIER);
    var conditions = List.copyOf(previous.conditions);

    next(previous, false, observation(new Check(false, "Down", "gone"), List.of(), List.of()), NOW);

    assertThat(previous.conditions).containsExactlyElementsOf(conditions);
  }

  @Test
  void aBlockedDeleteSetsDeletionBlockedAndKeepsTheRest() {
    var previous = next(null, true, healthy(), EARLIER);

    var status = ServerStatusPolicy.deletionBlocked(previous, 3, "deletion blocked: a, b", NOW);

    var blocked = condition(status, Conditions.DELETION_BLOCKED).orElseThrow();
    assertThat(blocked.getStatus()).isEqualTo("True");
    assertThat(blocked.getReason()).isEqualTo("ConfigsStillAssigned");
    assertThat(blocked.getMessage()).isEqualTo("deletion blocked: a, b");
    assertThat(blocked.getLastTransitionTime()).isEqualTo(NOW_TEXT);
    assertThat(Conditions.isTrue(status.conditions, "Available")).isTrue();
    assertThat(condition(previous, Conditions.DELETION_BLOCKED)).isEmpty();
  }

  @Test
  void aBlockedDeleteOfAServerWithoutStatusStartsOne() {
    var status = ServerStatusPolicy.deletionBlocked(null, 3, "blocked", NOW);

    assertThat(status.conditions)
        .extracting(Condition::getType)
        .containsExactly(Conditions.DELETION_BLOCKED);
  }
}
