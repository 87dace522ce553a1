package dev.versio.engine.compile;

import com.fasterxml.jackson.databind.JsonNode;
import dev.versio.engine.FieldPath;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * A value the engine found, by running a rule, that does not survive the round trip through a lossy
 * direction: the fields the rule reads on the source side, what it wrote on the other side, and
 * what came back. It is what makes a lossy verdict checkable: e.g. {@code spec.ports = ["a,b"] ->
 * spec.ports = "a,b" -> spec.ports = ["a","b"]} for a {@code ListJoin} on {@code ","}.
 *
 * @param direction {@code hub->spoke} or {@code spoke->hub}: the direction that loses data
 * @param before the rule's source fields in the object converted
 * @param there the rule's fields on the other side after the conversion (empty when it writes none)
 * @param after the source fields after converting back (empty when that failed)
 * @param failure why converting back failed, or null when it did not: a value that converts one way
 *     and cannot be converted back is lost too (the object read there cannot be written back)
 */
public record Counterexample(
    String direction, List<Field> before, List<Field> there, List<Field> after, String failure) {
  private static final int SHOWN = 80;

  public Counterexample {
    Objects.requireNonNull(direction, "direction");
    before = List.copyOf(before);
    there = List.copyOf(there);
    after = List.copyOf(after);
  }

  /** A value that came back changed. */
  public Counterexample(
      String direction, List<Field> before, List<Field> there, List<Field> after) {
    this(direction, before, there, after, null);
  }

  /**
   * One field of a counterexample.
   *
   * @param name the field as the user names it, e.g. {@code spec.ports} or {@code
   *     metadata.annotations['example.com/a']}
   * @param path where it is in the object (in one array element for a rule inside {@code forEach})
   * @param value its value, or null when absent
   */
  public record Field(String name, FieldPath path, JsonNode value) {
    public Field {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(path, "path");
    }

    @Override
    public String toString() {
      if (value == null) {
        return name + " absent";
      }
      var text = value.toString();
      return name + " = " + (text.length() <= SHOWN ? text : text.substring(0, SHOWN - 3) + "...");
    }
  }

  /**
   * One line: {@code before -> there -> after}; when a value is too long to show whole, the paths
   * inside it that came back different follow ({@code (differs at spec.pools[1].zone)}).
   */
  public String describe() {
    var line =
        fields(before)
            + " -> "
            + (there.isEmpty() ? "(not kept)" : fields(there))
            + " -> "
            + (failure != null ? "converting back fails: " + failure : fields(after));
    var differing = differing();
    return differing.isEmpty() ? line : line + " (differs at " + String.join(", ", differing) + ")";
  }

  private static final int DIFFERING_SHOWN = 3;

  /** Where the values cut short in {@link #describe} came back different. */
  private List<String> differing() {
    var out = new java.util.ArrayList<String>();
    if (failure != null) {
      return out;
    }
    for (var b : before) {
      if (b.value() == null || b.value().toString().length() <= SHOWN) {
        continue;
      }
      var a =
          after.stream()
              .filter(f -> f.name().equals(b.name()))
              .map(Field::value)
              .findFirst()
              .orElse(null);
      diff(b.name(), b.value(), a, out);
    }
    if (out.size() > DIFFERING_SHOWN) {
      int more = out.size() - DIFFERING_SHOWN;
      out.subList(DIFFERING_SHOWN, out.size()).clear();
      out.add("and " + more + " more");
    }
    return out;
  }

  private static void diff(String path, JsonNode a, JsonNode b, List<String> out) {
    if (a != null && b != null && a.isObject() && b.isObject()) {
      var keys = new java.util.TreeSet<String>();
      a.fieldNames().forEachRemaining(keys::add);
      b.fieldNames().forEachRemaining(keys::add);
      for (var key : keys) {
        diff(path + "." + key, a.get(key), b.get(key), out);
      }
    } else if (a != null && b != null && a.isArray() && b.isArray() && a.size() == b.size()) {
      for (int i = 0; i < a.size(); i++) {
        diff(path + "[" + i + "]", a.get(i), b.get(i), out);
      }
    } else if (a == null || b == null || !dev.versio.engine.json.EngineJson.sameValue(a, b)) {
      out.add(path);
    }
  }

  private static String fields(List<Field> fields) {
    return fields.stream().map(Field::toString).collect(Collectors.joining(", "));
  }

  @Override
  public String toString() {
    return direction + ": " + describe();
  }
}
