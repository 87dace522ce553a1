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

  @Test
  void targetsNamingListsTheTargetsOfBothKindsWhoseLiveDefinitionStillNamesTheServer()
      throws Exception {
    var server = server("a", "https://127.0.0.1:9443");
    var named = crd("{\"url\": \"https://127.0.0.1:9443/convert/t\"}");
    var elsewhere = crd("{\"url\": \"https://127.0.0.1:9999/convert/t\"}");
    var crdConfigs =
        java.util.List.of(
            Widgets.config("c1", "z.example.com"),
            Widgets.config("c2", "b.example.com"),
            Widgets.config("c3", "gone.example.com"));
    var xrdConfigs = java.util.List.of(Widgets.xrdConfig("x1", "xs.example.org"));
    var definitions =
        java.util.Map.of(
            "z.example.com", named, "b.example.com", elsewhere, "xs.example.org", named);

    var naming =
        EndpointMatch.targetsNaming(
            server,
            crdConfigs,
            t -> java.util.Optional.ofNullable(definitions.get(t)),
            xrdConfigs,
            t -> java.util.Optional.ofNullable(definitions.get(t)));

    assertThat(naming).containsExactly("xs.example.org", "z.example.com");
  }

  /** Minimal configs naming a target. */
  @Test
  void aTargetNamesTheFrontByItsNamespacesFrontServiceOrAUrlThatIsNoServersOwn() throws Exception {
    var servers = java.util.List.of(server("a", "https://127.0.0.1:9443"));
    var front =
        crd(
            "{\"service\": {\"namespace\": \"ops\", \"name\": \"versio-webhook-front\","
                + " \"path\": \"/convert/w.example.com\"}}");
    assertThat(EndpointMatch.namesFront(front, "w.example.com", servers, "ops")).isTrue();
    assertThat(EndpointMatch.namesFront(front, "w.example.com", servers, "other"))
        .as("another namespace's front")
        .isFalse();
    var own = crd("{\"service\": {\"namespace\": \"ops\", \"name\": \"a-webhook-server\"}}");
    assertThat(EndpointMatch.namesFront(own, "w.example.com", servers, "ops")).isFalse();

    var urlFront = crd("{\"url\": \"https://127.0.0.1:8443/convert/w.example.com\"}");
    assertThat(EndpointMatch.namesFront(urlFront, "w.example.com", servers, "ops")).isTrue();
    var serverUrl = crd("{\"url\": \"https://127.0.0.1:9443/convert/w.example.com\"}");
    assertThat(EndpointMatch.namesFront(serverUrl, "w.example.com", servers, "ops"))
        .as("server a's own URL")
        .isFalse();
    assertThat(EndpointMatch.namesFront(urlFront, "other.example.com", servers, "ops"))
        .as("a path for another target")
        .isFalse();
  }

  private static final class Widgets {
    static dev.versio.api.config.CRDConversionConfig config(String name, String target) {
      var c = new dev.versio.api.config.CRDConversionConfig();
      c.setMetadata(new ObjectMetaBuilder().withName(name).build());
      c.setSpec(new dev.versio.api.config.CRDConversionConfigSpec());
      c.getSpec().targetCRD = new dev.versio.api.config.NameRef(target);
      return c;
    }

    static dev.versio.api.config.XRDConversionConfig xrdConfig(String name, String target) {
      var c = new dev.versio.api.config.XRDConversionConfig();
      c.setMetadata(new ObjectMetaBuilder().withName(name).build());
      c.setSpec(new dev.versio.api.config.XRDConversionConfigSpec());
      c.getSpec().targetXRD = new dev.versio.api.config.NameRef(target);
      return c;
    }
  }
}
