package dev.versio.engine.rule;

import static dev.versio.engine.Fixtures.yaml;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.versio.engine.diagnostic.Diagnostics;
import dev.versio.engine.rule.catalog.StrategyCatalog;
import org.junit.jupiter.api.Test;

/**
 * The reader keeps the parser and the catalog in step: it refuses what the catalog does not say.
 */
class ParamsReaderTest {

  private static ParamsReader fieldRename(String block) {
    return new ParamsReader(
        yaml(block), StrategyCatalog.of(Strategy.FIELD_RENAME), Diagnostics.forSpoke("v1"));
  }

  @Test
  void readingAParameterTheCatalogDoesNotDeclareIsAProgrammingError() {
    assertThatThrownBy(() -> fieldRename("{hubPath: spec.a}").path("hubPaths"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("declares no parameter fieldRename.hubPaths");
  }

  @Test
  void readingAParameterAsAnotherTypeOrRequirednessIsAProgrammingError() {
    assertThatThrownBy(() -> fieldRename("{hubPath: spec.a}").text("hubPath", true))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("fieldRename.hubPath is read as [STRING]");
  }

  @Test
  void finishingWithoutReadingEveryDeclaredParameterIsAProgrammingError() {
    var reader = fieldRename("{hubPath: spec.a, spokePath: spec.b}");
    reader.path("hubPath");
    assertThatThrownBy(reader::finish)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining(
            "read [hubPath] but the catalog declares [hubPath, spokePath, spokeAliases]");
  }

  @Test
  void aChoiceIsReadWithTheDefaultTheCatalogDeclares() {
    var reader =
        new ParamsReader(
            yaml("{path: spec.a}"),
            StrategyCatalog.of(Strategy.TYPE_COERCE),
            Diagnostics.forSpoke("v1"));
    assertThatThrownBy(
            () ->
                reader.choice(
                    "onFractionalInteger",
                    Rule.FractionalPolicy.class,
                    Rule.FractionalPolicy.ROUND))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("default Round");
    assertThat(
            reader.choice(
                "onFractionalInteger", Rule.FractionalPolicy.class, Rule.FractionalPolicy.ERROR))
        .isEqualTo(Rule.FractionalPolicy.ERROR);
  }
}
