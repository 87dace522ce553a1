package dev.versio.engine.schema;

import java.util.List;

/** Where a target's versions and schemas come from: a CRD, a Crossplane XRD, or a file. */
public interface SchemaSource {
  /** Every version the target declares, in declaration order. */
  List<VersionSchema> versions();

  /** What the target is, for messages: e.g. {@code CRD widgets.example.com}. */
  String describe();

  /**
   * The versions objects may still be stored at (a CRD's {@code status.storedVersions}): the
   * apiserver reads such objects at their stored version and converts them, served or not. Empty
   * when the source does not say (a file without status, an XRD).
   */
  default List<String> storedVersions() {
    return List.of();
  }
}
