package dev.versio.engine.schema;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.versio.engine.schema.SchemaConformance.Problem;
import java.util.List;
import org.junit.jupiter.api.Test;

class SchemaConformanceTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static final String SCHEMA =
      """
      {"type": "object", "properties": {
        "spec": {"type": "object", "required": ["size"], "properties": {
          "size": {"type": "integer"},
          "engine": {"type": "string", "enum": ["redis", "memcached"]},
          "ports": {"type": "array", "maxItems": 2, "items": {"type": "object", "properties": {
            "name": {"type": "string"}, "port": {"x-kubernetes-int-or-string": true}}}},
          "labels": {"type": "object", "additionalProperties": {"type": "string"}},
          "extra": {"type": "object", "x-kubernetes-preserve-unknown-fields": true},
          "template": {"type": "object", "x-kubernetes-embedded-resource": true,
            "properties": {"spec": {"type": "object", "properties": {"a": {"type": "string"}}}}},
          "note": {"type": "string", "nullable": true},
          "ratio": {"type": "number"}}},
        "status": {"type": "object", "properties": {"phase": {"type": "string"}}}}}
      """;

  private static List<SchemaConformance.Finding> check(String object) throws Exception {
    return SchemaConformance.check(JSON.readTree(object), SchemaNode.parse(JSON.readTree(SCHEMA)));
  }

  @Test
  void anObjectThatMatchesItsSchemaHasNoFindings() throws Exception {
    assertThat(
            check(
                """
                {"apiVersion": "x/v1", "kind": "K", "metadata": {"name": "a", "labels": {"t": "w"}},
                 "spec": {"size": 3.0, "engine": "redis", "ports": [{"name": "http", "port": 80},
                   {"port": "https"}], "labels": {"a.b/c": "d"}, "extra": {"any": [1, {"x": 2}]},
                   "template": {"apiVersion": "v1", "kind": "Pod", "metadata": {},
                     "spec": {"a": "b"}}, "note": null, "ratio": 2},
                 "status": {"phase": "Ready"}}
                """))
        .isEmpty();
  }

  @Test
  void aFieldTheSchemaDoesNotDeclareIsReportedAsPrunedWithItsPath() throws Exception {
    var findings =
        check(
            """
            {"spec": {"size": 1, "ports": [{"name": "a", "protocol": "TCP"}]},
             "status": {"phase": "Ready", "conditions": [{"type": "Ready"}]}}
            """);
    assertThat(findings)
        .extracting(SchemaConformance.Finding::path, SchemaConformance.Finding::problem)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("spec.ports[0].protocol", Problem.PRUNED),
            org.assertj.core.groups.Tuple.tuple("status.conditions", Problem.PRUNED));
    assertThat(findings.get(1).message()).contains("prunes");
  }

  @Test
  void wrongTypesMissingRequiredFieldsAndEnumViolationsAreFindings() throws Exception {
    var findings =
        check(
            """
            {"spec": {"engine": "mysql", "ratio": "half", "ports": [{"port": 1.5}],
              "labels": {"a": 1}, "template": {"spec": {"a": "b", "b": 1}}}}
            """);
    assertThat(findings)
        .extracting(SchemaConformance.Finding::path, SchemaConformance.Finding::problem)
        .containsExactlyInAnyOrder(
            org.assertj.core.groups.Tuple.tuple("spec.size", Problem.MISSING_REQUIRED),
            org.assertj.core.groups.Tuple.tuple("spec.engine", Problem.NOT_IN_ENUM),
            org.assertj.core.groups.Tuple.tuple("spec.ratio", Problem.WRONG_TYPE),
            org.assertj.core.groups.Tuple.tuple("spec.ports[0].port", Problem.WRONG_TYPE),
            org.assertj.core.groups.Tuple.tuple("spec.labels.a", Problem.WRONG_TYPE),
            org.assertj.core.groups.Tuple.tuple("spec.template.spec.b", Problem.PRUNED));
    assertThat(findings)
        .filteredOn(f -> f.path().equals("spec.ratio"))
        .first()
        .extracting(SchemaConformance.Finding::message)
        .isEqualTo("spec.ratio: must be a number, found the string \"half\"");
  }

  @Test
  void aStringWhereTheSchemaWantsAnIntegerIsAWrongType() throws Exception {
    var findings = check("{\"spec\": {\"size\": \"three\"}}");
    assertThat(findings)
        .singleElement()
        .satisfies(
            f -> {
              assertThat(f.problem()).isEqualTo(Problem.WRONG_TYPE);
              assertThat(f.message())
                  .isEqualTo("spec.size: must be an integer, found the string \"three\"");
            });
  }

  @Test
  void nullWhereTheSchemaIsNotNullableIsDroppedAndTooManyItemsIsAnError() throws Exception {
    JsonNode tooMany =
        JSON.readTree("{\"spec\": {\"size\": 1, \"engine\": null, \"ports\": [{}, {}, {}]}}");
    var findings = SchemaConformance.check(tooMany, SchemaNode.parse(JSON.readTree(SCHEMA)));
    assertThat(findings)
        .extracting(SchemaConformance.Finding::path, SchemaConformance.Finding::problem)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("spec.engine", Problem.PRUNED),
            org.assertj.core.groups.Tuple.tuple("spec.ports", Problem.TOO_MANY_ITEMS));
  }
}
