package dev.versio.engine;

import static dev.versio.engine.Fixtures.object;
import static org.assertj.core.api.Assertions.assertThat;

import dev.versio.engine.runtime.NullContainers;
import dev.versio.engine.schema.SchemaNode;
import org.junit.jupiter.api.Test;

/** What a null reads as: absent in a declared object or array, itself everywhere else. */
class NullContainersTest {
  private static final NullContainers NULLS =
      NullContainers.of(
          SchemaNode.parse(
              object(
                  """
                  type: object
                  properties:
                    metadata: {type: object}
                    spec:
                      type: object
                      properties:
                        rules:
                          type: array
                          items:
                            type: object
                            properties:
                              backendRefs: {type: array, items: {type: object}}
                              timeouts: {type: object, properties: {request: {type: string}}}
                        billing: {type: object, additionalProperties: {type: string}}
                        quotas: {type: object, additionalProperties: {type: object, properties: {limit: {type: integer}}}}
                        optional: {type: object, nullable: true}
                        name: {type: string}
                        extra: {type: object, x-kubernetes-preserve-unknown-fields: true}
                    status: {type: object, x-kubernetes-preserve-unknown-fields: true}
                  """)));

  @Test
  void anObjectWithoutANullIsReturnedItselfUncopied() {
    var input = object("spec: {name: a, rules: [{timeouts: {request: 1s}}]}");
    assertThat(NULLS.without(input)).isSameAs(input);
  }

  @Test
  void aNullInPlaceOfADeclaredObjectOrArrayReadsAsAbsentAndTheInputStaysAsItWas() {
    var input =
        object(
            """
            metadata: {name: a, labels: null, annotations: null}
            spec:
              rules: [{backendRefs: null, timeouts: null}, {timeouts: {request: null}}]
              billing: null
              quotas: {cpu: null, memory: {limit: 1}}
            status: null
            """);
    var before = input.deepCopy();
    var out = NULLS.without(input);
    assertThat(input).isEqualTo(before);
    assertThat(out)
        .isEqualTo(
            object(
                """
                metadata: {name: a}
                spec:
                  rules: [{}, {timeouts: {request: null}}]
                  quotas: {memory: {limit: 1}}
                """));
  }

  @Test
  void aNullableFieldAScalarAndAnythingUnderAnOpaqueNodeKeepTheirNull() {
    var input =
        object(
            """
            spec:
              optional: null
              name: null
              extra: {inner: null, list: [null]}
              undeclared: null
            """);
    assertThat(NULLS.without(input)).isSameAs(input);
  }

  @Test
  void aNullIsFoundWhetherTheObjectHoldsFewerOrMoreKeysThanTheSchemaHasPlacesForANull() {
    // spec declares five fields that may hold a null to drop: below five keys the scan walks the
    // object's keys, from five on it asks the object for each of the five
    var few = object("spec: {name: a, billing: null}");
    var many =
        object(
            "spec: {name: a, rules: [], quotas: {}, optional: null, extra: {}, other: 1, billing:"
                + " null}");
    assertThat(NULLS.without(few)).isEqualTo(object("spec: {name: a}"));
    assertThat(NULLS.without(many))
        .isEqualTo(
            object("spec: {name: a, rules: [], quotas: {}, optional: null, extra: {}, other: 1}"));
  }

  @Test
  void aNullWhereTheSchemaKeepsItLeavesTheObjectUncopied() {
    var input =
        object(
            """
            metadata:
              labels: {tier: null}
              managedFields: [{manager: m, fieldsV1: {"f:spec": null}}]
            spec: {billing: {cpu: null}}
            """);
    assertThat(NULLS.without(input)).isSameAs(input);
  }

  @Test
  void withoutASchemaNothingIsDropped() {
    var input = object("spec: null");
    assertThat(NullContainers.NONE.without(input)).isSameAs(input);
  }
}
