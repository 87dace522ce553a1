package dev.versio.engine;

import static dev.versio.engine.Fixtures.*;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.versio.engine.diagnostic.DiagnosticCode;
import dev.versio.engine.json.EngineJson;
import dev.versio.engine.route.Router;
import dev.versio.engine.runtime.ConversionException;
import dev.versio.engine.runtime.Tree;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Generated CEL rules over an enum field, whose every value the test can try: the analysis calls a
 * direction lossless exactly when every value (and the field absent) comes back as it was through
 * the plan; a lossy one shows a counterexample that really changes through the plan; and an
 * expression that fails on every value is an error, not a config that refuses every object. The
 * expressions keep, drop, null out, merge, swap, replace or fail on values, as user code does. The
 * seed is printed; rerun one with {@code -Dversio.seed=<seed>}.
 */
class CelVerdictPropertyTest {
  private static final int RULES = 150;
  private static final long SEED = Long.getLong("versio.seed", System.nanoTime());
  private static final List<String> VALUES = List.of("x0", "x1", "x2", "x3");

  static Stream<Arguments> rules() {
    System.out.println(
        "CelVerdictPropertyTest seed: " + SEED + " (rerun with -Dversio.seed=" + SEED + ")");
    var random = new Random(SEED);
    return IntStream.range(0, RULES)
        .mapToObj(
            n ->
                Arguments.of(
                    n,
                    expression(random, "object.spec.a", "spec.b"),
                    expression(random, "object.spec.b", "spec.a")));
  }

  /** A random expression reading {@code field} and writing {@code destination}. */
  static String expression(Random random, String field, String destination) {
    var v = quoted(VALUES.get(random.nextInt(VALUES.size())));
    var w = quoted(VALUES.get(random.nextInt(VALUES.size())));
    var x = field;
    var d = quoted(destination);
    var body =
        switch (random.nextInt(9)) {
          case 0, 1 -> "{" + d + ": " + x + "}";
          case 2 -> "{" + d + ": " + v + "}";
          case 3 -> "{}";
          case 4 -> x + " == " + v + " ? {} : {" + d + ": " + x + "}";
          case 5 -> "{" + d + ": " + x + " == " + v + " ? null : " + x + "}";
          case 6 -> "{" + d + ": " + x + " == " + v + " ? " + w + " : " + x + "}";
          case 7 ->
              "{" + d + ": " + x + " == " + v + " ? " + w + " : " + x + " == " + w + " ? " + v
                  + " : " + x + "}";
          default -> "{" + d + ": " + x + " == " + v + " ? string(int(" + x + ")) : " + x + "}";
        };
    var guard = "has(" + x + ")";
    return guard + " ? (" + body + ") : {}";
  }

  private static String quoted(String s) {
    return "\"" + s + "\"";
  }

  private static final String SCHEMA_A = "a: {type: string, enum: [x0, x1, x2, x3]}\n";
  private static final String SCHEMA_B = "b: {type: string, enum: [x0, x1, x2, x3]}\n";

  @ParameterizedTest(name = "rule {0}")
  @MethodSource("rules")
  void aCelVerdictOverAnEnumIsWhatTryingEveryValueShows(
      int n, String hubToSpoke, String spokeToHub) {
    var config =
        spokeRules(
            "- strategy: CEL\n  acknowledgeLossy: true\n  cel:\n    hubPaths: [spec.a]\n"
                + "    spokePaths: [spec.b]\n    hubToSpoke: '"
                + hubToSpoke
                + "'\n    spokeToHub: '"
                + spokeToHub
                + "'\n");
    var target = target(SCHEMA_A, SCHEMA_B);
    var report = analyzed(target, config);
    var context =
        "rule %d (seed %d):%n  hubToSpoke: %s%n  spokeToHub: %s%n  %s"
            .formatted(n, SEED, hubToSpoke, spokeToHub, lines(report.diagnostics()));
    var alwaysFails =
        report.diagnostics().stream()
            .filter(d -> d.code() == DiagnosticCode.RULE_ALWAYS_FAILS)
            .map(d -> d.message().contains("cel.hubToSpoke") ? "v2" : "v1")
            .toList();
    assertThat(report.diagnostics().stream().filter(d -> d.isError()))
        .as(context + trials(reference(target, hubToSpoke, spokeToHub), "v2"))
        .allSatisfy(d -> assertThat(d.code()).isEqualTo(DiagnosticCode.RULE_ALWAYS_FAILS));
    // the reference plan: the same expressions, without the check that stops a failing one
    var reference = reference(target, hubToSpoke, spokeToHub);
    for (var from : List.of("v2", "v1")) {
      assertThat(alwaysFails.contains(from))
          .as("%s: is every value refused from %s? %s", context, from, trials(reference, from))
          .isEqualTo(refusesEveryValue(reference, from));
    }
    if (report.hasErrors()) {
      return;
    }
    var rule = report.spokes().getFirst().ruleResults().getFirst();
    for (var from : List.of("v2", "v1")) {
      var direction = from.equals("v2") ? "hub->spoke" : "spoke->hub";
      boolean lossless =
          from.equals("v2") ? rule.lossless().hubToSpoke() : rule.lossless().spokeToHub();
      var changed = changedValues(reference, from);
      assertThat(lossless)
          .as("%s: %s lossless? values that change: %s", context, direction, changed)
          .isEqualTo(changed.isEmpty());
      if (!lossless) {
        var shown =
            rule.counterexamples().stream().filter(c -> c.direction().equals(direction)).toList();
        assertThat(shown).as("%s: the counterexample of %s", context, direction).hasSize(1);
        var value = shown.getFirst().before().getFirst().value();
        assertThat(changed.stream().anyMatch(c -> EngineJson.sameValue(c, value)))
            .as("%s: counterexample %s is one that changes", context, shown.getFirst())
            .isTrue();
      }
    }
  }

