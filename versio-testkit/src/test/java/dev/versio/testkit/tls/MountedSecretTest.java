package dev.versio.testkit.tls;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MountedSecretTest {
  @Test
  void anUpdateReplacesEveryFileThroughOneSwappedLinkAndLeavesOneVersionBehind(@TempDir Path dir)
      throws Exception {
    var secret = MountedSecret.create(dir, Map.of("tls.crt", "cert 1", "tls.key", "key 1"));
    assertThat(Files.readString(dir.resolve("tls.crt"))).isEqualTo("cert 1");

    secret.update(Map.of("tls.crt", "cert 2", "tls.key", "key 2"));

    assertThat(Files.readString(dir.resolve("tls.crt"))).isEqualTo("cert 2");
    assertThat(Files.readString(dir.resolve("tls.key"))).isEqualTo("key 2");
    assertThat(Files.readSymbolicLink(dir.resolve("tls.crt")))
        .isEqualTo(Path.of("..data", "tls.crt"));
    try (var entries = Files.list(dir)) {
      assertThat(entries.map(p -> p.getFileName().toString()))
          .containsExactlyInAnyOrder("..data", "..v2", "tls.crt", "tls.key");
    }
  }
}
