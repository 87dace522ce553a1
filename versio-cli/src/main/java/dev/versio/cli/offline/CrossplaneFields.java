package dev.versio.cli.offline;

import java.util.List;

/**
 * The fields Crossplane adds to the CRD it generates from an XRD ({@code spec.crossplane} in v2,
 * {@code spec.compositionRef} and its kin in v1, {@code status.conditions}, ...). An XRD does not
 * declare them, yet the apiserver keeps them, so the schema check of an XR sample must not call
 * them pruned.
 */
final class CrossplaneFields {
  private static final List<String> OWNED =
      List.of(
          "spec.crossplane",
          "spec.compositionRef",
          "spec.compositionSelector",
          "spec.compositionRevisionRef",
          "spec.compositionRevisionSelector",
          "spec.compositionUpdatePolicy",
          "spec.compositeDeletePolicy",
          "spec.claimRef",
          "spec.resourceRefs",
          "spec.writeConnectionSecretToRef",
          "spec.publishConnectionDetailsTo",
          "spec.environmentConfigRefs",
          "status.conditions",
          "status.connectionDetails",
          "status.claimConditionTypes",
          "status.crossplane");

  private CrossplaneFields() {}

  /**
   * Puts Crossplane's fields of {@code converted} back into {@code stored}, its pruned copy: the
   * apiserver keeps them, as the CRD Crossplane generates declares them.
   */
  static void keep(
      com.fasterxml.jackson.databind.JsonNode converted,
      com.fasterxml.jackson.databind.JsonNode stored) {
    if (!(stored instanceof com.fasterxml.jackson.databind.node.ObjectNode object)) {
      return;
    }
    for (var owned : OWNED) {
      var path = dev.versio.engine.FieldPath.parse(owned);
      var value = dev.versio.engine.runtime.Tree.get(converted, path);
      if (value != null) {
        dev.versio.engine.runtime.Tree.set(object, path, value.deepCopy());
      }
    }
  }

  /** Whether {@code path} is one of Crossplane's fields or inside one. */
  static boolean owned(String path) {
    return OWNED.stream()
        .anyMatch(o -> path.equals(o) || path.startsWith(o + ".") || path.startsWith(o + "["));
  }
}
