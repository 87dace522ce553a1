package dev.versio.webhook.sync;

import static org.assertj.core.api.Assertions.assertThat;

import dev.versio.api.server.ConversionWebhookServer;
import dev.versio.api.server.ConversionWebhookServerStatus;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import org.junit.jupiter.api.Test;

class SyncInformersTest {
  private static ConversionWebhookServer server(long generation, String deletion) {
    var server = new ConversionWebhookServer();
    server.setMetadata(
        new ObjectMetaBuilder()
            .withName("alpha")
            .withGeneration(generation)
            .withDeletionTimestamp(deletion)
            .build());
    return server;
  }

  @Test
  void aStatusWriteIsNoChangeForTheReplicaItsSpecOrDeletionIs() {
    var before = server(3, null);
    var statusWritten = server(3, null);
    statusWritten.setStatus(new ConversionWebhookServerStatus());
    statusWritten.getMetadata().setLabels(java.util.Map.of("team", "a"));
    assertThat(SyncInformers.specOrDeletionChanged(before, statusWritten)).isFalse();
    assertThat(SyncInformers.specOrDeletionChanged(before, server(4, null))).isTrue();
    assertThat(SyncInformers.specOrDeletionChanged(before, server(3, "2026-12-05T08:00:00Z")))
        .isTrue();
  }
}
