package dev.versio.engine;

import static dev.versio.engine.Fixtures.yaml;
import static org.assertj.core.api.Assertions.assertThat;

import dev.versio.engine.compile.Counterexample;
import java.util.List;
import org.junit.jupiter.api.Test;

class CounterexampleTest {
  private static Counterexample.Field field(String value) {
    return new Counterexample.Field("spec.pools", FieldPath.parse("spec.pools"), yaml(value));
  }

  @Test
  void aValueTooLongToShowWholeNamesThePathsInsideItThatCameBackDifferent() {
    var before =
        field(
            "[{name: a-long-pool-name, size: large-machine-type, zone: eu-west-1a},"
                + " {name: b-long-pool-name, size: small, zone: eu-west-1b}]");
    var after =
        field(
            "[{name: a-long-pool-name, size: large-machine-type},"
                + " {name: b-long-pool-name, size: small, zone: eu-west-1b}]");
    var example = new Counterexample("hub->spoke", List.of(before), List.of(), List.of(after));
    assertThat(example.describe()).contains("...").endsWith("(differs at spec.pools[0].zone)");
  }

  @Test
  void aShortValueIsShownWholeWithNothingAppended() {
    var example =
        new Counterexample(
            "hub->spoke", List.of(field("[{zone: a}]")), List.of(), List.of(field("[{}]")));
    assertThat(example.describe())
        .isEqualTo("spec.pools = [{\"zone\":\"a\"}] -> (not kept) -> spec.pools = [{}]");
  }
}
