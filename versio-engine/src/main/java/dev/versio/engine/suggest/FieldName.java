package dev.versio.engine.suggest;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * A field name split into lower-case words ({@code maxSurgeMs} is {@code max surge} in {@code ms}):
 * camelCase, PascalCase, acronyms ({@code endpointURL}), {@code snake_case} and {@code kebab-case}
 * all split the same way, and a trailing unit ({@link Unit}) is kept apart from the words it
 * measures.
 *
 * @param name the name as declared
 * @param stem the words without the unit, never empty
 * @param unit the unit the name ends with, if any
 */
record FieldName(String name, List<String> stem, Optional<Unit> unit) {
  FieldName {
    Objects.requireNonNull(name, "name");
    stem = List.copyOf(stem);
    Objects.requireNonNull(unit, "unit");
    if (stem.isEmpty()) {
      throw new IllegalArgumentException("a field name has at least one word: " + name);
    }
  }

  static FieldName of(String name) {
    var words = words(name);
    if (words.isEmpty()) {
      return new FieldName(name, List.of(name.toLowerCase(Locale.ROOT)), Optional.empty());
    }
    int n = words.size();
    if (n >= 3) {
      var twoWordUnit = Unit.spelledAs(words.get(n - 2) + words.get(n - 1)); // Gi + B
      if (twoWordUnit.isPresent()) {
        return new FieldName(name, words.subList(0, n - 2), twoWordUnit);
      }
    }
    if (n >= 2) {
      var unit = Unit.spelledAs(words.get(n - 1));
      if (unit.isPresent()) {
        return new FieldName(name, words.subList(0, n - 1), unit);
      }
    }
    return new FieldName(name, words, Optional.empty());
  }

  /** The name with case and separators ignored: {@code max_surge}, {@code maxSurge} agree. */
  String key() {
    return String.join("", words(name));
  }

  /** The stem's words run together: {@code maxsurge}. */
  String joinedStem() {
    return String.join("", stem);
  }

  private static List<String> words(String name) {
    var out = new ArrayList<String>();
    var word = new StringBuilder();
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (!Character.isLetterOrDigit(c)) {
        flush(word, out);
        continue;
      }
      if (!word.isEmpty() && Character.isUpperCase(c)) {
        char prev = name.charAt(i - 1);
        boolean camelHump = Character.isLowerCase(prev) || Character.isDigit(prev);
        boolean acronymEnd =
            Character.isUpperCase(prev)
                && i + 1 < name.length()
                && Character.isLowerCase(name.charAt(i + 1));
        if (camelHump || acronymEnd) {
          flush(word, out);
        }
      }
      word.append(Character.toLowerCase(c));
    }
    flush(word, out);
    return out;
  }

  private static void flush(StringBuilder word, List<String> out) {
    if (!word.isEmpty()) {
      out.add(word.toString());
      word.setLength(0);
    }
  }
}
