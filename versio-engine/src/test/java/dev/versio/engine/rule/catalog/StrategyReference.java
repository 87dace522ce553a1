package dev.versio.engine.rule.catalog;

import java.util.LinkedHashMap;
import java.util.SequencedMap;
import java.util.stream.Collectors;

/**
 * Renders the strategy reference ({@code docs/strategies/}) from the {@link StrategyCatalog}: an
 * index and one page per strategy. Pure (strings in, strings out); {@link
 * StrategyReferenceIsCurrentTest} compares it with the checked-in pages and rewrites them on
 * request.
 */
final class StrategyReference {
  /** How to rewrite the pages after changing the catalog. */
  static final String REGENERATE =
      "mvn -pl versio-engine test -Dtest=StrategyReferenceIsCurrentTest -Dversio.regenerate=true";

  private static final String GENERATED =
      "<!-- Generated from the engine's StrategyCatalog; do not edit. After changing the catalog,"
          + " run: "
          + REGENERATE
          + " -->\n";

  private StrategyReference() {}

  /** Every page, keyed by its file name in {@code docs/strategies/}, the index first. */
  static SequencedMap<String, String> pages() {
    var pages = new LinkedHashMap<String, String>();
    pages.put("README.md", index());
    for (var spec : StrategyCatalog.all()) {
      pages.put(spec.strategy().wireName() + ".md", page(spec));
    }
    return pages;
  }

  private static String index() {
    var md = new StringBuilder(GENERATED);
    md.append(
        """
        # Strategy reference

        A rule names one strategy, spelled exactly as listed here, and holds one params block named \
        after it:

        ```yaml
        - strategy: FieldRename
          fieldRename: {hubPath: spec.diskGiB, spokePath: spec.diskSize}
        ```

        Unknown keys are errors, and a misspelled strategy or key is answered with the name it most \
        likely meant. Each page lists the strategy's parameters, what each direction does and when it \
        is lossless, and an example that the engine's tests compile and convert. How coverage and \
        lossiness work overall is in [`docs/engine.md`](../engine.md).

        Every rule may also hold:

        | Key | Meaning |
        |---|---|
        """);
    StrategyCatalog.RULE_KEYS.forEach(
        (key, meaning) ->
            md.append("| `").append(key).append("` | ").append(cell(meaning)).append(" |\n"));
    md.append('\n');
    md.append("`when` holds ");
    md.append(
        StrategyCatalog.WHEN_KEYS.entrySet().stream()
            .map(e -> "`" + e.getKey() + "` (" + lowerFirst(stripDot(e.getValue())) + ")")
            .collect(Collectors.joining(" and ")));
    md.append(
        """
        . A direction that loses data needs `acknowledgeLossy: true`; acknowledging never changes \
        the verdict.

        | Strategy | Params block | What it does | Lossless hub→spoke | Lossless spoke→hub |
        |---|---|---|---|---|
        """);
    for (var spec : StrategyCatalog.all()) {
      var s = spec.strategy();
      md.append("| [`")
          .append(s.wireName())
          .append("`](")
          .append(s.wireName())
          .append(".md) | `")
          .append(s.paramsKey())
          .append("` | ")
          .append(cell(spec.summary()))
          .append(" | ")
          .append(cell(spec.hubToSpoke().lossless()))
          .append(" | ")
          .append(cell(spec.spokeToHub().lossless()))
          .append(" |\n");
    }
    return md.toString();
  }

  private static String page(StrategySpec spec) {
    var s = spec.strategy();
    var md = new StringBuilder(GENERATED);
    md.append("# ").append(s.wireName()).append("\n\n");
    md.append(spec.summary()).append("\n\n");
    md.append("```yaml\n- strategy: ").append(s.wireName()).append('\n');
    md.append("  ").append(s.paramsKey()).append(":\n");
    for (var p : spec.params()) {
      md.append("    ").append(p.name()).append(": ").append(placeholder(p)).append('\n');
    }
    md.append("```\n\n");

    md.append("## Parameters of `").append(s.paramsKey()).append("`\n\n");
    md.append("| Parameter | Type | Required | Default | Meaning |\n|---|---|---|---|---|\n");
    for (var p : spec.params()) {
      md.append("| `")
          .append(p.name())
          .append("` | ")
          .append(type(p))
          .append(" | ")
          .append(p.required() ? "yes" : "no")
          .append(" | ")
          .append(p.defaultValue() == null ? "" : "`" + p.defaultValue() + "`")
          .append(" | ")
          .append(cell(p.description()))
          .append(" |\n");
    }

    md.append("\n## Directions\n\n| Direction | What it does | Lossless when |\n|---|---|---|\n");
    direction(md, "hub → spoke", spec.hubToSpoke());
    direction(md, "spoke → hub", spec.spokeToHub());
    md.append("\nA lossy direction needs `acknowledgeLossy: true` on the rule.\n");

    if (!spec.notes().isEmpty()) {
      md.append("\n## Notes\n\n");
      spec.notes().forEach(n -> md.append("- ").append(n).append('\n'));
    }

    example(md, spec.example());
    md.append("\n[All strategies](README.md)\n");
    return md.toString();
  }

