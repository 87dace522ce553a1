package dev.versio.api.config;

import com.fasterxml.jackson.annotation.JsonIgnore;
import io.fabric8.generator.annotation.Required;

/** Spec of a {@link CRDConversionConfig}: the target is a CustomResourceDefinition. */
public class CRDConversionConfigSpec extends ConversionConfigSpec {
  @Required public NameRef targetCRD;

  @Override
  @JsonIgnore
  public String targetName() {
    return targetCRD == null ? null : targetCRD.name;
  }
}
