package dev.versio.operator.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OwnCrdsTest {

  @Test
  void theOperatorWaitsForItsServerAndBothConfigCrds() {
    assertThat(OwnCrds.NAMES)
        .containsExactly(
            "conversionwebhookservers.versio.dev",
            "crdconversionconfigs.versio.dev",
            "xrdconversionconfigs.versio.dev");
  }

  @Test
  void aCrdThatIsAbsentOrNotYetEstablishedIsWaitedFor() {
    var cluster =
        Map.of(
            "conversionwebhookservers.versio.dev", crd("True"),
            "crdconversionconfigs.versio.dev", crd("False"));

    assertThat(OwnCrds.notEstablished(OwnCrds.NAMES, cluster::get))
        .containsExactly("crdconversionconfigs.versio.dev", "xrdconversionconfigs.versio.dev");
  }

  @Test
  void aCrdWithoutConditionsYetIsNotEstablished() {
    var fresh = crd(null);

    assertThat(OwnCrds.notEstablished(OwnCrds.NAMES, name -> fresh)).isEqualTo(OwnCrds.NAMES);
  }

  @Test
  void nothingIsWaitedForOnceAllAreEstablished() {
    assertThat(OwnCrds.notEstablished(OwnCrds.NAMES, name -> crd("True"))).isEmpty();
  }

  @Test
  void theWaitMessageNamesTheMissingCrdsAndHowToInstallThem() {
    assertThat(OwnCrds.waitingFor(java.util.List.of("xrdconversionconfigs.versio.dev")))
        .contains("xrdconversionconfigs.versio.dev")
        .contains("deploy/crds/")
        .contains("chart");
  }

  private static CustomResourceDefinition crd(String established) {
    var builder = new CustomResourceDefinitionBuilder().withNewMetadata().endMetadata();
    if (established == null) {
      return builder.build();
    }
    return builder
        .withNewStatus()
        .addNewCondition()
        .withType("Established")
        .withStatus(established)
        .endCondition()
        .endStatus()
        .build();
  }
}
