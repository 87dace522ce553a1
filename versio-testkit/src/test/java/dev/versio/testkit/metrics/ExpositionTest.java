package dev.versio.testkit.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ExpositionTest {
  private static final String BODY =
      """
      # HELP apiserver_request_duration_seconds Response latency
      # TYPE apiserver_request_duration_seconds histogram
      apiserver_request_duration_seconds_sum{group="a",verb="GET",version="v1"} 1.5
      apiserver_request_duration_seconds_sum{group="a",verb="LIST",version="v1"} 7
      apiserver_request_duration_seconds_sum{group="b",verb="GET",version="v1"} 2.25
      apiserver_request_duration_seconds_count{group="a",verb="GET",version="v1"} 3
      up 1
      """;

  @Test
  void sumsTheSamplesOfExactlyThatNameWhoseLabelsContainEveryOneAsked() {
    assertThat(Exposition.sum(BODY, "apiserver_request_duration_seconds_sum", "verb=\"GET\""))
        .isEqualTo(3.75);
    assertThat(
            Exposition.sum(
                BODY, "apiserver_request_duration_seconds_sum", "verb=\"GET\"", "group=\"a\""))
        .isEqualTo(1.5);
    assertThat(Exposition.sum(BODY, "apiserver_request_duration_seconds", "verb=\"GET\""))
        .as("the histogram's base name has no samples of its own")
        .isZero();
    assertThat(Exposition.sum(BODY, "up")).isEqualTo(1);
  }
}
