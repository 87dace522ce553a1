package dev.versio.api.crd;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersionBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaPropsBuilder;
import java.util.Map;
import org.junit.jupiter.api.Test;

class XrdApiTest {
  private static final JSONSchemaProps WITH_CONVERSION = specWith("group", "conversion");
  private static final JSONSchemaProps WITHOUT_CONVERSION = specWith("group", "claimNames");

  @Test
  void crossplaneTwoIsReadAtV2WhetherOrNotItStillServesV1() {
    assertThat(XrdApi.version(xrdApi(version("v1", true, WITH_CONVERSION), version("v2", true))))
        .contains("v2");
    assertThat(XrdApi.version(xrdApi(version("v2", true), version("v1", false)))).contains("v2");
    assertThat(XrdApi.unsupported(xrdApi(version("v2", true), version("v1", true)))).isEmpty();
  }

  @Test
  void crossplaneOneFromOneTwelveIsReadAtV1BecauseItsXrdsKeepTheirConversion() {
    var api = xrdApi(version("v1", true, WITH_CONVERSION), version("v1beta1", false));
    assertThat(XrdApi.version(api)).contains("v1");
    assertThat(XrdApi.unsupported(api)).isEmpty();
    assertThat(XrdApi.version(xrdApi(version("v1", true, null), version("v1beta1", false))))
        .as("a schema that keeps every field keeps spec.conversion too")
        .contains("v1");
  }

  @Test
  void crossplaneBeforeOneTwelveIsRefusedWithTheReasonAndTheWayOut() {
    var api = xrdApi(version("v1", true, WITHOUT_CONVERSION), version("v1beta1", true));
    assertThat(XrdApi.version(api)).isEmpty();
    assertThat(XrdApi.unsupported(api))
        .hasValueSatisfying(
            reason ->
                assertThat(reason)
                    .contains("serves v1, v1beta1 without spec.conversion")
                    .contains("before 1.12")
                    .contains("upgrade Crossplane to 1.12 or later"));
  }

  @Test
  void anXrdApiServingNeitherVersionSaysSo() {
    assertThat(XrdApi.unsupported(xrdApi(version("v2", false), version("v1", false))))
        .hasValueSatisfying(reason -> assertThat(reason).contains("serves no version"));
  }

  @Test
  void theContextAndApiVersionFollowTheVersion() {
    assertThat(XrdApi.apiVersion("v1")).isEqualTo("apiextensions.crossplane.io/v1");
    assertThat(XrdApi.context("v1").getVersion()).isEqualTo("v1");
    assertThat(XrdApi.context("v2").getPlural()).isEqualTo("compositeresourcedefinitions");
  }

  private static JSONSchemaProps specWith(String... fields) {
    var spec = new JSONSchemaPropsBuilder().withType("object");
    for (var field : fields) {
      spec.addToProperties(field, new JSONSchemaPropsBuilder().withType("object").build());
    }
    return new JSONSchemaPropsBuilder()
        .withType("object")
        .withProperties(Map.of("spec", spec.build()))
        .build();
  }

  private static CustomResourceDefinitionVersion version(String name, boolean served) {
    return version(name, served, WITH_CONVERSION);
  }

  private static CustomResourceDefinitionVersion version(
      String name, boolean served, JSONSchemaProps schema) {
    var builder = new CustomResourceDefinitionVersionBuilder().withName(name).withServed(served);
    if (schema != null) {
      builder.withNewSchema().withOpenAPIV3Schema(schema).endSchema();
    }
    return builder.build();
  }

  private static CustomResourceDefinition xrdApi(
      CustomResourceDefinitionVersion first, CustomResourceDefinitionVersion second) {
    return new CustomResourceDefinitionBuilder()
        .withNewMetadata()
        .withName(XrdApi.CRD_NAME)
        .endMetadata()
        .withNewSpec()
        .withGroup("apiextensions.crossplane.io")
        .withVersions(first, second)
        .endSpec()
        .build();
  }
}
