package dev.versio.cli.offline;

import com.fasterxml.jackson.databind.JsonNode;
import dev.versio.api.ApiGroup;
import dev.versio.engine.schema.ResourceSchemas;
import dev.versio.engine.schema.SchemaSource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/** Reads configs, target definitions and sample objects from YAML or JSON files. */
public final class Inputs {
  private Inputs() {}

  /** A config file: its kind, name and spec. */
  public record Config(Path file, boolean xrd, String name, JsonNode spec) {}

  /** A target definition: schemas, group and kind. */
  public record Target(Path file, SchemaSource source, String group, String kind, String name) {}

  public static Config config(Path file, InputLimits limits) {
    var doc = single(file, limits);
    var label = new InputFile(file).label();
    var kind = doc.path("kind").asText("");
    if (!CONFIG_KINDS.contains(kind)) {
      var close =
          CONFIG_KINDS.stream().filter(k -> k.equalsIgnoreCase(kind.replace("-", ""))).findFirst();
      throw new LoadError(
          label
              + ": kind is "
              + (kind.isEmpty() ? "missing" : "'" + kind + "'")
              + close
                  .map(k -> "; did you mean '" + k + "'?")
                  .orElse("; a config is a CRDConversionConfig or an XRDConversionConfig"));
    }
    var apiVersion = doc.path("apiVersion").asText("");
    if (!apiVersion.equals(ApiGroup.API_VERSION)) {
      throw new LoadError(
          label
              + ": apiVersion is "
              + (apiVersion.isEmpty() ? "missing" : "'" + apiVersion + "'")
              + "; a "
              + kind
              + " has apiVersion: "
              + ApiGroup.API_VERSION);
    }
    if (!doc.path("spec").isObject()) {
      throw new LoadError(
          label + ": the config has no spec (an object with hubVersion and spokes)");
    }
    return new Config(
        file,
        kind.equals("XRDConversionConfig"),
        doc.path("metadata").path("name").asText("(unnamed)"),
        doc.get("spec"));
  }

  private static final List<String> CONFIG_KINDS =
      List.of("CRDConversionConfig", "XRDConversionConfig");

