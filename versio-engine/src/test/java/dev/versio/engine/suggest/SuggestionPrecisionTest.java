package dev.versio.engine.suggest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.versio.engine.FieldPath;
import dev.versio.engine.Fixtures;
import dev.versio.engine.rule.ConfigParser;
import dev.versio.engine.schema.ResourceSchemas;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * How often {@code versio suggest} is right, measured two ways: on the example stories, whose
 * hand-written configs are the answer for their CRDs, and on seeded generated schema changes with
 * known answers ({@link GeneratedRenames}). A rule the draft writes is right when the answer holds
 * the same strategy for the same paths (and factor); a rename offered commented out is counted
 * apart. The figures are printed; the floors are set a little under what was measured, so a change
 * that makes the suggester guess worse fails here.
 */
class SuggestionPrecisionTest {
  private static final int SCENARIOS = 1000;
  private final Suggester suggester = new Suggester();

  @Test
  void onTheExampleStoriesEveryRuleTheDraftWritesIsOneTheHandWrittenConfigHolds()
      throws IOException {
    var written = SuggestionScore.NONE;
    var offered = SuggestionScore.NONE;
    var lines = new StringBuilder();
    for (var story : stories()) {
      var xrd = Files.exists(story.resolve("xrd.yaml"));
      var definition = read(story.resolve(xrd ? "xrd.yaml" : "crd.yaml"));
      var target = xrd ? ResourceSchemas.xrd(definition) : ResourceSchemas.crd(definition);
      var config =
          ((ConfigParser.Result.Parsed)
                  new ConfigParser().parse(read(story.resolve("config.yaml")).path("spec")))
              .config();
      var suggestion = suggester.suggest(target, config.hubVersion());
      for (var spoke : suggestion.spokes()) {
        var expected =
            config.spokes().stream()
                .filter(s -> s.version().equals(spoke.version()))
                .flatMap(s -> s.rules().stream())
                .flatMap(r -> RuleKey.of(r, FieldPath.root(), FieldPath.root()).stream())
                .filter(RuleKey::proposable)
                .collect(Collectors.toSet());
        var w = score(spoke.rules(), expected);
        written = written.plus(w);
        offered = offered.plus(score(spoke.possibleRenames(), expected, false));
        lines.append(
            String.format(
                Locale.ROOT, "  %-16s %-9s written %s%n", story.getFileName(), spoke.version(), w));
      }
    }
    System.out.printf(
        "suggest on the example stories:%n%s  written rules: %s%n  offered renames: %s%n",
        lines, written, offered);

    assertThat(written.wrong())
        .as("rules the draft writes that the stories' configs do not hold")
        .isZero();
    assertThat(written.recall()).as("recall of written rules").isGreaterThanOrEqualTo(0.40);
  }

  @Test
  void onGeneratedRenamesTheRulesTheDraftWritesAreRightAtLeast97TimesIn100() {
    var written = SuggestionScore.NONE;
    var offered = SuggestionScore.NONE;
    var byChange = new EnumMap<GeneratedRenames.Change, int[]>(GeneratedRenames.Change.class);
    var offeredBy = new TreeMap<String, int[]>();
    var wrongExamples = new StringBuilder();
    for (long seed = 1; seed <= SCENARIOS; seed++) {
      var scenario = GeneratedRenames.generate(seed);
      var spoke = suggester.suggest(scenario.target(), null).spokes().getFirst();
      var expected = scenario.expected().keySet();
      written = written.plus(score(spoke.rules(), expected));
      offered = offered.plus(score(spoke.possibleRenames(), expected, false));
      for (var r : spoke.possibleRenames()) {
        var counts = offeredBy.computeIfAbsent(offerKind(r), k -> new int[2]);
        counts[expected.contains(RuleKey.of(r)) ? 0 : 1]++;
      }
      var writtenKeys = keys(spoke.rules());
      var offeredKeys = keys(spoke.possibleRenames());
      scenario
          .expected()
          .forEach(
              (key, change) -> {
                var counts = byChange.computeIfAbsent(change, c -> new int[3]);
                counts[writtenKeys.contains(key) ? 0 : offeredKeys.contains(key) ? 1 : 2]++;
              });
      for (var key : writtenKeys) {
        if (!expected.contains(key) && wrongExamples.length() < 2000) {
          wrongExamples.append("    seed ").append(seed).append(": ").append(key).append('\n');
        }
      }
    }
    var table = new StringBuilder();
    byChange.forEach(
        (change, c) ->
            table.append(
                String.format(
                    Locale.ROOT,
                    "  %-16s %4d expected: %4d written, %4d offered, %4d left%n",
                    change,
                    c[0] + c[1] + c[2],
                    c[0],
                    c[1],
                    c[2])));
    offeredBy.forEach(
        (kind, c) ->
            table.append(
                String.format(
                    Locale.ROOT, "  offered, %-26s %4d right, %4d wrong%n", kind, c[0], c[1])));
    System.out.printf(
        "suggest on %d generated scenarios:%n  written rules: %s%n  offered renames: %s%n%s"
            + "  wrong written rules:%n%s",
        SCENARIOS, written, offered, table, wrongExamples);

    assertThat(written.precision()).as("precision of written rules").isGreaterThanOrEqualTo(0.97);
    assertThat(written.recall()).as("recall of written rules").isGreaterThanOrEqualTo(0.65);
  }

  private static SuggestionScore score(
      List<? extends ProposedRule> proposed, Set<RuleKey> expected) {
    return score(proposed, expected, true);
  }

  /** Why a rename was only offered, from its reason. */
  private static String offerKind(ProposedRule.Rename r) {
    var reason = r.reason();
    if (reason.contains("share some words")) {
      return "names partly alike";
    }
    if (reason.contains("names no unit")) {
      return "unit on one side only";
    }
    if (reason.contains("parents both versions have")) {
      return "same name, other parent";
    }
    throw new IllegalStateException("an offer of an unknown kind: " + reason);
  }

  /** Right and wrong proposals; with {@code countMissed}, the expected rules nothing proposed. */
  private static SuggestionScore score(
      List<? extends ProposedRule> proposed, Set<RuleKey> expected, boolean countMissed) {
    var keys = keys(proposed);
    int right = (int) keys.stream().filter(expected::contains).count();
    int wrong = keys.size() - right;
    int missed = countMissed ? (int) expected.stream().filter(k -> !keys.contains(k)).count() : 0;
    return new SuggestionScore(right, wrong, missed);
  }

  private static Set<RuleKey> keys(List<? extends ProposedRule> proposed) {
    var out = new HashSet<RuleKey>();
    proposed.forEach(p -> out.add(RuleKey.of(p)));
    return out;
  }

  private static List<Path> stories() throws IOException {
    var dir = Path.of("").toAbsolutePath();
    while (dir != null && !Files.isDirectory(dir.resolve("examples"))) {
      dir = dir.getParent();
    }
    assertThat(dir).as("an examples/ folder above the working directory").isNotNull();
    try (var list = Files.list(dir.resolve("examples"))) {
      return list.filter(p -> Files.exists(p.resolve("config.yaml"))).sorted().toList();
    }
  }

  private static JsonNode read(Path file) throws IOException {
    return Fixtures.YAML.readTree(file.toFile());
  }
}
