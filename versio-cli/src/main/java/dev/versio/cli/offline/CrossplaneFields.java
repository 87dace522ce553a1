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

  /** Whether {@code path} is one of Crossplane's fields or inside one. */
  static boolean owned(String path) {
    return OWNED.stream()
        .anyMatch(o -> path.equals(o) || path.startsWith(o + ".") || path.startsWith(o + "["));
  }
}