  private static Router reference(
      dev.versio.engine.schema.SchemaSource target, String hubToSpoke, String spokeToHub) {
    return new Router(referencePlan(target, hubToSpoke, spokeToHub), GROUP);
  }

  private static dev.versio.engine.compile.CompiledConfig referencePlan(
      dev.versio.engine.schema.SchemaSource target, String hubToSpoke, String spokeToHub) {
    // guarded by a value that never occurs, so that no expression fails on every value tried
    var config =
        spokeRules(
            "- strategy: CEL\n  acknowledgeLossy: true\n  cel:\n    hubPaths: [spec.a]\n"
                + "    spokePaths: [spec.b]\n    hubToSpoke: 'object.?spec.?a.orValue(\"\") =="
                + " \"never\" ? {} : ("
                + hubToSpoke
                + ")'\n    spokeToHub: 'object.?spec.?b.orValue(\"\") == \"never\" ? {} : ("
                + spokeToHub
                + ")'\n");
    return compiled(target, config);
  }

  /**
   * Every value of the field at {@code from} (null: the field absent) that does not come back: it
   * converts, and converting it back gives another value or fails. A value refused on the way there
   * is an error the user sees, not a loss.
   */
  private static List<JsonNode> changedValues(Router router, String from) {
    var out = new ArrayList<JsonNode>();
    var to = from.equals("v2") ? "v1" : "v2";
    for (var object : objects(from)) {
      JsonNode there;
      try {
        there = router.convert(object, from, to);
      } catch (ConversionException e) {
        continue;
      }
      boolean same;
      try {
        same =
            EngineJson.sameValue(router.convert(there, to, from).path("spec"), object.path("spec"));
      } catch (ConversionException e) {
        same = false;
      }
      if (!same) {
        var value = Tree.get(object, field(from));
        out.add(value == null ? EngineJson.nodes().nullNode() : value);
      }
    }
    return out;
  }

  private static boolean refusesEveryValue(Router router, String from) {
    var to = from.equals("v2") ? "v1" : "v2";
    for (var object : objects(from)) {
      if (Tree.get(object, field(from)) == null) {
        continue;
      }
      try {
        router.convert(object, from, to);
        return false;
      } catch (ConversionException e) {
        // refused
      }
    }
    return true;
  }

  private static String trials(Router router, String from) {
    var to = from.equals("v2") ? "v1" : "v2";
    var sb = new StringBuilder();
    for (var object : objects(from)) {
      try {
        sb.append(object.path("spec"))
            .append(" -> ")
            .append(router.convert(object, from, to).path("spec"));
      } catch (ConversionException e) {
        sb.append(object.path("spec")).append(" refused");
      }
      sb.append("; ");
    }
    return sb.toString();
  }

  private static dev.versio.engine.FieldPath field(String from) {
    return dev.versio.engine.FieldPath.parse(from.equals("v2") ? "spec.a" : "spec.b");
  }

  private static List<ObjectNode> objects(String from) {
    var out = new ArrayList<ObjectNode>();
    var base = "{apiVersion: example.test/" + from + ", kind: Widget, metadata: {name: w}, spec: ";
    out.add(object(base + "{}}"));
    for (var v : VALUES) {
      out.add(object(base + "{" + (from.equals("v2") ? "a" : "b") + ": " + v + "}}"));
    }
    return out;
  }
}
