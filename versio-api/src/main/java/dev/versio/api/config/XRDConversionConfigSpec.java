package dev.versio.api.config;

import com.fasterxml.jackson.annotation.JsonIgnore;
import io.fabric8.generator.annotation.Required;

/**
 * Spec of an {@link XRDConversionConfig}: the target is a Crossplane CompositeResourceDefinition.
 */
public class XRDConversionConfigSpec extends ConversionConfigSpec {
  @Required public NameRef targetXRD;

  @Override
  @JsonIgnore
  public String targetName() {
    return targetXRD == null ? null : targetXRD.name;
  }
}
