package dev.versio.api;

/** The Versio API group and version. */
public final class ApiGroup {
  public static final String GROUP = "versio.dev";
  public static final String VERSION = "v1alpha1";
  public static final String API_VERSION = GROUP + "/" + VERSION;

  private ApiGroup() {}
}
