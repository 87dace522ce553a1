package dev.versio.cli.offline;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.versio.cli.VersioCommand;
import dev.versio.engine.rule.Strategy;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Mutates every example config (seeded: fields dropped, duplicated, retyped and renamed, random
 * strategies and parameters, random nesting) and runs {@code versio validate} and {@code versio
 * analyze} on each mutant in process: every run must end in a plan or in diagnostics with a
 * documented exit code (0, 1 or 2), never with an exception, a stack trace or an empty error.
 */
class ConfigFuzzTest {
  private static final long SEED = 20261202L;

  /** 50 per example in the test run; {@code -Dfuzz.mutants=N} runs a longer campaign. */
  private static final int MUTANTS_PER_EXAMPLE = Integer.getInteger("fuzz.mutants", 50);

  private static final ObjectMapper YAML = new YAMLMapper();
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final List<String> STRATEGIES =
      Stream.of(Strategy.values()).map(Strategy::wireName).toList();

  @TempDir Path tmp;

  private record Run(int exit, String out, String err) {}

  private static Run run(String... args) {
    var out = new StringWriter();
    var err = new StringWriter();
    var cli = VersioCommand.commandLine();
    cli.setOut(new PrintWriter(out));
    cli.setErr(new PrintWriter(err));
    int exit = cli.execute(args);
    return new Run(exit, out.toString(), err.toString());
  }

  /** Every example with a config and its target schema. */
  private static List<Path> examples() throws IOException {
    try (var dirs = Files.list(OfflineCommandsTest.examples())) {
      return dirs.filter(d -> Files.isRegularFile(d.resolve("config.yaml")))
          .filter(
              d ->
                  Files.isRegularFile(d.resolve("crd.yaml"))
                      || Files.isRegularFile(d.resolve("xrd.yaml")))
          .sorted()
          .toList();
    }
  }

  @Test
  void everyMutantOfEveryExampleEndsInAPlanOrDiagnosticsWithADocumentedExitCode()
      throws IOException {
    var random = new Random(SEED);
    var exits = new TreeMap<Integer, Integer>();
    var problems = new ArrayList<String>();
    int cases = 0;
    for (var example : examples()) {
      var original = YAML.readTree(example.resolve("config.yaml").toFile());
      boolean xrd = Files.isRegularFile(example.resolve("xrd.yaml"));
      var schema = example.resolve(xrd ? "xrd.yaml" : "crd.yaml");
      for (int i = 0; i < MUTANTS_PER_EXAMPLE; i++) {
        var mutant = original.deepCopy();
        var applied = new ArrayList<String>();
        int mutations = 1 + random.nextInt(3);
        for (int m = 0; m < mutations; m++) {
          mutant = mutate(mutant, random, applied);
        }
        var file = tmp.resolve(example.getFileName() + "-" + i + ".yaml");
        Files.writeString(file, YAML.writeValueAsString(mutant));
        for (var args :
            List.of(
                new String[] {"validate", "-c", file.toString()},
                new String[] {
                  "analyze", "-c", file.toString(), xrd ? "--xrd" : "--crd", schema.toString()
                })) {
          cases++;
          Run run;
          try {
            run = run(args);
          } catch (RuntimeException e) {
            problems.add(describe(example, i, args, applied) + " threw " + e);
            continue;
          }
          exits.merge(run.exit(), 1, Integer::sum);
          var what = describe(example, i, args, applied);
          if (run.exit() < 0 || run.exit() > 2) {
            problems.add(what + " exited " + run.exit() + ": " + run.err());
          }
          if (run.err().contains("\tat ") || run.err().matches("(?s).*\\w+(Exception|Error):.*")) {
            problems.add(what + " printed a stack trace or an exception: " + run.err());
          }
          if (run.exit() == 2 && run.err().isBlank()) {
            problems.add(what + " failed with exit 2 and said nothing");
          }
          if (run.exit() == 1 && run.out().isBlank() && run.err().isBlank()) {
            problems.add(what + " reported findings without showing any");
          }
        }
      }
    }
    System.out.printf(
        "config fuzz: %d runs over %d mutants, exit codes %s%n", cases, cases / 2, exits);
    assertThat(problems).as("mutants handled badly (of %d runs)", cases).isEmpty();
    assertThat(exits.keySet())
        .as("the mutants reach every outcome: plan, findings, load error")
        .contains(0, 1, 2);
  }

  private static String describe(Path example, int i, String[] args, List<String> applied) {
    return example.getFileName() + " mutant " + i + " " + applied + " (versio " + args[0] + ")";
  }

  // ---- mutations ----

  private static JsonNode mutate(JsonNode root, Random random, List<String> applied) {
    var containers = new ArrayList<JsonNode>();
    collect(root, containers);
    var target = containers.get(random.nextInt(containers.size()));
    switch (random.nextInt(7)) {
      case 0 -> drop(target, random, applied);
      case 1 -> duplicate(target, random, applied);
      case 2 -> retype(target, random, applied);
      case 3 -> rename(target, random, applied);
      case 4 -> randomStrategy(root, random, applied);
      case 5 -> randomParam(root, random, applied);
      default -> nest(target, random, applied);
    }
    return root;
  }

