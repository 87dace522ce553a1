package dev.versio.webhook.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.versio.webhook.review.ReviewOutcome;
import dev.versio.webhook.review.ReviewResult;
import org.junit.jupiter.api.Test;

class WebhookMetricsTest {
  private static ReviewOutcome review(String from, String to) {
    return new ReviewOutcome(200, null, null, ReviewResult.SUCCESS, "u", from, to, 1, null);
  }

  private static long series(WebhookMetrics metrics, String target) {
    return metrics
        .scrape()
        .lines()
        .filter(l -> !l.startsWith("#"))
        .filter(l -> l.contains("target=\"" + target + "\""))
        .count();
  }

  @Test
  void versionPairsDoNotMultiplyATargetsSeriesUnlessAskedFor() {
    var metrics = new WebhookMetrics();
    metrics.review("a.example.com", review("v1", "v2"), 1_000_000);
    long one = series(metrics, "a.example.com");
    metrics.review("a.example.com", review("v2", "v1"), 1_000_000);
    metrics.review("a.example.com", review("v1", "v3"), 1_000_000);

    assertThat(series(metrics, "a.example.com"))
        .as("same series for any version pair")
        .isEqualTo(one);
    assertThat(metrics.scrape()).doesNotContain("from=\"");

    var detailed = new WebhookMetrics(true);
    detailed.review("a.example.com", review("v1", "v2"), 1_000_000);
    detailed.review("a.example.com", review("v2", "v1"), 1_000_000);
    assertThat(detailed.scrape()).contains("from=\"v2\",").contains("to=\"v1\"");
  }

  @Test
  void aTargetNoLongerServedLeavesNoSeriesBehind() {
    var metrics = new WebhookMetrics();
    metrics.review("gone.example.com", review("v1", "v2"), 1_000_000);
    metrics.compile("gone.example.com", "error", "InvalidRules", 1_000);
    metrics.review("kept.example.com", review("v1", "v2"), 1_000_000);

    metrics.forgetTarget("gone.example.com");

    assertThat(series(metrics, "gone.example.com")).isZero();
    assertThat(series(metrics, "kept.example.com")).isPositive();
  }
}