  private static void example(StringBuilder md, StrategySpec.Example e) {
    md.append(
        "\n## Example\n\nThe hub `v2` and the spoke `v1` declare these `spec` properties:\n\n");
    md.append("```yaml\n# v2 (hub)\n").append(e.hubSchema()).append("```\n\n");
    md.append("```yaml\n# v1 (spoke)\n").append(e.spokeSchema()).append("```\n\n");
    md.append("The config's spoke holds the rule:\n\n```yaml\nspokes:\n- version: v1\n  rules:\n");
    md.append(e.rule().indent(2)).append("```\n\n");
    md.append("This object at `v2`:\n\n");
    object(md, "v2", e.hubObject());
    md.append("is this one at `v1`:\n\n");
    object(md, "v1", e.spokeObject());
    if (e.hubObjectBack().equals(e.hubObject())) {
      md.append("and converting it back to `v2` gives the first object again.\n\n");
    } else {
      md.append("and converting it back to `v2` gives:\n\n");
      object(md, "v2", e.hubObjectBack());
    }
    md.append("On this example the compiler judges hub→spoke ")
        .append(e.losslessHubToSpoke() ? "lossless" : "lossy")
        .append(" and spoke→hub ")
        .append(e.losslessSpokeToHub() ? "lossless" : "lossy")
        .append(
            e.lossy()
                ? ", so the rule acknowledges the loss.\n"
                : ", so the rule needs no acknowledgement.\n");
  }

  private static void object(StringBuilder md, String version, String body) {
    md.append("```yaml\napiVersion: example.com/")
        .append(version)
        .append("\nkind: Widget\n")
        .append(body)
        .append("```\n\n");
  }

  private static void direction(StringBuilder md, String name, StrategySpec.Direction d) {
    md.append("| ")
        .append(name)
        .append(" | ")
        .append(cell(d.does()))
        .append(" | ")
        .append(cell(d.lossless()))
        .append(" |\n");
  }

  private static String type(ParamSpec p) {
    return switch (p.type()) {
      case CHOICE ->
          p.choices().stream().map(c -> "`" + c + "`").collect(Collectors.joining(" or "));
      case PATH,
          PATHS,
          STRING,
          BOOLEAN,
          NUMBER,
          STRING_MAP,
          PATH_MAP,
          JSON,
          JSON_MAP,
          JSON_PATCH,
          ENUM_MAPPING,
          RULES ->
          p.type().display();
    };
  }

  /** A value that shows the parameter's shape in the synopsis. */
  private static String placeholder(ParamSpec p) {
    return switch (p.type()) {
          case PATH -> "<path>";
          case PATHS -> "[<path>, ...]";
          case STRING -> "<string>";
          case BOOLEAN -> "<true|false>";
          case NUMBER -> "<number>";
          case CHOICE -> "<" + String.join("|", p.choices()) + ">";
          case STRING_MAP -> "{<key>: <string>, ...}";
          case PATH_MAP -> "{<name>: <path>, ...}";
          case JSON -> "<any JSON>";
          case JSON_MAP -> "{<key>: <any JSON>, ...}";
          case JSON_PATCH ->
              "[{op: <op>, path: <pointer>, from: <pointer>, value: <any JSON>}, ...]";
          case ENUM_MAPPING -> "[{hub: <scalar>, spoke: <scalar>}, ...]";
          case RULES -> "[<rule>, ...]";
        }
        + (p.required() ? "" : "   # optional, default " + p.defaultValue());
  }

  private static String cell(String text) {
    return text.replace("|", "\\|").replace("\n", " ");
  }

  private static String stripDot(String text) {
    return text.endsWith(".") ? text.substring(0, text.length() - 1) : text;
  }

  private static String lowerFirst(String text) {
    return Character.toLowerCase(text.charAt(0)) + text.substring(1);
  }
}
