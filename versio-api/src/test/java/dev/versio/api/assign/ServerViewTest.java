package dev.versio.api.assign;

import static org.assertj.core.api.Assertions.assertThat;

import dev.versio.api.server.ConversionWebhookServer;
import dev.versio.api.server.ConversionWebhookServerSpec;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import org.junit.jupiter.api.Test;

class ServerViewTest {
  private static ConversionWebhookServer pooled(String name, Double weight) {
    var server = new ConversionWebhookServer();
    server.setMetadata(new ObjectMetaBuilder().withName(name).build());
    server.setSpec(new ConversionWebhookServerSpec());
    server.getSpec().sharding = new ConversionWebhookServerSpec.Sharding();
    server.getSpec().sharding.weight = weight;
    return server;
  }

  @Test
  void aShardingBlockPutsTheServerInThePoolWithItsWeight() {
    var view = ServerView.of(pooled("blue", 2.5));
    assertThat(view.inPool()).isTrue();
    assertThat(view.weight()).isEqualTo(2.5);
    assertThat(ServerView.of(pooled("green", null)).weight()).isEqualTo(1.0);
  }

  @Test
  void aServerBeingDeletedLeavesThePoolSoItsTargetsMoveToTheOthers() {
    var deleting = pooled("blue", null);
    deleting.getMetadata().setDeletionTimestamp("2026-12-01T00:00:00Z");
    assertThat(ServerView.of(deleting).inPool()).isFalse();

    var target = "widgets.example.com";
    var stay = ServerView.of(pooled("green", null));
    var before =
        AssignmentResolver.resolve(
            null, target, java.util.List.of(stay, ServerView.of(pooled("blue", 1e9))));
    assertThat(before.isTo("blue")).as("blue, weighted up, wins while it is in the pool").isTrue();
    var after =
        AssignmentResolver.resolve(null, target, java.util.List.of(stay, ServerView.of(deleting)));
    assertThat(after.isTo("green")).isTrue();
  }
}
