package dev.versio.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.versio.testkit.process.ManagedProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ManagedProcessTest {
  @TempDir Path dir;

  @Test
  void theChildSeesTheGivenEnvironmentOnTopOfOurs() throws IOException {
    var log = dir.resolve("logs/child.log");
    var child =
        ManagedProcess.start(
            "printer",
            List.of("sh", "-c", "echo \"$VERSIO_TEST_VALUE $HOME\""),
            Map.of("VERSIO_TEST_VALUE", "given"),
            log);
    await().atMost(Duration.ofSeconds(10)).until(() -> !child.isAlive());

    assertThat(Files.readString(log).trim()).isEqualTo("given " + System.getenv("HOME"));
  }
}
