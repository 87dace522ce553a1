package dev.versio.operator.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.versio.api.config.ConversionConfigStatus;
import dev.versio.operator.status.Conditions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import org.junit.jupiter.api.Test;

class StorageMigrationStepTest {
  private static final Instant APPLIED_AT = Instant.parse("2026-12-05T14:00:00Z");

  @Test
  void aRunWaitsUntilTheConversionHasBeenAppliedForTheSettleTime() {
    var status = appliedAt(APPLIED_AT);

    assertThat(StorageMigrationStep.settling(status, APPLIED_AT.plusSeconds(3)))
        .contains(StorageMigrationStep.SETTLE.minusSeconds(3));
    assertThat(StorageMigrationStep.settling(status, APPLIED_AT.plus(StorageMigrationStep.SETTLE)))
        .isEmpty();
    assertThat(StorageMigrationStep.settling(status, APPLIED_AT.plus(Duration.ofHours(1))))
        .isEmpty();
  }

  @Test
  void aConfigThatIsNotAppliedHasNothingToSettle() {
    var status = new ConversionConfigStatus();
    status.conditions = new ArrayList<>();
    Conditions.set(status.conditions, Conditions.APPLIED, "False", "Pending", "", 1, APPLIED_AT);

    assertThat(StorageMigrationStep.settling(status, APPLIED_AT)).isEmpty();
  }

  private static ConversionConfigStatus appliedAt(Instant when) {
    var status = new ConversionConfigStatus();
    status.conditions = new ArrayList<>();
    Conditions.set(status.conditions, Conditions.APPLIED, "True", "Applied", "", 1, when);
    return status;
  }
}
