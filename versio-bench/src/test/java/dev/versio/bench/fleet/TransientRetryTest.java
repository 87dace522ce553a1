package dev.versio.bench.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class TransientRetryTest {
  private static KubernetesClientException status(int code) {
    return new KubernetesClientException("status " + code, code, null);
  }

  @Test
  void throttlingServerErrorsAndDiscoveryLagAreRetriedButInvalidRequestsAndConflictsAreNot() {
    assertThat(TransientRetry.isTransient(status(429))).isTrue();
    assertThat(TransientRetry.isTransient(status(503))).isTrue();
    assertThat(TransientRetry.isTransient(status(404))).isTrue();
    assertThat(TransientRetry.isTransient(status(0))).isTrue();
    assertThat(TransientRetry.isTransient(status(422))).isFalse();
    assertThat(TransientRetry.isTransient(status(409))).isFalse();
    assertThat(TransientRetry.isTransient(new IllegalStateException("bug"))).isFalse();
  }

  @Test
  void theWaitDoublesFromTwoHundredMillisecondsUpToFiveSeconds() {
    var retry = TransientRetry.DEFAULT;

    assertThat(retry.backoff(1)).isEqualTo(Duration.ofMillis(200));
    assertThat(retry.backoff(2)).isEqualTo(Duration.ofMillis(400));
    assertThat(retry.backoff(5)).isEqualTo(Duration.ofMillis(3200));
    assertThat(retry.backoff(6)).isEqualTo(Duration.ofSeconds(5));
    assertThat(retry.backoff(29)).isEqualTo(Duration.ofSeconds(5));
  }

  @Test
  void aTransientFailureIsTriedAgainUntilItSucceeds() throws Exception {
    var calls = new AtomicInteger();
    var retry = new TransientRetry(5, Duration.ZERO, Duration.ZERO);

    var result =
        retry.run(
            () -> {
              if (calls.incrementAndGet() < 3) {
                throw status(429);
              }
              return "created";
            });

    assertThat(result).isEqualTo("created");
    assertThat(calls).hasValue(3);
  }

  @Test
  void aPermanentFailureIsNotRetriedAndTheLastTransientOneIsReportedWhenTriesRunOut() {
    var calls = new AtomicInteger();
    var retry = new TransientRetry(4, Duration.ZERO, Duration.ZERO);

    assertThatThrownBy(
            () ->
                retry.run(
                    () -> {
                      calls.incrementAndGet();
                      throw status(422);
                    }))
        .hasMessage("status 422");
    assertThat(calls).hasValue(1);

    calls.set(0);
    assertThatThrownBy(
            () ->
                retry.run(
                    () -> {
                      calls.incrementAndGet();
                      throw status(503);
                    }))
        .hasMessage("status 503");
    assertThat(calls).hasValue(4);
  }
}
