package dev.versio.bench.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RequestTimingsTest {
  private static final long MS = 1_000_000;

  @Test
  void failedRequestsCountInNAndErrorsButNeverAsLatencies() {
    var timings = new RequestTimings();
    for (int i = 1; i <= 99; i++) {
      timings.ok(0, i * MS);
    }
    timings.failed(0, 30_000 * MS, "timeout");

    var json = timings.toJson();

    assertThat(json.path("n").asLong()).isEqualTo(100);
    assertThat(json.path("errors").asLong()).isEqualTo(1);
    assertThat(json.path("p50Ms").asDouble()).isEqualTo(50.0);
    assertThat(json.path("maxMs").asDouble()).isEqualTo(99.0);
    assertThat(json.path("errorSamples")).hasSize(1);
  }

  @Test
  void throughputIsRequestsOverTheWallTimeOfTheWholeClass() {
    var timings = new RequestTimings();
    timings.ok(0, 100 * MS);
    timings.ok(1_900 * MS, 2_000 * MS);

    assertThat(timings.toJson().path("perSecond").asDouble()).isEqualTo(1.0);
  }

  @Test
  void atMostFiveDistinctErrorSamplesAreKept() {
    var timings = new RequestTimings();
    for (int i = 0; i < 20; i++) {
      timings.failed(0, MS, "cause " + (i % 7));
    }

    assertThat(timings.samples())
        .containsExactly("cause 0", "cause 1", "cause 2", "cause 3", "cause 4");
    assertThat(timings.toJson().path("p50Ms").isNull()).isTrue();
  }
}
