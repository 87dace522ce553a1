package dev.versio.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.versio.api.config.CRDConversionConfig;
import dev.versio.api.config.NameRef;
import dev.versio.api.config.XRDConversionConfig;
import dev.versio.engine.json.EngineJson;
import dev.versio.engine.schema.ResourceSchemas;
import dev.versio.engine.schema.SchemaNode;
import dev.versio.testkit.ControlPlane;
import dev.versio.testkit.KubeApiServerTest;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.dsl.FilterWatchListDeletable;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every example story, end to end through a real kube-apiserver: the story's CRD points its
 * conversion webhook at a Versio webhook server (in this JVM: the same code {@code versio
 * webhook-server} runs, started in a second instead of a process, and debuggable), the config is
 * applied as a custom resource, and every sample is created at its version and read back at every
 * other version with get, list and watch.
 */
@KubeApiServerTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ExampleStoriesThroughApiserverIT {
  private static final String SERVER = "stories-it";
  private static final String NAMESPACE = "stories-it";

  private KubernetesClient client;
  private WebhookServer server;
  private String caBundle;

  @BeforeAll
  void startServerAndApplyStories(
      KubernetesClient client, ControlPlane controlPlane, @TempDir Path certDir) throws Exception {
    this.client = client;
    WebhookFixture.installVersioCrds(client);
    client
        .namespaces()
        .resource(
            new NamespaceBuilder().withNewMetadata().withName(NAMESPACE).endMetadata().build())
        .serverSideApply();
    // Crossplane's XRD API must exist before the server starts for it to watch XRDs
    installCrd(client, (ObjectNode) WebhookFixture.YAML.readTree(XRD_API_CRD));
    caBundle = WebhookFixture.writeCertificate(certDir);
    server = WebhookFixture.start(controlPlane, SERVER, certDir);
    var cws = WebhookFixture.serverObject(SERVER, server.conversionPort(), caBundle);
    client.resource(cws).serverSideApply();
    for (var story : stories().toList()) {
      var xrd = isXrd(story);
      if (xrd) {
        client
            .resource(
                Serialization.unmarshal(
                    Files.readString(story.resolve("xrd.yaml")), GenericKubernetesResource.class))
            .serverSideApply();
      }
      var crd = crdOf(story);
      var name = crd.path("metadata").path("name").asText();
      var webhook =
          ((ObjectNode) crd.path("spec"))
              .putObject("conversion")
              .put("strategy", "Webhook")
              .putObject("webhook");
      webhook.putArray("conversionReviewVersions").add("v1");
      webhook
          .putObject("clientConfig")
          .put("url", "https://127.0.0.1:" + server.conversionPort() + "/convert/" + name)
          .put("caBundle", caBundle);
      installCrd(client, crd);
      var configYaml = Files.readString(story.resolve("config.yaml"));
      if (xrd) {
        var config = Serialization.unmarshal(configYaml, XRDConversionConfig.class);
        config.getSpec().webhookServerRef = new NameRef(SERVER);
        client.resource(config).serverSideApply();
      } else {
        var config = Serialization.unmarshal(configYaml, CRDConversionConfig.class);
        config.getSpec().webhookServerRef = new NameRef(SERVER);
        client.resource(config).serverSideApply();
      }
    }
    await()
        .atMost(Duration.ofSeconds(60))
        .untilAsserted(
            () -> {
              for (var story : stories().toList()) {
                var target = crdOf(story).path("metadata").path("name").asText();
                assertThat(server.registry().get(target))
                    .as("registry entry of %s", target)
                    .hasValueSatisfying(
                        e -> assertThat(e.servable()).as("servable: %s", e.lastError()).isTrue());
              }
            });
  }

  @AfterAll
  void stopServer() {
    if (server != null) {
      server.close();
    }
  }

  /**
   * A minimal stand-in for Crossplane's XRD CRD: enough for XRD objects to be stored and watched.
   */
  private static final String XRD_API_CRD =
      """
      apiVersion: apiextensions.k8s.io/v1
      kind: CustomResourceDefinition
      metadata: {name: compositeresourcedefinitions.apiextensions.crossplane.io}
      spec:
        group: apiextensions.crossplane.io
        scope: Cluster
        names: {kind: CompositeResourceDefinition, plural: compositeresourcedefinitions}
        versions:
        - name: v2
          served: true
          storage: true
          schema:
            openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}
      """;

  private static boolean isXrd(Path story) {
    return Files.exists(story.resolve("xrd.yaml"));
  }

  /**
   * The story's CRD; for an XRD story, the CRD Crossplane would generate from it: the same group,
   * names, scope and version schemas, with the referenceable version as the storage version.
   */
  private static ObjectNode crdOf(Path story) throws IOException {
    if (!isXrd(story)) {
      return (ObjectNode) WebhookFixture.yaml(story.resolve("crd.yaml"));
    }
    var xrd = WebhookFixture.yaml(story.resolve("xrd.yaml"));
    var crd = EngineJson.nodes().objectNode();
    crd.put("apiVersion", "apiextensions.k8s.io/v1").put("kind", "CustomResourceDefinition");
    crd.putObject("metadata").put("name", xrd.path("metadata").path("name").asText());
    var spec = crd.putObject("spec");
    spec.put("group", xrd.path("spec").path("group").asText());
    spec.put("scope", xrd.path("spec").path("scope").asText("Cluster"));
    spec.set("names", xrd.path("spec").path("names").deepCopy());
    var versions = spec.putArray("versions");
    for (var v : xrd.path("spec").path("versions")) {
      versions
          .addObject()
          .put("name", v.path("name").asText())
          .put("served", v.path("served").asBoolean(true))
          .put("storage", v.path("referenceable").asBoolean(false))
          .set("schema", v.path("schema").deepCopy());
    }
    return crd;
  }

  private static void installCrd(KubernetesClient client, ObjectNode crd) {
    client
        .resource(Serialization.unmarshal(crd.toString(), CustomResourceDefinition.class))
        .serverSideApply();
    WebhookFixture.awaitEstablished(client, crd.path("metadata").path("name").asText());
  }

  static Stream<Path> stories() throws IOException {
    var examples = WebhookFixture.repositoryRoot().resolve("examples");
    try (var list = Files.list(examples)) {
      return list
          .filter(
              p ->
                  Files.exists(p.resolve("config.yaml"))
                      && (Files.exists(p.resolve("crd.yaml")) || isXrd(p)))
          .sorted()
          .toList()
          .stream();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("stories")
  void everySampleCreatedAtItsVersionReadsBackAtEveryOtherVersion(Path story) throws Exception {
    var crd = crdOf(story);
    var source =
        isXrd(story)
            ? ResourceSchemas.xrd(WebhookFixture.yaml(story.resolve("xrd.yaml")))
            : ResourceSchemas.crd(crd);
    var group = crd.path("spec").path("group").asText();
    var plural = crd.path("spec").path("names").path("plural").asText();
    var kind = crd.path("spec").path("names").path("kind").asText();
    var namespaced = crd.path("spec").path("scope").asText().equals("Namespaced");
    var samples = new TreeMap<String, Map<String, JsonNode>>();
    try (var files = Files.list(story.resolve("samples"))) {
      for (var file : files.sorted().toList()) {
        var parts = file.getFileName().toString().split("\\.");
        samples
            .computeIfAbsent(parts[0], k -> new TreeMap<>())
            .put(parts[1], WebhookFixture.yaml(file));
      }
    }
    int checked = 0;
    for (var sample : samples.entrySet()) {
      for (var from : sample.getValue().entrySet()) {
        var name =
            (story.getFileName() + "-" + sample.getKey() + "-from-" + from.getKey()).toLowerCase();
        var object =
            Serialization.unmarshal(
                toCreate(from.getValue(), name, namespaced).toString(),
                GenericKubernetesResource.class);
        var api =
            client.genericKubernetesResources(
                context(group, from.getKey(), kind, plural, namespaced));
        (namespaced ? api.inNamespace(NAMESPACE) : api).resource(object).create();
        for (var to : source.versions()) {
          if (to.name().equals(from.getKey())) {
            continue;
          }
          var expectedFile =
              story
                  .resolve("expected")
                  .resolve(sample.getKey() + "." + from.getKey() + "-to-" + to.name() + ".yaml");
          var expected =
              Files.exists(expectedFile)
                  ? WebhookFixture.yaml(expectedFile)
                  : sample.getValue().get(to.name());
          if (expected == null) {
            continue;
          }
          var readApi =
              client.genericKubernetesResources(
                  context(group, to.name(), kind, plural, namespaced));
          var got = (namespaced ? readApi.inNamespace(NAMESPACE) : readApi).withName(name).get();
          assertSame(
              story,
              sample.getKey(),
              from.getKey(),
              to.name(),
              "get",
              json(got),
              expected,
              to.schema());
          var listed =
              (namespaced ? readApi.inNamespace(NAMESPACE) : readApi)
                  .list().getItems().stream()
                      .filter(o -> o.getMetadata().getName().equals(name))
                      .findFirst()
                      .orElseThrow();
          assertSame(
              story,
              sample.getKey(),
              from.getKey(),
              to.name(),
              "list",
              json(listed),
              expected,
              to.schema());
          assertSame(
              story,
              sample.getKey(),
              from.getKey(),
              to.name(),
              "watch",
              json(watchAdded(namespaced ? readApi.inNamespace(NAMESPACE) : readApi, name)),
              expected,
              to.schema());
          checked++;
        }
      }
    }
    assertThat(checked).as("conversions checked through the apiserver").isPositive();
  }

  /** The object as the first (synthetic ADDED) event of a watch at the read version delivers it. */
  private static GenericKubernetesResource watchAdded(
      FilterWatchListDeletable<GenericKubernetesResource, ?, ?> api, String name) throws Exception {
    var added = new CompletableFuture<GenericKubernetesResource>();
    try (var watch =
        api.withField("metadata.name", name)
            .watch(
                new Watcher<>() {
                  @Override
                  public void eventReceived(Action action, GenericKubernetesResource resource) {
                    if (action == Action.ADDED) {
                      added.complete(resource);
                    } else if (action == Action.ERROR) {
                      added.completeExceptionally(
                          new AssertionError("watch of " + name + " sent an ERROR event"));
                    }
                  }

                  @Override
                  public void onClose(WatcherException cause) {
                    added.completeExceptionally(
                        new AssertionError("watch of " + name + " closed: " + cause.getMessage()));
                  }
                })) {
      return added.get(30, TimeUnit.SECONDS);
    }
  }

  private static void assertSame(
      Path story,
      String sample,
      String from,
      String to,
      String how,
      JsonNode got,
      JsonNode expected,
      SchemaNode schema) {
    assertThat(got.path("apiVersion").asText()).endsWith("/" + to);
    for (var field : new String[] {"spec", "status"}) {
      var property = schema.property(field);
      if (property.isEmpty()) {
        continue;
      }
      var want = SchemaPruner.prune(expected.get(field), property.get());
      var have = got.get(field);
      assertThat(EngineJson.sameValue(have, want))
          .as(
              "%s: %s created at %s, %s at %s: %s%n got:      %s%n expected: %s",
              story.getFileName(), sample, from, how, to, field, have, want)
          .isTrue();
    }
    for (var field : new String[] {"labels", "annotations"}) {
      var want = expected.path("metadata").path(field);
      var have = got.path("metadata").path(field);
      assertThat(
              EngineJson.sameValue(
                  have.isMissingNode() ? EngineJson.nodes().objectNode() : have,
                  want.isMissingNode() ? EngineJson.nodes().objectNode() : want))
          .as(
              "%s: %s created at %s, %s at %s: metadata.%s%n got:      %s%n expected: %s",
              story.getFileName(), sample, from, how, to, field, have, want)
          .isTrue();
    }
  }

  private static JsonNode toCreate(JsonNode sample, String name, boolean namespaced) {
    var copy = (ObjectNode) sample.deepCopy();
    var metadata = (ObjectNode) copy.path("metadata");
    metadata.put("name", name);
    metadata.remove("namespace");
    if (namespaced) {
      metadata.put("namespace", NAMESPACE);
    }
    return copy;
  }

  private static JsonNode json(GenericKubernetesResource resource) {
    try {
      return EngineJson.newMapper().readTree(Serialization.asJson(resource));
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  static ResourceDefinitionContext context(
      String group, String version, String kind, String plural, boolean namespaced) {
    return new ResourceDefinitionContext.Builder()
        .withGroup(group)
        .withVersion(version)
        .withKind(kind)
        .withPlural(plural)
        .withNamespaced(namespaced)
        .build();
  }
}
