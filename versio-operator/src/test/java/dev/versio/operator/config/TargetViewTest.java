package dev.versio.operator.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;

class TargetViewTest {
  private static TargetView of(String yaml) {
    return TargetView.of(Serialization.unmarshal(yaml, GenericKubernetesResource.class));
  }

  @Test
  void aCrdIsReadWithItsGenerationServedVersionsEstablishedAndAnnotations() {
    var view =
        of(
            """
            apiVersion: apiextensions.k8s.io/v1
            kind: CustomResourceDefinition
            metadata:
              name: caches.example.com
              generation: 7
              annotations: {versio.dev/managed-by: caches-config}
            spec:
              versions:
              - {name: v1, served: true, storage: false}
              - {name: v2, served: true, storage: true}
              - {name: v3, served: false, storage: false}
            status:
              conditions:
              - {type: NamesAccepted, status: "True"}
              - {type: Established, status: "True"}
            """);

    assertThat(view.name()).isEqualTo("caches.example.com");
    assertThat(view.generation()).isEqualTo(7);
    assertThat(view.versionsInUse()).containsExactly("v1", "v2");
    assertThat(view.established()).isTrue();
    assertThat(view.annotations()).containsEntry("versio.dev/managed-by", "caches-config");
    assertThat(view.managedByOperator()).isFalse();
    assertThat(view.conversion().isMissingNode()).isTrue();
  }

  @Test
  void aTargetWithoutAnEstablishedConditionOrAnnotationsIsNotEstablished() {
    var view =
        of(
            """
            apiVersion: apiextensions.k8s.io/v1
            kind: CustomResourceDefinition
            metadata: {name: caches.example.com}
            spec:
              versions: [{name: v1, storage: true}]
            status:
              conditions: [{type: Established, status: "False"}]
            """);

    assertThat(view.established()).isFalse();
    assertThat(view.generation()).isZero();
    assertThat(view.annotations()).isEmpty();
    assertThat(view.versionsInUse()).as("served defaults to true").containsExactly("v1");
  }

  @Test
  void aVersionNoLongerServedButStillStoredIsInUse() {
    var view =
        of(
            """
            apiVersion: apiextensions.k8s.io/v1
            kind: CustomResourceDefinition
            metadata: {name: caches.example.com}
            spec:
              versions:
              - {name: v1, served: false, storage: false}
              - {name: v2, served: true, storage: true}
              - {name: v3, served: false, storage: false}
            status:
              storedVersions: [v1, v2]
            """);

    assertThat(view.versionsInUse())
        .as("objects stored at v1 are still read and converted; v3 is neither served nor stored")
        .containsExactly("v2", "v1");
  }
}
