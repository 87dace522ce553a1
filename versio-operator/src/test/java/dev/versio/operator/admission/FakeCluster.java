package dev.versio.operator.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.versio.api.config.CRDConversionConfig;
import dev.versio.api.config.CRDConversionConfigSpec;
import dev.versio.api.config.NameRef;
import dev.versio.api.config.SpokeSpec;
import dev.versio.api.config.XRDConversionConfig;
import dev.versio.api.config.XRDConversionConfigSpec;
import dev.versio.api.server.ConversionWebhookServer;
import dev.versio.api.server.ConversionWebhookServerSpec;
import dev.versio.engine.json.EngineJson;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** An in-memory {@link ClusterView} for validator tests; any read can be made to fail. */
final class FakeCluster implements ClusterView {
  /** Every target consents (the rules of most tests here are about something else). */
  static final dev.versio.operator.config.TargetConsent ANY_TARGET =
      new dev.versio.operator.config.TargetConsent(java.util.List.of("*"));

  /**
   * The server rules with the operator's defaults (its namespace, the image versio:latest) and URL
   * mode on, which most rules here are about.
   */
  static final ServerValidator SERVERS =
      new ServerValidator(
          new dev.versio.operator.server.ServerSpecPolicy(
              "versio-system",
              java.util.Set.of(),
              java.util.List.of("versio"),
              java.util.Set.of(),
              null,
              true));

  static final YAMLMapper YAML = EngineJson.configure(YAMLMapper.builder()).build();

  final List<CRDConversionConfig> crdConfigs = new ArrayList<>();
  final List<XRDConversionConfig> xrdConfigs = new ArrayList<>();
  final List<ConversionWebhookServer> servers = new ArrayList<>();
  final Map<String, JsonNode> crds = new HashMap<>();
  final Map<String, JsonNode> xrds = new HashMap<>();
  final Set<String> failing = new HashSet<>();
  int reads;

  @Override
  public List<CRDConversionConfig> crdConfigs() {
    read("list CRDConversionConfigs");
    return crdConfigs;
  }

  @Override
  public List<XRDConversionConfig> xrdConfigs() {
    read("list XRDConversionConfigs");
    return xrdConfigs;
  }

  @Override
  public List<ConversionWebhookServer> servers() {
    read("list ConversionWebhookServers");
    return servers;
  }

  @Override
  public Optional<JsonNode> crd(String name) {
    read("read CustomResourceDefinition " + name);
    return Optional.ofNullable(crds.get(name));
  }

  @Override
  public Optional<JsonNode> xrd(String name) {
    read("read CompositeResourceDefinition " + name);
    return Optional.ofNullable(xrds.get(name));
  }

  private void read(String what) {
    reads++;
    if (failing.contains(what) || failing.contains("*")) {
      throw new Unavailable(what, new IllegalStateException("connection refused"));
    }
  }

  FakeCluster with(ConversionWebhookServer... more) {
    servers.addAll(List.of(more));
    return this;
  }

  FakeCluster withCrd(JsonNode crd) {
    crds.put(crd.path("metadata").path("name").asText(), crd);
    return this;
  }

  FakeCluster withXrd(JsonNode xrd) {
    xrds.put(xrd.path("metadata").path("name").asText(), xrd);
    return this;
  }

  static Path repositoryRoot() {
    var dir = Path.of("").toAbsolutePath();
    while (dir != null && !Files.isDirectory(dir.resolve("deploy/crds"))) {
      dir = dir.getParent();
    }
    if (dir == null) {
      throw new IllegalStateException("no deploy/crds above " + Path.of("").toAbsolutePath());
    }
    return dir;
  }

  /** An example file (e.g. {@code field-rename/crd.yaml}) as exact JSON. */
  static JsonNode example(String file) {
    try {
      return YAML.readTree(repositoryRoot().resolve("examples").resolve(file).toFile());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static <T> T example(String file, Class<T> type) {
    try {
      return YAML.treeToValue(example(file), type);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static CRDConversionConfig crdConfig(String name, String target, String server) {
    var c = new CRDConversionConfig();
    c.setMetadata(new ObjectMetaBuilder().withName(name).build());
    var spec = new CRDConversionConfigSpec();
    spec.targetCRD = new NameRef(target);
    spec.hubVersion = "v2";
    var spoke = new SpokeSpec();
    spoke.version = "v1";
    spec.spokes.add(spoke);
    spec.webhookServerRef = server == null ? null : new NameRef(server);
    c.setSpec(spec);
    return c;
  }

  static XRDConversionConfig xrdConfig(String name, String target, String server) {
    var c = new XRDConversionConfig();
    c.setMetadata(new ObjectMetaBuilder().withName(name).build());
    var spec = new XRDConversionConfigSpec();
    spec.targetXRD = new NameRef(target);
    spec.hubVersion = "v2";
    var spoke = new SpokeSpec();
    spoke.version = "v1";
    spec.spokes.add(spoke);
    spec.webhookServerRef = server == null ? null : new NameRef(server);
    c.setSpec(spec);
    return c;
  }

  static ConversionWebhookServer server(String name) {
    var s = new ConversionWebhookServer();
    s.setMetadata(new ObjectMetaBuilder().withName(name).build());
    s.setSpec(new ConversionWebhookServerSpec());
    return s;
  }

  static ConversionWebhookServer defaultServer(String name) {
    var s = server(name);
    s.getSpec().isDefault = true;
    return s;
  }

  static ConversionWebhookServer poolMember(ConversionWebhookServer s) {
    s.getSpec().sharding = new ConversionWebhookServerSpec.Sharding();
    return s;
  }
}
