package dev.versio.api.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import org.junit.jupiter.api.Test;

class EndpointMatchTest {
  private static ConversionWebhookServer server(String name, String url) {
    var server = new ConversionWebhookServer();
    server.setMetadata(new ObjectMetaBuilder().withName(name).build());
    server.setSpec(new ConversionWebhookServerSpec());
    server.getSpec().url = url;
    return server;
  }

  private static JsonNode crd(String clientConfig) throws Exception {
    return new ObjectMapper()
        .readTree(
            "{\"spec\": {\"conversion\": {\"strategy\": \"Webhook\", \"webhook\": {\"clientConfig\": "
                + clientConfig
                + "}}}}");
  }

  @Test
  void aUrlModeServerIsNamedByAUrlUnderItsOwn() throws Exception {
    var server = server("a", "https://127.0.0.1:9443/");
    assertThat(
            EndpointMatch.names(server, crd("{\"url\": \"https://127.0.0.1:9443/convert/x.io\"}")))
        .isTrue();
    assertThat(
            EndpointMatch.names(server, crd("{\"url\": \"https://127.0.0.1:94430/convert/x.io\"}")))
        .as("another port that merely starts the same")
        .isFalse();
    assertThat(
            EndpointMatch.names(server, crd("{\"url\": \"https://localhost:9443/convert/x.io\"}")))
        .isFalse();
  }

  @Test
  void aServiceModeServerIsNamedByItsService() throws Exception {
    var server = server("a", null);
    assertThat(
            EndpointMatch.names(
                server,
                crd("{\"service\": {\"name\": \"a-webhook-server\", \"namespace\": \"v\"}}")))
        .isTrue();
    assertThat(
            EndpointMatch.names(
                server,
                crd("{\"service\": {\"name\": \"b-webhook-server\", \"namespace\": \"v\"}}")))
        .isFalse();
  }

  @Test
  void aTargetWithoutAWebhookNamesNoServer() throws Exception {
    var none =
        new ObjectMapper().readTree("{\"spec\": {\"conversion\": {\"strategy\": \"None\"}}}");
    assertThat(EndpointMatch.names(server("a", "https://127.0.0.1:9443"), none)).isFalse();
    assertThat(EndpointMatch.names(server("a", null), none)).isFalse();
  }
}
