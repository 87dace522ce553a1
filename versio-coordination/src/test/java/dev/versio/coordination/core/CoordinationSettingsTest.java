package dev.versio.coordination.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class CoordinationSettingsTest {

  @Test
  void theDefaultsAre256ShardsAndFifteenSecondLeasesRenewedEveryFiveWithATenSecondDeadline() {
    var defaults = CoordinationSettings.defaults("versio-operator", "1.0.0");
    assertThat(defaults.shardCount()).isEqualTo(256);
    assertThat(defaults.leaseDuration()).isEqualTo(Duration.ofSeconds(15));
    assertThat(defaults.renewInterval()).isEqualTo(Duration.ofSeconds(5));
    assertThat(defaults.renewDeadline()).isEqualTo(Duration.ofSeconds(10));
  }

  @Test
  void aDeadlineThatASingleFailedRenewalWouldReachIsRefusedWithTheFix() {
    assertThatThrownBy(() -> settings(15, 5, 6, 1))
        .hasMessageContaining("renewDeadline (PT6S) must exceed renewInterval + retryInterval")
        .hasMessageContaining("raise renewDeadline");
  }

  @Test
  void aDeadlineTooCloseToTheLeaseDurationIsRefusedWithTheFix() {
    assertThatThrownBy(() -> settings(15, 5, 11, 1))
        .hasMessageContaining("at most leaseDuration - renewInterval (PT10S)")
        .hasMessageContaining("lower renewDeadline or raise leaseDuration");
  }

  @Test
  void aLeaseDurationThatIsNotWholeSecondsIsRefusedBecauseLeasesPublishSeconds() {
    assertThatThrownBy(
            () ->
                new CoordinationSettings(
                    "g",
                    64,
                    Duration.ofMillis(2900),
                    Duration.ofMillis(500),
                    Duration.ofMillis(2400),
                    Duration.ofMillis(100),
                    "1"))
        .hasMessageContaining("whole seconds");
  }

  @Test
  void aGroupNameMustBeAShortDnsLabel() {
    assertThatThrownBy(
            () ->
                new CoordinationSettings(
                    "Versio_Operator",
                    64,
                    Duration.ofSeconds(15),
                    Duration.ofSeconds(5),
                    Duration.ofSeconds(10),
                    Duration.ofSeconds(1),
                    "1"))
        .hasMessageContaining("DNS label");
  }

  private static CoordinationSettings settings(int lease, int renew, int deadline, int retry) {
    return new CoordinationSettings(
        "g",
        64,
        Duration.ofSeconds(lease),
        Duration.ofSeconds(renew),
        Duration.ofSeconds(deadline),
        Duration.ofSeconds(retry),
        "1");
  }
}
