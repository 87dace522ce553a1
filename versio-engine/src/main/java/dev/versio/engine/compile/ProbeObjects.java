package dev.versio.engine.compile;

import com.fasterxml.jackson.databind.JsonNode;
import dev.versio.engine.FieldPath;
import dev.versio.engine.schema.FlatSchema;
import dev.versio.engine.schema.SchemaNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The fields of one version with the values the loss search probes them with (spellings a parser
 * normalises, several list elements, enum values, edges of ranges), in schema order. Deterministic:
 * two plans run over objects built from them can be compared by what they do, not by what their
 * rules are called.
 */
public final class ProbeObjects {
  private static final Set<String> SERVER_OWNED = Set.of("apiVersion", "kind", "metadata");

  private ProbeObjects() {}

  /**
   * One field and its probe values.
   *
   * @param path where it is (not through a list: a list's probe values hold whole elements)
   */
  public record Field(FieldPath path, List<JsonNode> values) {
    public Field {
      values = List.copyOf(values);
    }
  }

  /** Every field of the version whose root is {@code root} that has probe values. */
  public static List<Field> fields(SchemaNode root) {
    var probes = new Probes(List.of());
    var out = new ArrayList<Field>();
    for (var leaf : FlatSchema.of(root).leaves().values()) {
      if (leaf.path().throughItems() || SERVER_OWNED.contains(leaf.path().segments().getFirst())) {
        continue;
      }
      var values = probes.values(leaf.node());
      if (!values.isEmpty()) {
        out.add(new Field(leaf.path(), values));
      }
    }
    return out;
  }
}
