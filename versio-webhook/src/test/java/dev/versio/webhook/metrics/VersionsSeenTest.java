package dev.versio.webhook.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.versio.webhook.review.ReviewOutcome;
import dev.versio.webhook.review.ReviewResult;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class VersionsSeenTest {
  private static final Instant T0 = Instant.parse("2026-12-04T10:00:00Z");

  @Test
  void aReviewStampsBothItsVersionsAndALaterOneMovesThemOn() {
    var clock = new MutableClock(T0);
    var seen = new VersionsSeen(clock);

    seen.record("widgets.example.com", "v1", "v2");
    clock.now = T0.plusSeconds(90);
    seen.record("widgets.example.com", null, "v2");

    assertThat(seen.snapshot().get("widgets.example.com"))
        .containsEntry("v1", T0.getEpochSecond())
        .containsEntry("v2", T0.getEpochSecond() + 90);
    assertThat(seen.since()).isEqualTo(T0);
  }

  @Test
  void aTargetNoLongerServedIsForgotten() {
    var seen = new VersionsSeen(new MutableClock(T0));
    seen.record("widgets.example.com", "v1", "v2");

    seen.forget("widgets.example.com");

    assertThat(seen.snapshot()).isEmpty();
  }

  @Test
  void aTargetThatCameHereAfterTheStartIsWatchedFromThenOnly() {
    var clock = new MutableClock(T0);
    var seen = new VersionsSeen(clock);
    seen.serving(java.util.Set.of("loaded.example.com"));
    clock.now = T0.plusSeconds(5);
    seen.settle();
    clock.now = T0.plusSeconds(600);
    seen.serving(java.util.Set.of("loaded.example.com", "moved.example.com"));
    clock.now = T0.plusSeconds(700);
    seen.record("moved.example.com", "v1", "v2");

    var snapshot = seen.snapshot();

    assertThat(snapshot)
        .as("served from the start: the replica's start covers it")
        .doesNotContainKey("loaded.example.com");
    assertThat(snapshot.get("moved.example.com"))
        .containsEntry(dev.versio.api.served.VersionsSeenCodec.WATCHING, T0.getEpochSecond() + 600)
        .containsEntry("v1", T0.getEpochSecond() + 700);
    seen.serving(java.util.Set.of("loaded.example.com"));
    assertThat(seen.snapshot()).as("no longer served here").doesNotContainKey("moved.example.com");
  }

  @Test
  void everyReviewTheMetricsCountIsAlsoRecorded() {
    var metrics = new WebhookMetrics(false, new MutableClock(T0));

    metrics.review(
        "widgets.example.com",
        new ReviewOutcome(200, null, null, ReviewResult.SUCCESS, "uid", "v1", "v2", 1, null),
        1_000);

    assertThat(metrics.versionsSeen().snapshot().get("widgets.example.com"))
        .containsOnlyKeys("v1", "v2");
  }

  private static final class MutableClock extends Clock {
    Instant now;

    MutableClock(Instant now) {
      this.now = now;
    }

    @Override
    public Instant instant() {
      return now;
    }

    @Override
    public java.time.ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }
  }
}
