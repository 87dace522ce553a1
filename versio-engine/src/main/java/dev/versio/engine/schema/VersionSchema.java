package dev.versio.engine.schema;

import java.util.Objects;

/**
 * One version of a target resource as the engine sees it.
 *
 * @param name the version name, e.g. {@code v1beta1}
 * @param served whether the apiserver serves it
 * @param storage whether it is the storage version (for an XRD: the referenceable one)
 * @param schema its whole {@code openAPIV3Schema} (paths start at {@code spec}, {@code status})
 */
public record VersionSchema(String name, boolean served, boolean storage, SchemaNode schema) {
  public VersionSchema {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(schema, "schema (use SchemaNode.empty() for a version without one)");
  }
}
