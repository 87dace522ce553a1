package dev.versio.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.versio.engine.compile.CompileResult;
import dev.versio.engine.compile.Compiler;
import dev.versio.engine.route.Router;
import dev.versio.engine.rule.ConfigParser;
import dev.versio.engine.rule.ConversionConfig;
import dev.versio.engine.schema.ResourceSchemas;
import dev.versio.engine.schema.SchemaNode;
import dev.versio.engine.schema.SchemaSource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/** The stories under {@code examples/}: each one's compiled router, served versions and samples. */
final class ExampleStories {
  private ExampleStories() {}

  /** One story, compiled: its folder, config, schemas, router, served versions and samples. */
  record Story(
      Path folder,
      ConversionConfig config,
      SchemaSource target,
      Router router,
      List<String> versions,
      Map<String, Map<String, JsonNode>> samples) {
    /** The schema of {@code version}. */
    SchemaNode schema(String version) {
      return target.versions().stream()
          .filter(v -> v.name().equals(version))
          .findFirst()
          .orElseThrow()
          .schema();
    }

    @Override
    public String toString() {
      return folder.getFileName().toString();
    }
  }

  /** Every story folder (one with a {@code config.yaml}), sorted by name. */
  static Stream<Path> folders() throws IOException {
    var examples = examplesFolder();
    try (var list = Files.list(examples)) {
      var stories = list.filter(p -> Files.exists(p.resolve("config.yaml"))).sorted().toList();
      assertThat(stories).as("example stories under %s", examples).hasSizeGreaterThanOrEqualTo(3);
      return stories.stream();
    }
  }

  /**
   * The story's config parsed and compiled against its CRD (or XRD); an invalid or rejected config
   * is an {@link AssertionError} with its diagnostics.
   */
  static Story load(Path story) throws IOException {
    var xrd = Files.exists(story.resolve("xrd.yaml"));
    var crd = read(story.resolve(xrd ? "xrd.yaml" : "crd.yaml"));
    var target = xrd ? ResourceSchemas.xrd(crd) : ResourceSchemas.crd(crd);
    var spec = read(story.resolve("config.yaml")).path("spec");
    var parsed = new ConfigParser().parse(spec);
    if (!(parsed instanceof ConfigParser.Result.Parsed ok)) {
      throw new AssertionError(
          "config of "
              + story
              + " is invalid:\n"
              + Fixtures.lines(((ConfigParser.Result.Invalid) parsed).diagnostics()));
    }
    var result = new Compiler().compile(ok.config(), target);
    if (!(result instanceof CompileResult.Compiled compiled)) {
      throw new AssertionError(
          "config of "
              + story
              + " is rejected:\n"
              + Fixtures.lines(((CompileResult.Rejected) result).diagnostics()));
    }
    var router = new Router(compiled.config(), ResourceSchemas.group(crd));
    var versions = target.versions().stream().filter(v -> v.served()).map(v -> v.name()).toList();
    return new Story(story, ok.config(), target, router, versions, samples(story));
  }

  /** sample name -> version -> object. */
  private static Map<String, Map<String, JsonNode>> samples(Path story) throws IOException {
    var out = new TreeMap<String, Map<String, JsonNode>>();
    List<Path> files;
    try (var list = Files.list(story.resolve("samples"))) {
      files = new ArrayList<>(list.filter(p -> p.toString().endsWith(".yaml")).sorted().toList());
    }
    for (var file : files) {
      var parts = file.getFileName().toString().split("\\.");
      out.computeIfAbsent(parts[0], k -> new TreeMap<>()).put(parts[1], read(file));
    }
    return out;
  }

  static JsonNode read(Path file) throws IOException {
    return Fixtures.YAML.readTree(file.toFile());
  }

  private static Path examplesFolder() {
    var dir = Path.of("").toAbsolutePath();
    while (dir != null && !Files.isDirectory(dir.resolve("examples"))) {
      dir = dir.getParent();
    }
    if (dir == null) {
      throw new IllegalStateException("no examples/ folder above " + Path.of("").toAbsolutePath());
    }
    return dir.resolve("examples");
  }
}
