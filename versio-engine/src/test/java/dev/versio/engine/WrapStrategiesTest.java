package dev.versio.engine;

import static dev.versio.engine.Fixtures.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.versio.engine.compile.Verdict;
import dev.versio.engine.diagnostic.DiagnosticCode;
import org.junit.jupiter.api.Test;

class WrapStrategiesTest {

  @Test
  void scalarToObjectWrapsWithDefaultsAndUnwrapsBack() {
    var target =
        target(
            "tls: {type: boolean}",
            """
        tlsConfig:
          type: object
          properties:
            enabled: {type: boolean}
            minVersion: {type: string}
        """);
    var config =
        spokeRules(
            """
        - strategy: ScalarToObject
          scalarToObject: {hubPath: spec.tls, spokePath: spec.tlsConfig, key: enabled, defaultsForOtherKeys: {minVersion: "1.2"}}
          acknowledgeLossy: true
        """);
    var router = router(target, config);

    var spoke = router.convert(object("spec: {tls: true}"), "v2", "v1");
    assertThat(spoke.path("spec"))
        .isEqualTo(object("tlsConfig: {minVersion: '1.2', enabled: true}"));
    var hub =
        router.convert(
            object("spec: {tlsConfig: {enabled: false, minVersion: '1.3'}}"), "v1", "v2");
    assertThat(hub.path("spec")).isEqualTo(object("tls: false"));
    assertThat(compiled(target, config).plans().get("v1").verdict())
        .isEqualTo(new Verdict(true, false));
  }

  @Test
  void scalarToObjectWhoseObjectHoldsOtherFieldsMustBeAcknowledged() {
    var target =
        target(
            "tls: {type: boolean}",
            """
        tlsConfig: {type: object, properties: {enabled: {type: boolean}, minVersion: {type: string}}}
        """);
    var diagnostics =
        rejected(
            target,
            spokeRules(
                """
        - strategy: ScalarToObject
          scalarToObject: {hubPath: spec.tls, spokePath: spec.tlsConfig, key: enabled}
        """));
    assertThat(diagnostics)
        .singleElement()
        .satisfies(
            d -> {
              assertThat(d.code()).isEqualTo(DiagnosticCode.LOSSY_NOT_ACKNOWLEDGED);
              assertThat(d.message()).contains("spoke->hub");
              assertThat(d.hint()).contains("acknowledgeLossy").contains("rules[0]");
            });
  }

  @Test
  void objectToScalarUnwrapsTheKeyAndIsLosslessWhenTheObjectHasOnlyThatKey() {
    var target =
        target(
            "endpoint: {type: object, properties: {url: {type: string}}}",
            "endpointURL: {type: string}");
    var config =
        spokeRules(
            """
        - strategy: ObjectToScalar
          objectToScalar: {hubPath: spec.endpoint, spokePath: spec.endpointURL, key: url}
        """);
    var router = router(target, config);
    assertThat(
            router.convert(object("spec: {endpoint: {url: 'https://x'}}"), "v2", "v1").path("spec"))
        .isEqualTo(object("endpointURL: 'https://x'"));
    assertThat(router.convert(object("spec: {endpointURL: 'https://y'}"), "v1", "v2").path("spec"))
        .isEqualTo(object("endpoint: {url: 'https://y'}"));
    assertThat(compiled(target, config).lossless()).isTrue();
  }

  @Test
  void unwrapSkipsAValueThatIsNotAnObject() {
    var target =
        target(
            "endpoint: {type: object, properties: {url: {type: string}}}",
            "endpointURL: {type: string}");
    var router =
        router(
            target,
            spokeRules(
                """
        - strategy: ObjectToScalar
          objectToScalar: {hubPath: spec.endpoint, spokePath: spec.endpointURL, key: url}
        """));
    assertThat(
            router
                .convert(object("spec: {endpoint: {}}"), "v2", "v1")
                .path("spec")
                .has("endpointURL"))
        .isFalse();
  }

  @Test
  void singletonArrayToObjectTakesTheFirstElementAndWrapsBack() {
    var target =
        target(
            """
        listeners: {type: array, maxItems: 1, items: {type: object, properties: {port: {type: integer}}}}
        """,
            "listener: {type: object, properties: {port: {type: integer}}}");
    var config =
        spokeRules(
            """
        - strategy: SingletonArrayToObject
          singletonArrayToObject: {hubPath: spec.listeners, spokePath: spec.listener}
        """);
    var router = router(target, config);
    assertThat(router.convert(object("spec: {listeners: [{port: 80}]}"), "v2", "v1").path("spec"))
        .isEqualTo(object("listener: {port: 80}"));
    assertThat(router.convert(object("spec: {listener: {port: 81}}"), "v1", "v2").path("spec"))
        .isEqualTo(object("listeners: [{port: 81}]"));
    assertThat(
            router
                .convert(object("spec: {listeners: []}"), "v2", "v1")
                .path("spec")
                .has("listener"))
        .isFalse();
    assertThat(compiled(target, config).lossless()).isTrue();
  }

  @Test
  void singletonArrayToObjectIsLossyWithoutMaxItemsOne() {
    var target =
        target(
            """
        listeners: {type: array, items: {type: object, properties: {port: {type: integer}}}}
        """,
            "listener: {type: object, properties: {port: {type: integer}}}");
    assertThat(
            rejected(
                target,
                spokeRules(
                    """
        - strategy: SingletonArrayToObject
          singletonArrayToObject: {hubPath: spec.listeners, spokePath: spec.listener}
        """)))
        .extracting(d -> d.code())
        .containsExactly(DiagnosticCode.LOSSY_NOT_ACKNOWLEDGED);
  }

  @Test
  void objectToSingletonArrayWrapsAndUnwraps() {
    var target =
        target(
            "backup: {type: object, properties: {at: {type: string}}}",
            """
        backups: {type: array, maxItems: 1, items: {type: object, properties: {at: {type: string}}}}
        """);
    var router =
        router(
            target,
            spokeRules(
                """
        - strategy: ObjectToSingletonArray
          objectToSingletonArray: {hubPath: spec.backup, spokePath: spec.backups}
        """));
    assertThat(router.convert(object("spec: {backup: {at: '02:00'}}"), "v2", "v1").path("spec"))
        .isEqualTo(object("backups: [{at: '02:00'}]"));
    assertThat(router.convert(object("spec: {backups: [{at: '03:00'}]}"), "v1", "v2").path("spec"))
        .isEqualTo(object("backup: {at: '03:00'}"));
  }
}
