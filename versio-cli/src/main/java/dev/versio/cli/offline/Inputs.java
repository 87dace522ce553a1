package dev.versio.cli.offline;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.versio.engine.json.EngineJson;
import dev.versio.engine.schema.ResourceSchemas;
import dev.versio.engine.schema.SchemaSource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** Reads configs, target definitions and sample objects from YAML or JSON files. */
public final class Inputs {
  static final ObjectMapper YAML = EngineJson.configure(YAMLMapper.builder()).build();

  private Inputs() {}

  /** A config file: its kind, name and spec. */
  public record Config(Path file, boolean xrd, String name, JsonNode spec) {}

  /** A target definition: schemas, group and kind. */
  public record Target(Path file, SchemaSource source, String group, String kind, String name) {}

  public static Config config(Path file) {
    var doc = single(file);
    var kind = doc.path("kind").asText("");
    if (!kind.equals("CRDConversionConfig") && !kind.equals("XRDConversionConfig")) {
      throw new LoadError(
          file
              + " is a "
              + (kind.isEmpty() ? "document without kind" : kind)
              + ", not a CRDConversionConfig or XRDConversionConfig");
    }
    if (!doc.path("spec").isObject()) {
      throw new LoadError(file + ": the config has no spec");
    }
    return new Config(
        file,
        kind.equals("XRDConversionConfig"),
        doc.path("metadata").path("name").asText("(unnamed)"),
        doc.get("spec"));
  }

  /** Loads the target; {@code xrdFlag} says which flag named it and must match the config kind. */
  public static Target target(Path file, boolean xrdFlag, Config config) {
    if (config != null && config.xrd() != xrdFlag) {
      throw new LoadError(
          config.file()
              + " is a "
              + (config.xrd() ? "XRDConversionConfig" : "CRDConversionConfig")
              + "; pass its target schema with "
              + (config.xrd() ? "--xrd" : "--crd")
              + ", not "
              + (xrdFlag ? "--xrd" : "--crd"));
    }
    return target(single(file), xrdFlag, file, file.toString());
  }

  /** A target from a definition read elsewhere (e.g. from a cluster), named by {@code origin}. */
  public static Target target(JsonNode doc, boolean xrd, Path file, String origin) {
    try {
      var source = xrd ? ResourceSchemas.xrd(doc) : ResourceSchemas.crd(doc);
      return new Target(
          file,
          source,
          ResourceSchemas.group(doc),
          doc.path("spec").path("names").path("kind").asText(""),
          doc.path("metadata").path("name").asText(""));
    } catch (IllegalArgumentException e) {
      throw new LoadError(origin + ": " + e.getMessage());
    }
  }

  /** The name of the CRD or XRD the config targets ({@code spec.targetCRD/targetXRD.name}). */
  public static String targetName(Config config) {
    var name = config.spec().path(config.xrd() ? "targetXRD" : "targetCRD").path("name").asText("");
    if (name.isEmpty()) {
      throw new LoadError(
          config.file()
              + ": spec."
              + (config.xrd() ? "targetXRD" : "targetCRD")
              + ".name is missing; name the definition the config converts");
    }
    return name;
  }

  /** Every object in a file or (recursively) a folder of .yaml/.yml/.json files. */
  public static List<Sample> samples(Path path) {
    var files = new ArrayList<Path>();
    if (Files.isDirectory(path)) {
      try (Stream<Path> walk = Files.walk(path)) {
        walk.filter(Files::isRegularFile)
            .filter(p -> p.toString().matches(".*\\.(ya?ml|json)$"))
            .sorted()
            .forEach(files::add);
      } catch (IOException e) {
        throw new LoadError("cannot read " + path + ": " + e.getMessage());
      }
    } else {
      files.add(path);
    }
    var out = new ArrayList<Sample>();
    for (var file : files) {
      for (var doc : documents(file)) {
        out.add(new Sample(file, doc));
      }
    }
    return out;
  }

  /** One sample object and where it came from: a file, or (null) the cluster. */
  public record Sample(Path file, JsonNode object) {
    /** {@code file.yaml:name} for a file, {@code namespace/name} for a live object. */
    public String label() {
      var metadata = object.path("metadata");
      var name = metadata.path("name").asText("?");
      if (file == null) {
        var namespace = metadata.path("namespace").asText("");
        return namespace.isEmpty() ? name : namespace + "/" + name;
      }
      return file.getFileName() + ":" + name;
    }

    public String version() {
      var apiVersion = object.path("apiVersion").asText("");
      return apiVersion.substring(apiVersion.lastIndexOf('/') + 1);
    }

    public String group() {
      var apiVersion = object.path("apiVersion").asText("");
      int slash = apiVersion.lastIndexOf('/');
      return slash < 0 ? "" : apiVersion.substring(0, slash);
    }
  }

  static JsonNode single(Path file) {
    var docs = documents(file);
    if (docs.size() != 1) {
      throw new LoadError(file + " holds " + docs.size() + " documents; expected exactly one");
    }
    return docs.getFirst();
  }

  static List<JsonNode> documents(Path file) {
    if (!Files.isRegularFile(file)) {
      throw new LoadError(file + " does not exist or is not a file");
    }
    try (var parser = YAML.getFactory().createParser(file.toFile())) {
      var out = new ArrayList<JsonNode>();
      var it = YAML.readValues(parser, JsonNode.class);
      while (it.hasNext()) {
        var doc = it.next();
        if (doc != null && !doc.isNull() && !doc.isMissingNode()) {
          out.add(doc);
        }
      }
      return out;
    } catch (IOException | RuntimeException e) {
      throw new LoadError(SyntaxError.describe(file, e));
    }
  }
}
