package dev.versio.api.config;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Required;

/** A reference to a cluster-scoped object by name. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class NameRef {
  @Required public String name;

  public NameRef() {}

  public NameRef(String name) {
    this.name = name;
  }
}
