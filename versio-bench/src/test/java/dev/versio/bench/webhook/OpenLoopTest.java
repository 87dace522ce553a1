package dev.versio.bench.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class OpenLoopTest {
  private static final OpenLoop.Settings SHORT =
      new OpenLoop.Settings(200, Duration.ofMillis(500), 32, Duration.ofMillis(300));

  @Test
  void everyScheduledRequestIsAnsweredOrCountedAsAnError() throws InterruptedException {
    var result = OpenLoop.run(SHORT, i -> CompletableFuture.completedFuture(200));

    assertThat(result.scheduled()).isEqualTo(100);
    assertThat(result.answered()).isEqualTo(100);
    assertThat(result.errors()).isEmpty();
    assertThat(result.latencyMillis(0.5)).isLessThan(300);
  }

  @Test
  void aRequestThatNeverAnswersIsATimeoutErrorNotALatency() throws InterruptedException {
    var result =
        OpenLoop.run(
            SHORT,
            i ->
                i % 10 == 0
                    ? new CompletableFuture<>() // never completes
                    : CompletableFuture.completedFuture(i % 5 == 0 ? 503 : 200));

    assertThat(result.errors()).containsEntry("timeout", 10).containsEntry("HTTP 503", 10);
    assertThat(result.answered()).isEqualTo(80);
    assertThat(result.answered() + result.failed()).isEqualTo(result.scheduled());
    assertThat(java.util.Arrays.stream(result.latenciesNanos()).min().orElseThrow()).isPositive();
  }

  @Test
  void aSendThatThrowsIsCountedByItsCause() throws InterruptedException {
    var result =
        OpenLoop.run(
            SHORT,
            i -> {
              if (i == 7) {
                throw new IllegalStateException("no connection");
              }
              return CompletableFuture.failedFuture(new java.net.ConnectException("refused"));
            });

    assertThat(result.errors())
        .containsEntry("IllegalStateException", 1)
        .containsEntry("ConnectException", 99);
    assertThat(result.answered()).isZero();
    assertThat(result.latencyMillis(0.99)).isNaN();
  }

  @Test
  void noMoreThanMaxInFlightAreOutstandingAndTheirWaitCountsInTheLatency()
      throws InterruptedException {
    var outstanding = new AtomicInteger();
    var most = new AtomicInteger();
    try (var server = Executors.newSingleThreadScheduledExecutor()) {
      // each answer takes 20 ms and only 2 may be outstanding: 100 answers/s against 200 due/s
      var result =
          OpenLoop.run(
              new OpenLoop.Settings(200, Duration.ofMillis(500), 2, Duration.ofSeconds(5)),
              i -> {
                most.accumulateAndGet(outstanding.incrementAndGet(), Math::max);
                var answer = new CompletableFuture<Integer>();
                server.schedule(
                    () -> {
                      outstanding.decrementAndGet();
                      answer.complete(200);
                    },
                    20,
                    TimeUnit.MILLISECONDS);
                return answer;
              });

      assertThat(most.get()).isLessThanOrEqualTo(2);
      assertThat(result.answered()).isEqualTo(100);
      assertThat(result.late()).as("sends that waited for a free slot").isPositive();
      // the last request was due at 0.5 s but could be answered only after ~1 s of work
      assertThat(result.latencyMillis(1.0)).isGreaterThan(300);
      assertThat(result.answeredPerSecond()).isLessThan(150);
    }
  }

  @Test
  void settingsThatScheduleNothingAreRefused() {
    assertThatThrownBy(
            () -> new OpenLoop.Settings(1, Duration.ofMillis(500), 1, Duration.ofSeconds(1)))
        .hasMessageContaining("schedules no request");
    assertThatThrownBy(() -> new OpenLoop.Settings(100, Duration.ofSeconds(1), 0, Duration.ZERO))
        .hasMessageContaining("maxInFlight");
  }
}
