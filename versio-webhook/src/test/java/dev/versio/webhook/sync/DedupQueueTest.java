package dev.versio.webhook.sync;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class DedupQueueTest {
  @Test
  void aKeyAddedAgainWhileItWaitsIsHandledOnceInItsFirstPlace() throws Exception {
    var queue = new DedupQueue<String>();
    queue.addAll(List.of("a", "b", "a", "c", "b"));

    assertThat(queue.size()).isEqualTo(3);
    assertThat(queue.poll(Duration.ZERO)).isEqualTo("a");
    assertThat(queue.poll(Duration.ZERO)).isEqualTo("b");
    assertThat(queue.add("a")).as("taken, so it may wait again").isTrue();
    assertThat(queue.poll(Duration.ZERO)).isEqualTo("c");
    assertThat(queue.poll(Duration.ZERO)).isEqualTo("a");
    assertThat(queue.poll(Duration.ofMillis(1))).isNull();
  }
}
