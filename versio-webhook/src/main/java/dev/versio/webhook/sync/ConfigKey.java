package dev.versio.webhook.sync;

import java.util.Objects;

/**
 * A config by kind and name: a CRD config and an XRD config may share a name.
 *
 * @param xrd whether it is an XRDConversionConfig
 * @param name its name
 */
public record ConfigKey(boolean xrd, String name) {
  public ConfigKey {
    Objects.requireNonNull(name, "name");
  }

  @Override
  public String toString() {
    return (xrd ? "xrd/" : "crd/") + name;
  }
}
