package dev.versio.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import dev.versio.engine.compile.CompiledConfig;
import dev.versio.engine.route.Router;
import dev.versio.webhook.registry.Registry;
import dev.versio.webhook.registry.RegistryEntry;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RegistryTest {
  private final List<Map<String, RegistryEntry>> published = new ArrayList<>();
  private final Registry registry =
      new Registry(
          Clock.fixed(Instant.parse("2026-11-29T10:00:00Z"), ZoneOffset.UTC), published::add);
  private final Router router =
      new Router(new CompiledConfig("CRD t", "v2", Map.of(), List.of()), "example.com");

  @Test
  void aFailedRecompileKeepsTheWorkingRouterAndRecordsTheError() {
    registry.set("t", router, "crd/t", "gen=1");
    registry.recordError("t", "crd/t", "bad path");
    var entry = registry.get("t").orElseThrow();
    assertThat(entry.servable()).isTrue();
    assertThat(entry.router()).containsSame(router);
    assertThat(entry.lastError()).isEqualTo("bad path");
    assertThat(entry.planHash()).isEqualTo("gen=1");
  }

  @Test
  void aConfigThatFailsClosedReplacesTheWorkingRouterWithAPlaceholder() {
    registry.set("t", router, "crd/t", "gen=1");
    registry.refuse("t", "crd/t", "bad path (driftPolicy FailClosed)");
    var entry = registry.get("t").orElseThrow();
    assertThat(entry.servable()).isFalse();
    assertThat(entry.lastError()).isEqualTo("bad path (driftPolicy FailClosed)");
  }

  @Test
  void aFirstFailedCompileLeavesAnErrorOnlyPlaceholder() {
    registry.recordError("t", "crd/t", "CRD t not found");
    assertThat(registry.get("t"))
        .hasValueSatisfying(
            e -> {
              assertThat(e.servable()).isFalse();
              assertThat(e.lastError()).isEqualTo("CRD t not found");
            });
  }

  @Test
  void aSuccessfulCompileClearsTheErrorAndEveryChangeIsPublishedAsAnImmutableSnapshot() {
    registry.recordError("t", "crd/t", "oops");
    registry.set("t", router, "crd/t", "gen=2");
    assertThat(registry.get("t").orElseThrow().lastError()).isNull();
    registry.remove("t");
    assertThat(registry.get("t")).isEmpty();
    assertThat(published).hasSize(3);
    assertThat(published.get(1)).containsKey("t");
    assertThat(published.get(2)).isEmpty();
  }
}
