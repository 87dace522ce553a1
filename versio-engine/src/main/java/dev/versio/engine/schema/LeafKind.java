package dev.versio.engine.schema;

import java.util.Locale;

/** The kind of a flattened schema leaf. */
public enum LeafKind {
  OBJECT,
  ARRAY,
  STRING,
  INTEGER,
  NUMBER,
  BOOLEAN,
  /** No usable {@code type}: int-or-string, combinators, untyped nodes. */
  UNKNOWN;

  private final String wireName = name().toLowerCase(Locale.ROOT);

  public String wireName() {
    return wireName;
  }

  public boolean isScalar() {
    return this == STRING || this == INTEGER || this == NUMBER || this == BOOLEAN;
  }
}