  /** Loads the target; {@code xrdFlag} says which flag named it and must match the config kind. */
  public static Target target(Path file, boolean xrdFlag, Config config, InputLimits limits) {
    if (config != null && config.xrd() != xrdFlag) {
      throw new LoadError(
          new InputFile(config.file()).label()
              + " is a "
              + (config.xrd() ? "XRDConversionConfig" : "CRDConversionConfig")
              + "; pass its target schema with "
              + (config.xrd() ? "--xrd" : "--crd")
              + ", not "
              + (xrdFlag ? "--xrd" : "--crd"));
    }
    return target(single(file, limits), xrdFlag, file, new InputFile(file).label());
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
          new InputFile(config.file()).label()
              + ": spec."
              + (config.xrd() ? "targetXRD" : "targetCRD")
              + ".name is missing; name the definition the config converts");
    }
    return name;
  }

  /**
   * Every object in a file, standard input ({@code -}) or (recursively) a folder of
   * .yaml/.yml/.json files. A {@code kind: List} (what {@code kubectl get -o yaml} writes) counts
   * as its items. A document that cannot be a sample is not dropped silently: it is returned in
   * {@link SampleSet#skipped()} with the reason.
   */
  public static SampleSet samples(Path path, InputLimits limits) {
    var files = new ArrayList<Path>();
    if (!InputFile.isStdin(path) && Files.isDirectory(path)) {
      try (Stream<Path> walk = Files.walk(path)) {
        walk.filter(Files::isRegularFile)
            .filter(p -> p.toString().matches(".*\\.(ya?ml|json)$"))
            .sorted()
            .forEach(files::add);
      } catch (IOException e) {
        throw new LoadError("cannot read " + path + ": " + e.getMessage());
      }
      if (files.isEmpty()) {
        throw new LoadError(path + " holds no .yaml, .yml or .json file");
      }
    } else {
      files.add(path);
    }
    var samples = new ArrayList<Sample>();
    var skipped = new ArrayList<Skipped>();
    for (var file : files) {
      for (var doc : documents(file, limits)) {
        var where = new Skipped(file, doc.index(), doc.line(), null);
        var object = doc.node();
        if (isList(object)) {
          int i = 0;
          for (var item : object.get("items")) {
            var at = new Skipped(file, doc.index(), doc.line(), "items[" + i++ + "]");
            accept(at, item, samples, skipped);
          }
        } else {
          accept(where, object, samples, skipped);
        }
      }
    }
    return new SampleSet(samples, skipped);
  }

  private static boolean isList(JsonNode doc) {
    return doc.isObject()
        && doc.path("kind").asText("").endsWith("List")
        && doc.path("items").isArray();
  }

  private static void accept(
      Skipped where, JsonNode object, List<Sample> samples, List<Skipped> skipped) {
    String reason = null;
    if (!object.isObject()) {
      var type = object.getNodeType().name().toLowerCase(Locale.ROOT);
      reason = "it is " + (type.startsWith("a") ? "an " : "a ") + type + ", not an object";
    } else if (object.path("apiVersion").asText("").isEmpty()) {
      reason = "it has no apiVersion";
    } else if (object.path("kind").asText("").isEmpty()) {
      reason = "it has no kind";
    }
    if (reason == null) {
      samples.add(new Sample(where.file(), where.document(), where.line(), where.item(), object));
    } else {
      skipped.add(where.because(reason));
    }
  }

  /** The samples read, and the documents that were not samples, each with the reason. */
  public record SampleSet(List<Sample> samples, List<Skipped> skipped) {
    public SampleSet {
      samples = List.copyOf(samples);
      skipped = List.copyOf(skipped);
    }
  }

  /**
   * A document that is not tested: where it is ({@code item} names a List's entry) and why.
   *
   * @param reason why it was skipped; null while it is only a position
   */
  public record Skipped(Path file, int document, int line, String item, String reason) {
    Skipped(Path file, int document, int line, String item) {
      this(file, document, line, item, null);
    }

    Skipped because(String why) {
      return new Skipped(file, document, line, item, why);
    }

    /** {@code samples/a.yaml:12 (document 2, items[0])}. */
    public String where() {
      if (file == null) {
        return "an object in the cluster" + (item == null ? "" : " (" + item + ")");
      }
      return new InputFile(file).label()
          + ":"
          + line
          + " (document "
          + document
          + (item == null ? "" : ", " + item)
          + ")";
    }
  }

  /** One sample object and where it came from: a file, or (null) the cluster. */
  public record Sample(Path file, int document, int line, String item, JsonNode object) {
    /** A live object (no file). */
    public Sample(JsonNode object) {
      this(null, 0, 0, null, object);
    }

    /** The only object of a file. */
    public Sample(Path file, JsonNode object) {
      this(file, 1, 1, null, object);
    }

    /** Where it is, for a report of why it was skipped. */
    Skipped position() {
      return new Skipped(file, document, line, item);
    }

    /** {@code file.yaml:name} for a file, {@code namespace/name} for a live object. */
    public String label() {
      return file == null ? name() : new InputFile(file).shortName() + ":" + name();
    }

    /** {@code namespace/name}, or the name alone. */
    public String name() {
      var metadata = object.path("metadata");
      var name = metadata.path("name").asText("?");
      var namespace = metadata.path("namespace").asText("");
      return file != null || namespace.isEmpty() ? name : namespace + "/" + name;
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

  static JsonNode single(Path file, InputLimits limits) {
    var docs = documents(file, limits);
    if (docs.size() != 1) {
      throw new LoadError(
          new InputFile(file).label()
              + " holds "
              + docs.size()
              + " documents; expected exactly one");
    }
    return docs.getFirst().node();
  }

  static List<DocumentReader.Document> documents(Path path, InputLimits limits) {
    var file = new InputFile(path);
    return new DocumentReader(limits).read(file, file.read(System.in));
  }
}
