package dev.versio.api.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.versio.api.config.CRDConversionConfig;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;

/**
 * During a rolling upgrade a replica of the previous release lists objects whose status a newer
 * operator wrote, with fields it does not know. One such field must not fail the whole list (the
 * replica would never become ready); the status is informational, so unknown fields are skipped.
 */
class StatusFromANewerOperatorTest {

  @Test
  void aServerStatusWithFieldsFromANewerReleaseIsReadAndTheKnownFieldsKept() {
    var server =
        Serialization.unmarshal(
            """
            {"apiVersion":"versio.dev/v1alpha1","kind":"ConversionWebhookServer",
             "metadata":{"name":"default"},
             "spec":{"default":true},
             "status":{"readyReplicas":2,"fieldOfANewerRelease":7,
               "assignedConfigs":[{"name":"caches.example.com","alsoNew":{"x":1}}]}}
            """,
            ConversionWebhookServer.class);

    assertThat(server.getStatus().readyReplicas).isEqualTo(2);
    assertThat(server.getStatus().assignedConfigs)
        .singleElement()
        .satisfies(c -> assertThat(c.name).isEqualTo("caches.example.com"));
  }

  @Test
  void aConfigStatusWithFieldsFromANewerReleaseIsReadAndTheKnownFieldsKept() {
    var config =
        Serialization.unmarshal(
            """
            {"apiVersion":"versio.dev/v1alpha1","kind":"CRDConversionConfig",
             "metadata":{"name":"caches.example.com"},
             "spec":{"targetCRD":{"name":"caches.example.com"},"hubVersion":"v2","spokes":[]},
             "status":{"phase":"Applied","newCounter":3,
               "spokeStatuses":[{"version":"v1","newVerdict":"x"}]}}
            """,
            CRDConversionConfig.class);

    assertThat(config.getStatus().phase).isEqualTo("Applied");
    assertThat(config.getStatus().spokeStatuses).hasSize(1);
  }
}
