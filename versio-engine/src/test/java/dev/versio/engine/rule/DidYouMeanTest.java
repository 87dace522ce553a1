package dev.versio.engine.rule;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class DidYouMeanTest {

  @Test
  void aNameThatDiffersOnlyInCaseWinsOverACloserEdit() {
    assertThat(DidYouMean.closest("cel", List.of("Ce", "CEL"))).contains("CEL");
  }

  @Test
  void theNearestNameWithinTwoEditsIsSuggestedAndTheFirstListedWinsATie() {
    assertThat(DidYouMean.closest("rule", List.of("version", "rules"))).contains("rules");
    assertThat(DidYouMean.closest("ab", List.of("ax", "xb"))).contains("ax");
    assertThat(DidYouMean.closest("colour", List.of("hubVersion", "spokes"))).isEmpty();
  }

  @Test
  void theHintListsTheKnownNamesWhenNoneIsClose() {
    assertThat(DidYouMean.hint("colour", List.of("version", "rules"), "a spoke holds "))
        .isEqualTo("a spoke holds version, rules");
    assertThat(DidYouMean.hint("versoin", List.of("version", "rules"), "a spoke holds "))
        .isEqualTo("did you mean 'version'?");
  }
}
