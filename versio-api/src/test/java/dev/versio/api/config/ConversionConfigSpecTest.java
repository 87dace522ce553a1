package dev.versio.api.config;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.TreeSet;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ConversionConfigSpecTest {

  @ParameterizedTest
  @CsvSource({
    "crdconversionconfigs, dev.versio.api.config.CRDConversionConfigSpec",
    "xrdconversionconfigs, dev.versio.api.config.XRDConversionConfigSpec"
  })
  void theKeysOfEachKindAreThePropertiesOfItsSpecInTheCrd(String plural, String specClass)
      throws IOException, ClassNotFoundException {
    var kind = Class.forName(specClass).asSubclass(ConversionConfigSpec.class);
    var crd =
        new YAMLMapper()
            .readTree(
                Path.of("target/classes/META-INF/fabric8", plural + ".versio.dev-v1.yml").toFile());
    JsonNode spec = crd.at("/spec/versions/0/schema/openAPIV3Schema/properties/spec/properties");
    var properties = new TreeSet<String>();
    spec.fieldNames().forEachRemaining(properties::add);
    assertThat(ConversionConfigSpec.keysOf(kind)).isEqualTo(properties).contains("hubVersion");
  }
}
