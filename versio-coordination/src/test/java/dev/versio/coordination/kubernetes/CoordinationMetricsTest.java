package dev.versio.coordination.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class CoordinationMetricsTest {

  @Test
  void theResyncBacklogGaugeKeepsReadingItsSupplierAfterGarbageCollection() {
    var registry = new SimpleMeterRegistry();
    var backlog = new AtomicInteger(7);
    new CoordinationMetrics(registry).resyncBacklog(backlog::get);
    for (int i = 0; i < 3; i++) {
      System.gc(); // a weakly held supplier (nothing else references the lambda) would be cleared
    }
    backlog.set(9);
    assertThat(registry.get("versio.coordination.resync.backlog").gauge().value()).isEqualTo(9.0);
  }
}
