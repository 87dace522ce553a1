package dev.versio.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A dotted field path such as {@code spec.pools}: the segments are object keys from the root of the
 * object (or of one array element inside {@code forEach}). There are no wildcards or indices.
 */
public record FieldPath(List<String> segments) {
  public FieldPath {
    segments = List.copyOf(segments);
    for (var s : segments) {
      if (s.isEmpty()) {
        throw new IllegalArgumentException(
            "a field path has an empty segment: " + String.join(".", segments));
      }
    }
  }

  /** Parses {@code a.b.c}; throws {@link IllegalArgumentException} on a blank or malformed path. */
  public static FieldPath parse(String dotted) {
    Objects.requireNonNull(dotted, "path");
    if (dotted.isBlank()) {
      throw new IllegalArgumentException("a field path must not be blank");
    }
    if (dotted.contains("[") || dotted.contains("]") || dotted.contains("*")) {
      throw new IllegalArgumentException(
          "field path '"
              + dotted
              + "' has an index or wildcard; paths name object keys only (use a ForEach rule for array elements)");
    }
    var segments = dotted.split("\\.", -1);
    for (int i = 0; i < segments.length; i++) {
      // field names repeat across rules, schemas and plans: keep one copy of each
      segments[i] = segments[i].intern();
    }
    return new FieldPath(List.of(segments));
  }

  public static FieldPath root() {
    return new FieldPath(List.of());
  }

  public boolean isRoot() {
    return segments.isEmpty();
  }

  public int size() {
    return segments.size();
  }

  public String last() {
    return segments.getLast();
  }

  public FieldPath child(String segment) {
    var array = segments.toArray(new String[segments.size() + 1]);
    array[segments.size()] = segment;
    return new FieldPath(List.of(array));
  }

  public FieldPath parent() {
    return new FieldPath(segments.subList(0, segments.size() - 1));
  }

  /** This path below {@code prefix}: {@code items.a} under {@code spec.list[]}. */
  public FieldPath under(FieldPath prefix) {
    var list = new ArrayList<>(prefix.segments);
    list.addAll(segments);
    return new FieldPath(list);
  }

  public boolean startsWith(FieldPath prefix) {
    return segments.size() >= prefix.segments.size()
        && segments.subList(0, prefix.segments.size()).equals(prefix.segments);
  }

  /** The segment that stands for "every element" of an array in flattened schema leaves. */
  public static final String ITEMS = "[]";

  /** Whether this path goes through array elements ({@code spec.pools[].name}). */
  public boolean throughItems() {
    return segments.contains(ITEMS);
  }

  @Override
  public String toString() {
    var sb = new StringBuilder();
    for (var s : segments) {
      if (!sb.isEmpty() && !s.equals(ITEMS)) {
        sb.append('.');
      }
      sb.append(s);
    }
    return sb.toString();
  }
}
