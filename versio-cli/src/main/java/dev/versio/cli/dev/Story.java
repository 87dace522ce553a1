package dev.versio.cli.dev;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.versio.testkit.stories.CrossplaneStandIn;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * One example story as {@code versio dev} applies it: {@code examples/<story>/crd.yaml} (or {@code
 * xrd.yaml}, a Crossplane XRD), {@code config.yaml} and {@code samples/<name>.<version>.yaml} (the
 * same object at every version).
 *
 * @param xrd the story's XRD; null for a CRD story
 * @param crd the CRD the objects are served from: {@code crd.yaml}, or the one Crossplane generates
 *     from the XRD
 */
record Story(
    String name,
    Path dir,
    GenericKubernetesResource xrd,
    CustomResourceDefinition crd,
    GenericKubernetesResource config,
    List<Sample> samples) {

  static final String CRD_CONFIG_KIND = "CRDConversionConfig";
  static final String XRD_CONFIG_KIND = "XRDConversionConfig";

  /** One sample file: the object {@code sample} at {@code version}. */
  record Sample(String sample, String version, Path file, GenericKubernetesResource object) {
    String objectName() {
      return object.getMetadata().getName();
    }

    String namespace() {
      var ns = object.getMetadata().getNamespace();
      return ns == null || ns.isBlank() ? "default" : ns;
    }
  }

  /**
   * The {@code examples} folder: the first one found in {@code start} or a folder above it, else
   * above {@code fallback} (where the launcher's jar lives); empty when there is none.
   */
  static Optional<Path> findExamples(Path start, Path fallback) {
    for (var origin : new Path[] {start, fallback}) {
      for (var dir = origin == null ? null : origin.toAbsolutePath().normalize();
          dir != null;
          dir = dir.getParent()) {
        var candidate = dir.resolve("examples");
        if (Files.isDirectory(candidate)) {
          return Optional.of(candidate);
        }
      }
    }
    return Optional.empty();
  }

  /** Loads and checks the story {@code name}; a problem is a {@link DevFailure#SETUP} failure. */
  static Story load(Path examples, String name) {
    var dir = examples.resolve(name);
    if (name.contains("/") || !Files.isDirectory(dir)) {
      throw DevFailure.setup(
          "there is no story '" + name + "' in " + examples,
          "Stories here: " + String.join(", ", storiesIn(examples)));
    }
    GenericKubernetesResource xrd = null;
    CustomResourceDefinition crd;
    if (Files.exists(dir.resolve("xrd.yaml"))) {
      xrd = read(dir.resolve("xrd.yaml"), GenericKubernetesResource.class);
      var generated = CrossplaneStandIn.generatedCrd(readTree(dir.resolve("xrd.yaml")));
      crd = Serialization.unmarshal(generated.toString(), CustomResourceDefinition.class);
    } else {
      crd = read(dir.resolve("crd.yaml"), CustomResourceDefinition.class);
    }
    var config = read(dir.resolve("config.yaml"), GenericKubernetesResource.class);
    var kind = xrd == null ? CRD_CONFIG_KIND : XRD_CONFIG_KIND;
    if (!kind.equals(config.getKind())) {
      throw DevFailure.setup(
          dir.resolve("config.yaml") + " is a " + config.getKind() + ", not a " + kind);
    }
    var samples = new ArrayList<Sample>();
    var samplesDir = dir.resolve("samples");
    if (Files.isDirectory(samplesDir)) {
      try (Stream<Path> files = Files.list(samplesDir)) {
        for (var file : files.sorted().toList()) {
          var parts = file.getFileName().toString().split("\\.");
          if (parts.length != 3 || !(parts[2].equals("yaml") || parts[2].equals("yml"))) {
            continue;
          }
          samples.add(
              new Sample(parts[0], parts[1], file, read(file, GenericKubernetesResource.class)));
        }
      } catch (IOException e) {
        throw DevFailure.setup("cannot list " + samplesDir + ": " + e.getMessage());
      }
    }
    var story = new Story(name, dir, xrd, crd, config, List.copyOf(samples));
    story.check();
    return story;
  }

  private void check() {
    if (crd.getSpec() == null
        || crd.getSpec().getVersions() == null
        || crd.getSpec().getVersions().isEmpty()) {
      throw DevFailure.setup(dir.resolve(definitionFile()) + " has no spec.versions");
    }
    if (crd.getSpec().getVersions().stream().noneMatch(v -> Boolean.TRUE.equals(v.getStorage()))) {
      throw DevFailure.setup(
          dir.resolve(definitionFile())
              + (isXrd()
                  ? " marks no version as referenceable: true"
                  : " marks no version as storage: true"));
    }
    if (samples.isEmpty()) {
      throw DevFailure.setup(
          "the story '" + name + "' has no samples/<name>.<version>.yaml to create");
    }
    for (var sample : samples) {
      var expected = group() + "/" + sample.version();
      if (!expected.equals(sample.object().getApiVersion())) {
        throw DevFailure.setup(
            sample.file()
                + " has apiVersion "
                + sample.object().getApiVersion()
                + " but its file name says "
                + expected);
      }
    }
  }

  boolean isXrd() {
    return xrd != null;
  }

  /** {@code crd.yaml} or {@code xrd.yaml}. */
  String definitionFile() {
    return isXrd() ? "xrd.yaml" : "crd.yaml";
  }

  String configKind() {
    return isXrd() ? XRD_CONFIG_KIND : CRD_CONFIG_KIND;
  }

  /** The kubectl name of the config's kind. */
  String configResource() {
    return isXrd() ? "xrdconversionconfigs.versio.dev" : "crdconversionconfigs.versio.dev";
  }

  /** The name of the CRD, which is also the XRD's for an XRD story. */
  String crdName() {
    return crd.getMetadata().getName();
  }

  String configName() {
    return config.getMetadata().getName();
  }

  String group() {
    return crd.getSpec().getGroup();
  }

  String plural() {
    return crd.getSpec().getNames().getPlural();
  }

  String kind() {
    return crd.getSpec().getNames().getKind();
  }

  boolean namespaced() {
    return "Namespaced".equals(crd.getSpec().getScope());
  }

  /** The served versions, in the order of the CRD. */
  List<String> versions() {
    return crd.getSpec().getVersions().stream()
        .filter(v -> !Boolean.FALSE.equals(v.getServed()))
        .map(CustomResourceDefinitionVersion::getName)
        .toList();
  }

  String storageVersion() {
    return crd.getSpec().getVersions().stream()
        .filter(v -> Boolean.TRUE.equals(v.getStorage()))
        .map(CustomResourceDefinitionVersion::getName)
        .findFirst()
        .orElseThrow();
  }

  /**
   * The files to create, one per sample: the one at the storage version (stored as it is, so no
   * conversion is needed to create it), else the first one.
   */
  List<Sample> toCreate() {
    var bySample = new LinkedHashMap<String, List<Sample>>();
    samples.forEach(s -> bySample.computeIfAbsent(s.sample(), k -> new ArrayList<>()).add(s));
    return bySample.values().stream()
        .map(
            files ->
                files.stream()
                    .filter(s -> s.version().equals(storageVersion()))
                    .findFirst()
                    .orElse(files.getFirst()))
        .toList();
  }

  /** {@code caches.v1.example.com}: the kubectl resource name of {@code version}. */
  String resourceAt(String version) {
    return plural() + "." + version + "." + group();
  }

  /** The example folders that hold a story: a config and a CRD or XRD. */
  static List<String> storiesIn(Path examples) {
    try (Stream<Path> dirs = Files.list(examples)) {
      return dirs.filter(d -> Files.exists(d.resolve("config.yaml")))
          .filter(d -> Files.exists(d.resolve("crd.yaml")) || Files.exists(d.resolve("xrd.yaml")))
          .map(d -> d.getFileName().toString())
          .sorted(Comparator.naturalOrder())
          .toList();
    } catch (IOException e) {
      return List.of();
    }
  }

  private static JsonNode readTree(Path file) {
    try {
      return new YAMLMapper().readTree(file.toFile());
    } catch (IOException e) {
      throw DevFailure.setup("cannot read " + file + ": " + e.getMessage());
    }
  }

  private static <T> T read(Path file, Class<T> type) {
    try {
      return Serialization.unmarshal(Files.readString(file), type);
    } catch (IOException e) {
      throw DevFailure.setup("cannot read " + file + ": " + e.getMessage());
    } catch (RuntimeException e) {
      throw DevFailure.setup(file + " is not valid YAML for a " + type.getSimpleName() + ": " + e);
    }
  }
}