  private static void collect(JsonNode node, List<JsonNode> out) {
    if (node.isContainerNode() && !node.isEmpty()) {
      out.add(node);
      node.forEach(child -> collect(child, out));
    }
  }

  private static void drop(JsonNode target, Random random, List<String> applied) {
    if (target instanceof ObjectNode o) {
      var key = keyOf(o, random);
      o.remove(key);
      applied.add("drop " + key);
    } else if (target instanceof ArrayNode a) {
      a.remove(random.nextInt(a.size()));
      applied.add("drop an element");
    }
  }

  private static void duplicate(JsonNode target, Random random, List<String> applied) {
    if (target instanceof ArrayNode a) {
      a.add(a.get(random.nextInt(a.size())).deepCopy());
      applied.add("duplicate an element");
    } else if (target instanceof ObjectNode o) {
      var key = keyOf(o, random);
      o.set(key + "Copy", o.get(key).deepCopy());
      applied.add("duplicate " + key);
    }
  }

  private static void retype(JsonNode target, Random random, List<String> applied) {
    var value = randomScalarOrShape(random);
    if (target instanceof ObjectNode o) {
      var key = keyOf(o, random);
      o.set(key, value);
      applied.add("retype " + key + " to " + value);
    } else if (target instanceof ArrayNode a) {
      a.set(random.nextInt(a.size()), value);
      applied.add("retype an element to " + value);
    }
  }

  private static void rename(JsonNode target, Random random, List<String> applied) {
    if (target instanceof ObjectNode o) {
      var key = keyOf(o, random);
      var renamed =
          switch (random.nextInt(3)) {
            case 0 -> key.toUpperCase(java.util.Locale.ROOT);
            case 1 -> key.length() > 1 ? key.substring(1) : key + "x";
            default -> key + "s";
          };
      o.set(renamed, o.remove(key));
      applied.add("rename " + key + " to " + renamed);
    }
  }

  /** A rule somewhere gets another strategy (its parameters stay). */
  private static void randomStrategy(JsonNode root, Random random, List<String> applied) {
    var rules = rules(root);
    if (rules.isEmpty()) {
      return;
    }
    var rule = rules.get(random.nextInt(rules.size()));
    var strategy = STRATEGIES.get(random.nextInt(STRATEGIES.size()));
    rule.put("strategy", strategy);
    applied.add("strategy " + strategy);
  }

  /** A rule somewhere gets a random parameter block for a random strategy. */
  private static void randomParam(JsonNode root, Random random, List<String> applied) {
    var rules = rules(root);
    if (rules.isEmpty()) {
      return;
    }
    var rule = rules.get(random.nextInt(rules.size()));
    var strategy = Strategy.values()[random.nextInt(Strategy.values().length)];
    var block = strategy.paramsKey();
    var params = rule.putObject(block);
    for (var name : List.of("path", "hubPath", "spokePath", "key", "separator", "factor")) {
      if (random.nextBoolean()) {
        params.set(
            name, random.nextBoolean() ? NODES.textNode("spec.x") : randomScalarOrShape(random));
      }
    }
    applied.add("params " + block + " " + params);
  }

  private static void nest(JsonNode target, Random random, List<String> applied) {
    if (target instanceof ObjectNode o) {
      var key = keyOf(o, random);
      var value = o.get(key);
      o.set(
          key,
          random.nextBoolean() ? NODES.arrayNode().add(value) : NODES.objectNode().set("x", value));
      applied.add("nest " + key);
    }
  }

  private static List<ObjectNode> rules(JsonNode root) {
    var out = new ArrayList<ObjectNode>();
    collectRules(root, out);
    return out;
  }

  private static void collectRules(JsonNode node, List<ObjectNode> out) {
    if (node instanceof ObjectNode o && o.has("strategy")) {
      out.add(o);
    }
    if (node.isContainerNode()) {
      node.forEach(child -> collectRules(child, out));
    }
  }

  private static String keyOf(ObjectNode o, Random random) {
    var keys = new ArrayList<String>();
    o.fieldNames().forEachRemaining(keys::add);
    return keys.get(random.nextInt(keys.size()));
  }

  private static JsonNode randomScalarOrShape(Random random) {
    return switch (random.nextInt(8)) {
      case 0 -> NODES.nullNode();
      case 1 -> NODES.numberNode(random.nextInt(2000) - 1000);
      case 2 -> NODES.numberNode(random.nextDouble() * 1e6);
      case 3 -> NODES.booleanNode(random.nextBoolean());
      case 4 -> NODES.textNode("");
      case 5 -> NODES.textNode("spec." + "a".repeat(1 + random.nextInt(3)) + "[0].b");
      case 6 -> NODES.arrayNode().add("x").add(1);
      default -> NODES.objectNode().put("y", "z");
    };
  }
}
