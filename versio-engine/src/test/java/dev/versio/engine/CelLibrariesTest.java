package dev.versio.engine;

import static dev.versio.engine.Fixtures.*;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The CEL a Kubernetes user already writes: optional access, cel.bind, lists, sets, math, regex.
 */
class CelLibrariesTest {
  private static final String HUB =
      "replicas: {type: integer}\ntags: {type: array, items: {type: string}}\nhost: {type: string}";
  private static final String SPOKE =
      "size: {type: integer}\ntags: {type: array, items: {type: string}}\nhost: {type: string}";

  @Test
  void optionalAccessBindListsSetsMathAndRegexCompileAndRun() {
    var config =
        spokeRules(
            """
            - strategy: CEL
              acknowledgeLossy: true
              cel:
                hubPaths: [spec.replicas, spec.tags, spec.host]
                spokePaths: [spec.size, spec.tags, spec.host]
                hubToSpoke: >-
                  cel.bind(r, object.?spec.?replicas.orValue(1), {"spec": {
                  "size": math.greatest(r, 1),
                  "tags": object.?spec.?tags.orValue([]).distinct().sort(),
                  "host": object.?spec.?host.orValue("x").lowerAscii()}})
                spokeToHub: >-
                  {"spec": {"replicas": object.spec.size, "tags": object.spec.tags,
                  "host": sets.contains(["a"], ["a"]) && regex.replace(object.spec.host, "^www[.]", "") != ""
                  ? object.spec.host : "none"}}
            """);
    var router = router(target(HUB, SPOKE), config);
    var spoke =
        router.convert(
            object(
                """
                apiVersion: example.test/v2
                kind: Widget
                spec: {replicas: 0, tags: [b, a, b], host: WWW.Example.COM}
                """),
            "v2",
            "v1");
    assertThat(spoke.path("spec"))
        .isEqualTo(object("{size: 1, tags: [a, b], host: www.example.com}"));
    var empty =
        router.convert(object("{apiVersion: example.test/v2, kind: Widget, spec: {}}"), "v2", "v1");
    assertThat(empty.path("spec")).isEqualTo(object("{size: 1, tags: [], host: x}"));
  }

  @Test
  void anOptionalReadOfAFieldTheSchemaDoesNotDeclareIsStillAnError() {
    var config =
        spokeRules(
            """
            - strategy: CEL
              acknowledgeLossy: true
              cel:
                hubPaths: [spec.replicas, spec.tags, spec.host]
                spokePaths: [spec.size, spec.tags, spec.host]
                hubToSpoke: '{"spec.size": object.?spec.?replica.orValue(1)}'
                spokeToHub: '{"spec.replicas": object.spec.size}'
            """);
    assertThat(lines(rejected(target(HUB, SPOKE), config)))
        .contains("spec.replica")
        .contains("not declared");
  }

  @Test
  void nullTypeChecksBesideAnyValueAndLeavesTheFieldOut() {
    var config =
        spokeRules(
            """
            - strategy: CEL
              acknowledgeLossy: true
              cel:
                hubPaths: [spec.replicas]
                spokePaths: [spec.size]
                hubToSpoke: '{"spec.size": object.spec.replicas > 0 ? object.spec.replicas : null}'
                spokeToHub: '{"spec.replicas": has(object.spec.size) ? object.spec.size : null}'
            """);
    var router = router(target(HUB, SPOKE), config);

    var spoke =
        router.convert(
            object("{apiVersion: example.test/v2, kind: Widget, spec: {replicas: 0}}"), "v2", "v1");

    assertThat(spoke.path("spec").has("size")).isFalse();
    assertThat(
            router
                .convert(
                    object("{apiVersion: example.test/v1, kind: Widget, spec: {size: 3}}"),
                    "v1",
                    "v2")
                .path("spec"))
        .isEqualTo(object("{replicas: 3}"));
  }
}
