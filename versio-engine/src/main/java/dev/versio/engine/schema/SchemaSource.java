package dev.versio.engine.schema;

import java.util.List;

/** Where a target's versions and schemas come from: a CRD, a Crossplane XRD, or a file. */
public interface SchemaSource {
  /** Every version the target declares, in declaration order. */
  List<VersionSchema> versions();

  /** What the target is, for messages: e.g. {@code CRD widgets.example.com}. */
  String describe();
}
