package dev.versio.bench.fleet;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.versio.api.config.CRDConversionConfig;
import dev.versio.api.config.CRDConversionConfigSpec;
import dev.versio.api.config.NameRef;
import dev.versio.api.config.SpokeSpec;
import dev.versio.bench.engine.StrategyCases;
import dev.versio.engine.compile.CompileResult;
import dev.versio.engine.compile.Compiler;
import dev.versio.engine.json.EngineJson;
import dev.versio.engine.route.Router;
import dev.versio.engine.rule.ConfigParser;
import dev.versio.engine.schema.ResourceSchemas;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import java.util.stream.IntStream;

/**
 * The targets of a fleet run, generated from a seed: {@code crds} CRDs {@code Widget000}, {@code
 * Widget001}, … in group {@value #GROUP}, namespaced, with versions {@value #HUB} (the hub,
 * stored), {@code v1} and {@code v2}. Each spoke converts a seeded choice of {@code min}–{@code
 * max} cases of {@link StrategyCases} composed side by side, each case under a field of its own
 * ({@code spec.s07} for the eighth case), and a coverage pass makes every case appear somewhere in
 * the fleet. A field {@code spec.fixture} is the same at every version. Pure: no client, no clock.
 */
public final class FleetPlan {
  public static final String GROUP = "fleet.bench.versio.dev";
  public static final String HUB = "v3";
  public static final List<String> SPOKES = List.of("v1", "v2");
  public static final List<String> VERSIONS = List.of("v1", "v2", HUB);

  /** The cases in a fixed order: a case's index names its field ({@code s07}). */
  static final List<String> CASES = List.copyOf(new TreeSet<>(StrategyCases.CASES.keySet()));

  private static final ObjectMapper YAML = EngineJson.configure(YAMLMapper.builder()).build();
  private static final ObjectMapper JSON = EngineJson.newMapper();

  private FleetPlan() {}

  /**
   * One generated target.
   *
   * @param index its number in the fleet (its kind is {@code Widget<index>})
   * @param casesBySpoke the cases each spoke converts, by spoke version
   */
  public record Target(int index, Map<String, List<String>> casesBySpoke) {
    public Target {
      if (index < 0) {
        throw new IllegalArgumentException("index must be ≥ 0, got " + index);
      }
      casesBySpoke = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(casesBySpoke));
    }

    public String kind() {
      return String.format(java.util.Locale.ROOT, "Widget%03d", index);
    }

    public String plural() {
      return kind().toLowerCase(java.util.Locale.ROOT) + "s";
    }

    public String crdName() {
      return plural() + "." + GROUP;
    }

    public String configName() {
      return plural() + "-conversion";
    }

    /** The cases either spoke converts, in case order. */
    List<String> used() {
      var used = new TreeSet<String>();
      casesBySpoke.values().forEach(used::addAll);
      return List.copyOf(used);
    }

    /** The CRD, as JSON: hub {@value #HUB} stored, every version served. */
    public ObjectNode crd() {
      var crd = JSON.createObjectNode();
      crd.put("apiVersion", "apiextensions.k8s.io/v1").put("kind", "CustomResourceDefinition");
      crd.putObject("metadata").put("name", crdName());
      var spec = crd.putObject("spec");
      spec.put("group", GROUP).put("scope", "Namespaced");
      spec.putObject("names")
          .put("kind", kind())
          .put("plural", plural())
          .put("singular", kind().toLowerCase(java.util.Locale.ROOT))
          .put("listKind", kind() + "List")
          .putArray("categories")
          .add("fleet");
      var versions = spec.putArray("versions");
      for (var version : List.of(HUB, "v1", "v2")) {
        var v = versions.addObject();
        v.put("name", version).put("served", true).put("storage", version.equals(HUB));
        v.putObject("schema").set("openAPIV3Schema", schema(version));
      }
      return crd;
    }

    private ObjectNode schema(String version) {
      var root = JSON.createObjectNode().put("type", "object");
      var props = root.putObject("properties");
      props.putObject("apiVersion").put("type", "string");
      props.putObject("kind").put("type", "string");
      props.putObject("metadata").put("type", "object");
      var spec = props.putObject("spec").put("type", "object").putObject("properties");
      spec.putObject("fixture").put("type", "string");
      var converted = casesBySpoke.getOrDefault(version, List.of());
      for (var name : used()) {
        var c = StrategyCases.CASES.get(name);
        spec.putObject(field(name))
            .put("type", "object")
            .set("properties", yaml(converted.contains(name) ? c.spoke() : c.hub()));
      }
      return root;
    }

    /** The spec of the target's CRDConversionConfig: hub {@value #HUB}, one spoke per version. */
    public CRDConversionConfigSpec configSpec() {
      var spec = new CRDConversionConfigSpec();
      spec.targetCRD = new NameRef(crdName());
      spec.hubVersion = HUB;
      spec.spokes = new ArrayList<>();
      for (var entry : casesBySpoke.entrySet()) {
        var spoke = new SpokeSpec();
        spoke.version = entry.getKey();
        spoke.rules = new ArrayList<>();
        for (var name : entry.getValue()) {
          yaml(rewrite(StrategyCases.CASES.get(name).rules(), name)).forEach(spoke.rules::add);
        }
        spec.spokes.add(spoke);
      }
      return spec;
    }

