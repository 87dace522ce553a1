package dev.versio.operator.migrate;

import java.util.List;

/** The CRDs the migration tests re-store: a Widget CRD, and the claim CRD of an XRD. */
final class Targets {
  private Targets() {}

  /** {@code widgets.example.com} (revision {@code uid-1/2}) storing at v2. */
  static StorageTarget widgets(String... storedVersions) {
    return new StorageTarget(
        "widgets.example.com",
        "example.com",
        "Widget",
        "widgets",
        true,
        "v2",
        List.of(storedVersions),
        "uid-1/2");
  }

  /** {@code widgetclaims.example.com} (revision {@code uid-2/3}) storing at v2. */
  static StorageTarget claims(String... storedVersions) {
    return new StorageTarget(
        "widgetclaims.example.com",
        "example.com",
        "WidgetClaim",
        "widgetclaims",
        true,
        "v2",
        List.of(storedVersions),
        "uid-2/3");
  }
}
