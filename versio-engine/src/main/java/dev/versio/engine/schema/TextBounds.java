package dev.versio.engine.schema;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * What a string schema allows beyond its type: {@code pattern}, {@code minLength}, {@code
 * maxLength}. The pattern is an ECMA-262 regular expression that, as in OpenAPI, matches anywhere
 * in the value unless anchored; it is kept as written, and compiled once for checks. A pattern Java
 * cannot compile checks nothing (the apiserver is the judge of what it accepts).
 */
public final class TextBounds {
  private final String pattern;
  private final Long minLength;
  private final Long maxLength;
  private final Pattern compiled;

  public TextBounds(String pattern, Long minLength, Long maxLength) {
    this.pattern = pattern;
    this.minLength = minLength;
    this.maxLength = maxLength;
    this.compiled = compile(pattern);
  }

  /** The bounds a schema node declares, or null when it declares none (the usual case). */
  static TextBounds parse(JsonNode node) {
    var pattern = node.hasNonNull("pattern") ? node.get("pattern").asText() : null;
    var min = node.hasNonNull("minLength") ? node.get("minLength").asLong() : null;
    var max = node.hasNonNull("maxLength") ? node.get("maxLength").asLong() : null;
    return pattern == null && min == null && max == null ? null : new TextBounds(pattern, min, max);
  }

  public Optional<String> pattern() {
    return Optional.ofNullable(pattern);
  }

  public Optional<Long> minLength() {
    return Optional.ofNullable(minLength);
  }

  public Optional<Long> maxLength() {
    return Optional.ofNullable(maxLength);
  }

  /** Why {@code text} breaks these bounds, or empty when it keeps them. */
  public Optional<String> violation(String text) {
    long length = text.codePointCount(0, text.length());
    if (minLength != null && length < minLength) {
      return Optional.of("is shorter than minLength " + minLength);
    }
    if (maxLength != null && length > maxLength) {
      return Optional.of("is longer than maxLength " + maxLength);
    }
    if (compiled != null && !compiled.matcher(text).find()) {
      return Optional.of("does not match pattern " + pattern);
    }
    return Optional.empty();
  }

  private static Pattern compile(String pattern) {
    if (pattern == null) {
      return null;
    }
    try {
      return Pattern.compile(pattern);
    } catch (PatternSyntaxException e) {
      return null;
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof TextBounds t
        && Objects.equals(pattern, t.pattern)
        && Objects.equals(minLength, t.minLength)
        && Objects.equals(maxLength, t.maxLength);
  }

  @Override
  public int hashCode() {
    return Objects.hash(pattern, minLength, maxLength);
  }

  @Override
  public String toString() {
    return "TextBounds[pattern="
        + pattern
        + ", minLength="
        + minLength
        + ", maxLength="
        + maxLength
        + "]";
  }
}
