package dev.versio.operator.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConfigWatchesTest {

  @Test
  void anUpdateThatChangesTheWriteStampIsTheOperatorsOwnWrite() {
    assertThat(ConfigWatches.ownWrite(crd(Map.of()), crd(stamp("op-1/3")))).isTrue();
    assertThat(ConfigWatches.ownWrite(crd(stamp("op-1/3")), crd(stamp("op-2/4")))).isTrue();
  }

  @Test
  void anUpdateThatLeavesTheStampAloneIsSomeoneElsesChangeAndStillReachesTheConfig() {
    assertThat(ConfigWatches.ownWrite(crd(stamp("op-1/3")), crd(stamp("op-1/3")))).isFalse();
    assertThat(ConfigWatches.ownWrite(crd(stamp("op-1/3")), crd(Map.of()))).isFalse();
    assertThat(ConfigWatches.ownWrite(null, crd(stamp("op-1/3")))).as("an add").isFalse();
  }

  private static Map<String, String> stamp(String value) {
    return Map.of("versio.dev/written-by", value);
  }

  private static HasMetadata crd(Map<String, String> annotations) {
    return new CustomResourceDefinitionBuilder()
        .withNewMetadata()
        .withName("widgets.example.org")
        .withAnnotations(annotations)
        .endMetadata()
        .build();
  }
}
