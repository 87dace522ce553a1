package dev.versio.api.crd;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import org.junit.jupiter.api.Test;

class XrdApiTest {

  @Test
  void anXrdApiServingV2IsSupportedWhetherOrNotItStillServesV1() {
    assertThat(XrdApi.unsupported(xrdApi("v1", true, "v2", true))).isEmpty();
    assertThat(XrdApi.unsupported(xrdApi("v2", true, "v1", false))).isEmpty();
  }

  @Test
  void crossplaneOneServingOnlyV1IsReportedWithTheVersionsAndTheWayOut() {
    assertThat(XrdApi.unsupported(xrdApi("v1", true, "v1beta1", true)))
        .hasValueSatisfying(
            reason ->
                assertThat(reason)
                    .contains("serves only v1, v1beta1")
                    .contains("apiextensions.crossplane.io/v2")
                    .contains("Crossplane 1.x")
                    .contains("upgrade Crossplane to 2.0 or later"));
    assertThat(XrdApi.unsupported(xrdApi("v2", false, "v1", false)))
        .hasValueSatisfying(reason -> assertThat(reason).contains("serves no version"));
  }

  private static CustomResourceDefinition xrdApi(
      String first, boolean firstServed, String second, boolean secondServed) {
    return new CustomResourceDefinitionBuilder()
        .withNewMetadata()
        .withName(XrdApi.CRD_NAME)
        .endMetadata()
        .withNewSpec()
        .withGroup("apiextensions.crossplane.io")
        .addNewVersion()
        .withName(first)
        .withServed(firstServed)
        .withStorage(true)
        .endVersion()
        .addNewVersion()
        .withName(second)
        .withServed(secondServed)
        .withStorage(false)
        .endVersion()
        .endSpec()
        .build();
  }
}