    /** The target's CRDConversionConfig, named {@link #configName()}, following the default. */
    public CRDConversionConfig config() {
      var config = new CRDConversionConfig();
      config.setMetadata(new ObjectMetaBuilder().withName(configName()).build());
      config.setSpec(configSpec());
      return config;
    }

    /**
     * An object at the hub: every case's sample under its field, and the annotations and labels
     * that the cases reading them expect.
     */
    public ObjectNode hubObject(String namespace, String name) {
      var object = JSON.createObjectNode();
      object.put("apiVersion", GROUP + "/" + HUB).put("kind", kind());
      var meta = object.putObject("metadata");
      meta.put("name", name).put("namespace", namespace);
      var spec = object.putObject("spec");
      spec.put("fixture", "fleet-" + index + "/" + name);
      for (var c : used()) {
        spec.set(field(c), yaml(StrategyCases.CASES.get(c).spec()));
        if (c.equals("FromAnnotation")) {
          meta.with("annotations").put(key(c), "\"x\"");
        } else if (c.equals("FromLabel")) {
          meta.with("labels").put(key(c), "x");
        }
      }
      return object;
    }

    /** What the webhook computes for this target, computed here with the same engine. */
    public Router router() {
      var parsed =
          switch (new ConfigParser().parse(JSON.valueToTree(configSpec()))) {
            case ConfigParser.Result.Parsed p -> p.config();
            case ConfigParser.Result.Invalid i ->
                throw new IllegalStateException(
                    "fleet config " + configName() + " does not parse: " + i.diagnostics());
          };
      return switch (new Compiler().compile(parsed, ResourceSchemas.crd(crd()))) {
        case CompileResult.Compiled c -> new Router(c.config(), GROUP);
        case CompileResult.Rejected r ->
            throw new IllegalStateException(
                "fleet config " + configName() + " is rejected: " + r.diagnostics());
      };
    }
  }

  /**
   * Generates {@code crds} targets whose spokes convert {@code min}–{@code max} cases each.
   *
   * @throws IllegalArgumentException when the bounds are out of range or the fleet is too small to
   *     cover every case (2 × crds × max must reach the number of cases)
   */
  public static List<Target> generate(int crds, int min, int max, long seed) {
    if (crds < 1) {
      throw new IllegalArgumentException("the fleet needs at least 1 CRD, got " + crds);
    }
    if (min < 1 || max < min || max > CASES.size()) {
      throw new IllegalArgumentException(
          "strategies per spoke must satisfy 1 ≤ min ≤ max ≤ "
              + CASES.size()
              + ", got min "
              + min
              + ", max "
              + max);
    }
    int spokes = crds * SPOKES.size();
    if ((long) spokes * max < CASES.size()) {
      throw new IllegalArgumentException(
          String.format(
              java.util.Locale.ROOT,
              "%d CRDs with at most %d strategies per spoke cannot cover all %d cases (2 × crds ×"
                  + " max = %d): raise the CRD count or the maximum",
              crds,
              max,
              CASES.size(),
              spokes * max));
    }
    var random = new Random(seed);
    var chosen = new ArrayList<TreeSet<String>>();
    for (int s = 0; s < spokes; s++) {
      chosen.add(new TreeSet<>());
    }
    // coverage pass: the cases in a seeded order, dealt one per spoke in turn (≤ max each)
    var order = new ArrayList<>(CASES);
    java.util.Collections.shuffle(order, random);
    for (int i = 0; i < order.size(); i++) {
      chosen.get(i % spokes).add(order.get(i));
    }
    // then each spoke to a seeded size in [min, max], never below what the coverage gave it
    for (var spoke : chosen) {
      int size = Math.max(spoke.size(), min + random.nextInt(max - min + 1));
      while (spoke.size() < size) {
        spoke.add(CASES.get(random.nextInt(CASES.size())));
      }
    }
    return IntStream.range(0, crds)
        .mapToObj(
            i -> {
              var bySpoke = new LinkedHashMap<String, List<String>>();
              for (int v = 0; v < SPOKES.size(); v++) {
                bySpoke.put(SPOKES.get(v), List.copyOf(chosen.get(i * SPOKES.size() + v)));
              }
              return new Target(i, bySpoke);
            })
        .toList();
  }

  /** The strategies the fleet's rules use (a rule's {@code strategy}), sorted. */
  public static TreeSet<String> strategies(List<Target> targets) {
    var out = new TreeSet<String>();
    for (var target : targets) {
      for (var spoke : target.configSpec().spokes) {
        spoke.rules.forEach(rule -> out.add(rule.path("strategy").asText()));
      }
    }
    return out;
  }

  /** The field a case lives under: {@code s} and its two-digit index. */
  static String field(String caseName) {
    int index = CASES.indexOf(caseName);
    if (index < 0) {
      throw new IllegalArgumentException("no strategy case named " + caseName);
    }
    return String.format(java.util.Locale.ROOT, "s%02d", index);
  }

  /** The annotation or label key a case uses. */
  private static String key(String caseName) {
    return "bench/" + field(caseName);
  }

  /** A case's rules moved under its own field and key. */
  static String rewrite(String rules, String caseName) {
    var f = field(caseName);
    return rules
        .replace("spec.", "spec." + f + ".")
        .replace("/spec/", "/spec/" + f + "/")
        .replace("bench/a", key(caseName));
  }

  private static JsonNode yaml(String text) {
    try {
      return YAML.readTree(text);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalArgumentException("a strategy case does not parse: " + text, e);
    }
  }
}
