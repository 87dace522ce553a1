package dev.versio.engine.schema;

import static org.assertj.core.api.Assertions.assertThat;

import dev.versio.engine.Fixtures;
import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Schema patterns as automata: never narrower than the pattern, exact where it is modelled. */
class TextLanguageTest {
  private static final String ALPHABET = "ab01-,. _:/xZ\t";

  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$",
        "^[0-9]+$",
        "[0-9]",
        "^\\d{1,3}$",
        "^\\S+$",
        "^(?:http|https)://",
        "^[^,]*$",
        "^[a-z]+(,[a-z]+)*$",
        "a|b",
        "^a.*?b$",
        "^[\\w.-]+$",
        "^(?<name>[a-z]+):(?<port>\\d+)$",
        "^x{2}$",
        "^[-a]$"
      })
  void aModelledPatternAdmitsExactlyTheStringsItMatches(String pattern) {
    assertThat(TextLanguage.translate(pattern)).as("translated").isPresent();
    var automaton = TextLanguage.pattern(pattern);
    var java = Pattern.compile(pattern);
    var random = new Random(pattern.hashCode());
    for (int n = 0; n < 3000; n++) {
      var text = randomText(random);
      assertThat(automaton.run(text))
          .as("%s on %s", pattern, text.replace("\t", "\\t"))
          .isEqualTo(java.matcher(text).find());
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"^(?=a)b", "\\bword", "(a)\\1", "^a$|^b$", "a^b", "\\p{L}"})
  void aPatternWithAConstructThatIsNotModelledAdmitsEveryString(String pattern) {
    assertThat(TextLanguage.translate(pattern)).isEmpty();
    assertThat(TextLanguage.pattern(pattern).run("anything at all")).isTrue();
  }

  /**
   * Each of these has a deterministic automaton far beyond the budget (2^21 states for the first;
   * brics ran out of memory building it) or a nondeterministic one of millions of states: each
   * admits every string at once instead. The time bound only guards against the old hang.
   */
  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        "^.*a.{20}$",
        "^(a|b)*a(a|b){40}$",
        "^.{1000000}$",
        "^((a{300}){300}){300}$",
        "x{2147483647}"
      })
  void aPatternWhoseAutomatonWouldExceedTheBudgetAdmitsEveryStringAtOnce(String pattern) {
    var automaton =
        org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(
            java.time.Duration.ofSeconds(5), () -> TextLanguage.pattern(pattern));
    assertThat(automaton.run("anything at all")).isTrue();
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        "^.*a.{6}$",
        "^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$",
        "^[0-9]{1,3}$",
        "^[a-zA-Z0-9_.-]{1,253}$"
      })
  void aPatternWithinTheBudgetIsStillExact(String pattern) {
    var automaton = TextLanguage.pattern(pattern);
    var java = Pattern.compile(pattern);
    var random = new Random(7);
    for (int i = 0; i < 2_000; i++) {
      var text = randomText(random);
      assertThat(automaton.run(text))
          .as("%s on %s", pattern, text)
          .isEqualTo(java.matcher(text).find());
    }
    assertThat(automaton.run("abcdefg")).isEqualTo(java.matcher("abcdefg").find());
  }

  /**
   * Hundreds of optional atoms in a row: brics's construction copied the automaton built so far at
   * every step (53 s for 600); built state by state it is linear and exact.
   */
  @org.junit.jupiter.api.Test
  void manyOptionalAtomsInARowAreBuiltInLinearTimeAndStayExact() {
    var pattern = "^" + "(a?)".repeat(300) + "a{300}$";
    var automaton =
        org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(
            java.time.Duration.ofSeconds(5), () -> TextLanguage.pattern(pattern));
    assertThat(automaton.run("a".repeat(300))).isTrue();
    assertThat(automaton.run("a".repeat(600))).isTrue();
    assertThat(automaton.run("a".repeat(601))).isFalse();
    assertThat(automaton.run("a".repeat(299))).isFalse();
  }

  @ParameterizedTest(name = "{0} admits {1}: {2}")
  @CsvSource(
      delimiter = '|',
      value = {
        "{type: string, maxLength: 2}|abc|false",
        "{type: string, maxLength: 2}|ab|true",
        "{type: string, minLength: 2}|a|false",
        "{type: string, enum: [a, b]}|b|true",
        "{type: string, enum: [a, b]}|c|false",
        "{type: string, pattern: '^[a-z]+$', maxLength: 3}|abcd|false",
        "{type: string, pattern: '^[a-z]+$', maxLength: 3}|abc|true"
      })
  void enumLengthsAndPatternTogetherBoundTheStringsANodeAdmits(
      String schema, String text, boolean admitted) {
    var node = SchemaNode.parse(Fixtures.yaml(schema));
    assertThat(TextLanguage.admitted(node).run(text)).isEqualTo(admitted);
  }

  private static String randomText(Random random) {
    var sb = new StringBuilder();
    int length = random.nextInt(7);
    for (int i = 0; i < length; i++) {
      sb.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
    }
    return sb.toString();
  }
}
