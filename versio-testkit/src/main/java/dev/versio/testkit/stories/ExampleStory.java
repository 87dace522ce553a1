package dev.versio.testkit.stories;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.versio.engine.json.EngineJson;
import dev.versio.engine.schema.ResourceSchemas;
import dev.versio.engine.schema.SchemaSource;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * One story under the repository's {@code examples/}, standing in for a user's resource definition,
 * Versio config and objects: a CRD ({@code crd.yaml}) or a Crossplane XRD ({@code xrd.yaml}), the
 * config converting between its versions ({@code config.yaml}), one or more objects written at each
 * of their versions ({@code samples/NAME.VERSION.yaml}) and, where a conversion is not simply the
 * sample at the other version, its expected output ({@code expected/NAME.FROM-to-TO.yaml}).
 *
 * @param dir the story's folder
 */
public record ExampleStory(Path dir) {
  private static final YAMLMapper YAML = EngineJson.configure(YAMLMapper.builder()).build();

  /** The checkout's root: the first folder with {@code deploy/crds} upward from the working one. */
  public static Path repositoryRoot() {
    var dir = Path.of("").toAbsolutePath();
    while (dir != null && !Files.isDirectory(dir.resolve("deploy/crds"))) {
      dir = dir.getParent();
    }
    if (dir == null) {
      throw new IllegalStateException("no deploy/crds above " + Path.of("").toAbsolutePath());
    }
    return dir;
  }

  /** Every story under {@code examples/}, by name: the folders with a config and a CRD or XRD. */
  public static List<ExampleStory> all() {
    try (var list = Files.list(repositoryRoot().resolve("examples"))) {
      return list.map(ExampleStory::new)
          .filter(
              s ->
                  Files.exists(s.dir.resolve("config.yaml"))
                      && (Files.exists(s.dir.resolve("crd.yaml")) || s.isXrd()))
          .sorted((a, b) -> a.dir.compareTo(b.dir))
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The folder's name, e.g. {@code field-rename}. */
  public String name() {
    return dir.getFileName().toString();
  }

  /** Whether the story converts a Crossplane XRD's resources rather than a CRD's. */
  public boolean isXrd() {
    return Files.exists(dir.resolve("xrd.yaml"));
  }

  /** The story's XRD ({@code xrd.yaml}); only for an XRD story. */
  public JsonNode xrd() {
    return yaml(dir.resolve("xrd.yaml"));
  }

  /**
   * The CRD the apiserver serves the story's objects from: {@code crd.yaml}, or for an XRD story
   * the one Crossplane would generate from the XRD ({@link CrossplaneStandIn#generatedCrd}).
   */
  public ObjectNode crd() {
    return isXrd()
        ? CrossplaneStandIn.generatedCrd(xrd())
        : (ObjectNode) yaml(dir.resolve("crd.yaml"));
  }

  /** The name of {@link #crd()}, which is also the XRD's for an XRD story. */
  public String crdName() {
    return crd().path("metadata").path("name").asText();
  }

  /** The versions and schemas as Versio reads them: from the XRD for an XRD story. */
  public SchemaSource schemas() {
    return isXrd() ? ResourceSchemas.xrd(xrd()) : ResourceSchemas.crd(crd());
  }

  /** The Versio config ({@code config.yaml}) as written. */
  public String configYaml() {
    try {
      return Files.readString(dir.resolve("config.yaml"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The story's samples, by name. */
  public List<StorySample> samples() {
    var byName = new TreeMap<String, Map<String, JsonNode>>();
    try (var files = Files.list(dir.resolve("samples"))) {
      for (var file : files.sorted().toList()) {
        var parts = file.getFileName().toString().split("\\.");
        byName.computeIfAbsent(parts[0], k -> new TreeMap<>()).put(parts[1], yaml(file));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    var samples = new ArrayList<StorySample>();
    byName.forEach((name, byVersion) -> samples.add(new StorySample(name, byVersion)));
    return samples;
  }

  /**
   * What reading {@code sample}, created at version {@code from}, at version {@code to} gives:
   * {@code expected/NAME.FROM-to-TO.yaml}, else the sample as written at {@code to}; empty when the
   * story says neither.
   */
  public Optional<JsonNode> expected(StorySample sample, String from, String to) {
    var file = dir.resolve("expected").resolve(sample.name() + "." + from + "-to-" + to + ".yaml");
    return Files.exists(file)
        ? Optional.of(yaml(file))
        : Optional.ofNullable(sample.byVersion().get(to));
  }

  /**
   * One conversion a story checks: {@code sample} created at {@code from} and read at {@code to}.
   */
  public record ReadBack(StorySample sample, String from, String to, JsonNode expected) {}

  /**
   * Every conversion the story checks: each sample from each version it is written at to every
   * other served version. A pair without an expectation is an error naming the file to add, never a
   * pair skipped silently (a story that stops covering a version would otherwise still pass).
   *
   * @throws IllegalStateException when a pair has neither an expected file nor a sample at {@code
   *     to}
   */
  public List<ReadBack> readBacks() {
    var readBacks = new ArrayList<ReadBack>();
    var missing = new ArrayList<String>();
    var served = schemas().versions().stream().filter(v -> v.served()).map(v -> v.name()).toList();
    for (var sample : samples()) {
      for (var from : sample.byVersion().keySet()) {
        for (var to : served) {
          if (to.equals(from)) {
            continue;
          }
          expected(sample, from, to)
              .ifPresentOrElse(
                  e -> readBacks.add(new ReadBack(sample, from, to, e)),
                  () ->
                      missing.add(
                          "%s from %s to %s: add samples/%s.%s.yaml or expected/%s.%s-to-%s.yaml"
                              .formatted(
                                  sample.name(),
                                  from,
                                  to,
                                  sample.name(),
                                  to,
                                  sample.name(),
                                  from,
                                  to)));
        }
      }
    }
    if (!missing.isEmpty()) {
      throw new IllegalStateException(
          "story "
              + name()
              + " has no expectation for "
              + missing.size()
              + " conversion(s):\n  "
              + String.join("\n  ", missing));
    }
    if (readBacks.isEmpty()) {
      throw new IllegalStateException(
          "story " + name() + " checks no conversion: add a sample at a second served version");
    }
    return readBacks;
  }

  /** The name, so that test reports show it rather than the folder. */
  @Override
  public String toString() {
    return name();
  }

  private static JsonNode yaml(Path file) {
    try {
      return YAML.readTree(file.toFile());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
