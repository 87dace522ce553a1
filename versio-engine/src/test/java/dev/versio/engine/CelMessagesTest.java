package dev.versio.engine;

import static dev.versio.engine.Fixtures.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.versio.engine.runtime.ConversionException;
import org.junit.jupiter.api.Test;

/** A CEL error says where in the expression it is, on one line. */
class CelMessagesTest {
  private static final String HUB = "replicas: {type: integer}";
  private static final String SPOKE = "size: {type: integer}";

  private static String rule(String hubToSpoke) {
    return spokeRules(
        """
        - strategy: CEL
          acknowledgeLossy: true
          cel:
            hubPaths: [spec.replicas]
            spokePaths: [spec.size]
            hubToSpoke: '%s'
            spokeToHub: '{"spec.replicas": object.spec.size}'
        """
            .formatted(hubToSpoke));
  }

  @Test
  void aCompileErrorNamesTheColumnAndShowsTheTextBeforeIt() {
    var message = lines(rejected(target(HUB, SPOKE), rule("{\"spec.size\": object.spec.replicas")));
    assertThat(message)
        .contains("cel.hubToSpoke does not compile: at column 35 near")
        .contains("object.spec.replicas^'")
        .contains("mismatched input '<EOF>'")
        .doesNotContain("<input>");
  }

  @Test
  void anEvaluationErrorNamesTheColumnAndTheTextAroundIt() {
    var router =
        router(target(HUB, SPOKE), rule("{\"spec.size\": 100 / (object.spec.replicas - 2)}"));
    assertThatThrownBy(
            () ->
                router.convert(
                    object("{apiVersion: example.test/v2, kind: Widget, spec: {replicas: 2}}"),
                    "v2",
                    "v1"))
        .isInstanceOf(ConversionException.class)
        .hasMessageContaining("the expression failed at column 19 near '{\"spec.size\": 100 ^/ (")
        .hasMessageContaining("/ by zero")
        .hasMessageNotContaining("<input>");
  }
}
