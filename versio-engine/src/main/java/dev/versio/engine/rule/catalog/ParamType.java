package dev.versio.engine.rule.catalog;

/**
 * The kinds of value a strategy parameter holds. The kind decides how the parser reads the
 * parameter, how the reference documents it and how the CRD schema types it.
 */
public enum ParamType {
  /** A dotted path of object keys, e.g. {@code spec.diskGiB}. */
  PATH("path"),
  /** A non-empty list of dotted paths. */
  PATHS("list of paths"),
  /** A string. */
  STRING("string"),
  /** {@code true} or {@code false}. */
  BOOLEAN("boolean"),
  /** A JSON number. */
  NUMBER("number"),
  /** One of a fixed set of words (the parameter's {@link ParamSpec#choices()}). */
  CHOICE("one of"),
  /** A map of strings to strings. */
  STRING_MAP("map of strings"),
  /** A non-empty map of names to dotted paths. */
  PATH_MAP("map of paths"),
  /** Any JSON value. */
  JSON("any JSON value"),
  /** A map of keys to any JSON values. */
  JSON_MAP("map of JSON values"),
  /** A list of RFC 6902 operations ({@code op}, {@code path}, {@code from}, {@code value}). */
  JSON_PATCH("list of JSON Patch operations"),
  /** A non-empty list of {@code {hub, spoke}} pairs of scalars. */
  ENUM_MAPPING("list of {hub, spoke} pairs"),
  /** A list of rules (the rules of a {@code ForEach}, with element-relative paths). */
  RULES("list of rules");

  private final String display;

  ParamType(String display) {
    this.display = display;
  }

  /** How the reference names this kind of value, e.g. {@code list of paths}. */
  public String display() {
    return display;
  }
}
