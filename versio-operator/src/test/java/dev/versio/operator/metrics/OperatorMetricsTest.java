package dev.versio.operator.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OperatorMetricsTest {

  @Test
  void configPhaseGaugesKeepCountingTheCacheAfterGarbageCollection() {
    var metrics = new OperatorMetrics();
    var phases = new ArrayList<String>(List.of("Applied", "Applied"));
    metrics.configPhases(Map.of("CRDConversionConfig", () -> List.copyOf(phases)));
    for (int i = 0; i < 3; i++) {
      System.gc(); // a weakly held supplier (only the gauge references the lambda) is cleared
    }
    phases.add("Invalid");
    var registry = metrics.registry();
    assertThat(
            registry
                .get("versio.operator.configs")
                .tags("config_kind", "CRDConversionConfig", "phase", "Applied")
                .gauge()
                .value())
        .isEqualTo(2.0);
    assertThat(
            registry
                .get("versio.operator.configs")
                .tags("config_kind", "CRDConversionConfig", "phase", "Invalid")
                .gauge()
                .value())
        .isEqualTo(1.0);
  }
}
