package dev.versio.operator.admission;

/** The two config kinds as admission sees them (names, target field, feature flag). */
public enum AdmittedConfigKind {
  CRD("CRDConversionConfig", "crdconversionconfigs", "CRD", "spec.targetCRD.name", "crd"),
  XRD("XRDConversionConfig", "xrdconversionconfigs", "XRD", "spec.targetXRD.name", "xrd");

  private final String kind;
  private final String plural;
  private final String targetKind;
  private final String targetField;
  private final String flagWord;

  AdmittedConfigKind(
      String kind, String plural, String targetKind, String targetField, String flagWord) {
    this.kind = kind;
    this.plural = plural;
    this.targetKind = targetKind;
    this.targetField = targetField;
    this.flagWord = flagWord;
  }

  /** {@code CRDConversionConfig} or {@code XRDConversionConfig}. */
  public String kind() {
    return kind;
  }

  /** The resource name in the API, e.g. {@code crdconversionconfigs}. */
  public String plural() {
    return plural;
  }

  /** {@code CRD} or {@code XRD}. */
  public String targetKind() {
    return targetKind;
  }

  /** The spec field naming the target. */
  public String targetField() {
    return targetField;
  }

  /** The operator flag that enables the kind. */
  public String flag() {
    return "--enable-" + flagWord + "-support";
  }

  /** {@code Kind/name}, how messages name a config. */
  public String ref(String name) {
    return kind + "/" + name;
  }
}
