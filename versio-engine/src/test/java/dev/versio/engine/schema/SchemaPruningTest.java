package dev.versio.engine.schema;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class SchemaPruningTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static final String SCHEMA =
      """
      {"type": "object", "properties": {
        "spec": {"type": "object", "properties": {
          "size": {"type": "integer", "minimum": 1},
          "pools": {"type": "array", "items": {"type": "object", "properties": {
            "name": {"type": "string"}}}},
          "labels": {"type": "object", "additionalProperties": {"type": "string"}},
          "extra": {"type": "object", "x-kubernetes-preserve-unknown-fields": true},
          "template": {"type": "object", "x-kubernetes-embedded-resource": true,
            "properties": {"spec": {"type": "object", "properties": {"a": {"type": "string"}}}}},
          "note": {"type": "string", "nullable": true},
          "other": {"type": "string"}}}}}
      """;

  @Test
  void dropsExactlyWhatConformanceCallsPrunedAndKeepsWhatTheApiserverKeeps() throws Exception {
    var schema = SchemaNode.parse(JSON.readTree(SCHEMA));
    var object =
        JSON.readTree(
            """
            {"apiVersion": "x/v1", "kind": "K", "metadata": {"name": "a", "annotations": {"k": "v"}},
             "spec": {"size": 0, "undeclared": 1, "note": null, "other": null,
               "pools": [{"name": "a", "metadata": {"annotations": {"z": "1"}}}],
               "labels": {"any": "x"}, "extra": {"whatever": {"deep": 1}},
               "template": {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"},
                 "spec": {"a": "b", "c": "d"}}},
             "status": {"phase": "Up"}}
            """);
    var stored = SchemaPruning.prune(object, schema);
    assertThat(stored)
        .isEqualTo(
            JSON.readTree(
                """
                {"apiVersion": "x/v1", "kind": "K", "metadata": {"name": "a", "annotations": {"k": "v"}},
                 "spec": {"size": 0, "note": null, "pools": [{"name": "a"}],
                   "labels": {"any": "x"}, "extra": {"whatever": {"deep": 1}},
                   "template": {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"},
                     "spec": {"a": "b"}}}}
                """));
    assertThat(SchemaConformance.check(stored, schema))
        .as("what is left is only what the apiserver rejects (size under its minimum)")
        .extracting(SchemaConformance.Finding::problem)
        .containsExactly(SchemaConformance.Problem.OUT_OF_BOUNDS);
    assertThat(object.path("spec").has("undeclared")).as("the input is not changed").isTrue();
  }
}
