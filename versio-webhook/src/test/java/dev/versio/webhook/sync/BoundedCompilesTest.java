package dev.versio.webhook.sync;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

class BoundedCompilesTest {
  @Test
  void everyCompileThatFinishesIsCollectedInKeyOrder() throws Exception {
    var outcomes =
        BoundedCompiles.run(List.of("a", "b", "c"), 2, Duration.ofSeconds(30), String::toUpperCase);

    assertThat(outcomes)
        .containsExactly(
            new BoundedCompiles.Outcome.Done<>("A"),
            new BoundedCompiles.Outcome.Done<>("B"),
            new BoundedCompiles.Outcome.Done<>("C"));
  }

  @Test
  void aCompileThatNeverEndsIsGivenUpOnAndTheQueueBehindItStillRuns() throws Exception {
    var never = new CountDownLatch(1);
    try {
      // one slot: the stuck compile holds it until its budget is over, and ignores interruption
      // as the engine does
      var outcomes =
          BoundedCompiles.run(
              List.of("stuck", "next", "last"),
              1,
              Duration.ofMillis(200),
              key -> {
                if (key.equals("stuck")) {
                  while (never.getCount() > 0) {
                    Thread.onSpinWait();
                  }
                }
                return key;
              });

      assertThat(outcomes)
          .containsExactly(
              new BoundedCompiles.Outcome.TimedOut<>(),
              new BoundedCompiles.Outcome.Done<>("next"),
              new BoundedCompiles.Outcome.Done<>("last"));
    } finally {
      never.countDown();
    }
  }

  @Test
  void aQueuedCompileIsNotTimedWhileItWaitsForASlot() throws Exception {
    // each compile takes 300 ms of a 1 s budget; with one slot the last of five waits 1.2 s
    // before it starts (timed from the queue it would be given up on), and finishes within its own
    var outcomes =
        BoundedCompiles.run(
            List.of("a", "b", "c", "d", "e"),
            1,
            Duration.ofMillis(1_000),
            key -> {
              try {
                Thread.sleep(300); // the work being timed, not a wait for logic
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              return key;
            });

    assertThat(outcomes).allMatch(o -> o instanceof BoundedCompiles.Outcome.Done<?>);
  }

  @Test
  void aCompileThatThrowsIsReportedWithItsCause() throws Exception {
    var outcomes =
        BoundedCompiles.run(
            List.of("x"),
            1,
            Duration.ofSeconds(30),
            key -> {
              throw new IllegalStateException("boom");
            });

    assertThat(outcomes.getFirst())
        .isInstanceOfSatisfying(
            BoundedCompiles.Outcome.Failed.class, f -> assertThat(f.cause()).hasMessage("boom"));
  }
}
