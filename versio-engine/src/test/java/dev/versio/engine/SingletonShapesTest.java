package dev.versio.engine;

import static dev.versio.engine.Fixtures.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.versio.engine.diagnostic.DiagnosticCode;
import org.junit.jupiter.api.Test;

/** The singleton strategies are checked against the shapes they claim before anything converts. */
class SingletonShapesTest {
  private static final String OBJECT =
      "listener: {type: object, properties: {port: {type: integer}, host: {type: string}}}";
  private static final String ARRAY =
      "listener: {type: array, items: {type: object, properties: {port: {type: integer}, host:"
          + " {type: string}}}}";

  @Test
  void singletonArrayToObjectWithTheHubAsTheObjectIsAnErrorNamingTheReverseStrategy() {
    var diagnostics =
        rejected(
            target(OBJECT, ARRAY),
            spokeRules(
                """
            - strategy: SingletonArrayToObject
              singletonArrayToObject: {hubPath: spec.listener, spokePath: spec.listener}
              acknowledgeLossy: true
            """));

    assertThat(diagnostics)
        .anySatisfy(
            d -> {
              assertThat(d.code()).isEqualTo(DiagnosticCode.TYPE_MISMATCH);
              assertThat(d.message())
                  .contains("needs an array on the hub side and an object on the spoke side")
                  .contains("spec.listener is object");
              assertThat(d.hint()).contains("use ObjectToSingletonArray with the same paths");
            });
  }

  @Test
  void theRightWayRoundItConvertsToTheShapeTheOtherSideDeclares() {
    var router =
        router(
            target(ARRAY, OBJECT),
            spokeRules(
                """
            - strategy: SingletonArrayToObject
              singletonArrayToObject: {hubPath: spec.listener, spokePath: spec.listener}
              acknowledgeLossy: true
            """));

    assertThat(
            router
                .convert(object("spec: {listener: [{port: 80, host: a}]}"), "v2", "v1")
                .path("spec")
                .path("listener")
                .isObject())
        .isTrue();
  }

  @Test
  void objectToSingletonArrayOverAnObjectThatHoldsASingletonOfItsOwnIsAShapeMismatch() {
    var hub =
        "backup: {type: object, properties: {target: {type: object, properties: {bucket: {type: string}}}}}";
    var spoke =
        "backups: {type: array, items: {type: object, properties: {target: {type: array, items:"
            + " {type: object, properties: {bucket: {type: string}}}}}}}";

    var diagnostics =
        rejected(
            target(hub, spoke),
            spokeRules(
                """
            - strategy: ObjectToSingletonArray
              objectToSingletonArray: {hubPath: spec.backup, spokePath: spec.backups}
            """));

    assertThat(diagnostics)
        .anySatisfy(
            d -> {
              assertThat(d.code()).isEqualTo(DiagnosticCode.SHAPE_MISMATCH);
              assertThat(d.message())
                  .contains("the elements of spec.backups and spec.backup differ in shape")
                  .contains("target");
            });
  }
}
