package dev.versio.api.config;

import com.fasterxml.jackson.annotation.JsonIgnore;
import io.fabric8.generator.annotation.Required;

/** Spec of a {@link CRDConversionConfig}: the target is a CustomResourceDefinition. */
public class CRDConversionConfigSpec extends ConversionConfigSpec {
  @Required public NameRef targetCRD;

  /**
   * Re-storing the target's objects after a storage version promotion; absent means {@code Manual}
   * with the defaults.
   */
  public StorageMigrationSpec storageMigration;

  @Override
  @JsonIgnore
  public String targetName() {
    return targetCRD == null ? null : targetCRD.name;
  }
}
