package dev.versio.engine.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.re2j.Pattern;
import dev.versio.engine.FieldPath;
import dev.versio.engine.json.EngineJson;
import dev.versio.engine.rule.Rule.FractionalPolicy;
import dev.versio.engine.schema.LeafKind;
import java.util.List;
import java.util.Map;

/**
 * Ops that split one string into fields with a pattern, or join fields into one with a template.
 */
public sealed interface TextOp extends Op {

  /** Where one named group of a pattern goes, and as which kind. */
  record Field(String group, FieldPath path, LeafKind kind) {}

  /**
   * Matches the string at {@code from} against {@code pattern} (RE2: linear time, first match,
   * unanchored unless the pattern anchors itself) and writes each named group to its field.
   */
  record SplitScalar(FieldPath from, Pattern pattern, List<Field> fields) implements TextOp {
    public SplitScalar {
      fields = List.copyOf(fields);
    }

    @Override
    public void apply(JsonNode input, ObjectNode output) {
      var value = Tree.get(input, from);
      if (value == null) {
        return;
      }
      if (!value.isTextual()) {
        throw new OpFailure("expected a string at " + from + ", found " + Coercion.kind(value));
      }
      var m = pattern.matcher(value.asText());
      if (!m.find()) {
        throw new OpFailure(
            "'"
                + value.asText()
                + "' at "
                + from
                + " does not match the pattern "
                + pattern.pattern());
      }
      for (var field : fields) {
        var group = m.group(field.group());
        if (group == null) {
          continue; // an optional group that did not take part
        }
        try {
          Tree.set(
              output,
              field.path(),
              Coercion.to(
                  field.kind(), EngineJson.nodes().textNode(group), FractionalPolicy.ERROR));
        } catch (OpFailure e) {
          throw new OpFailure(
              "group '"
                  + field.group()
                  + "' of "
                  + from
                  + " = '"
                  + group
                  + "' cannot go to "
                  + field.path()
                  + ": "
                  + e.getMessage());
        }
      }
    }
  }

  /**
   * Renders {@code template} from the present fields; writes nothing when none is present and fails
   * when only some are (the result would be incomplete).
   */
  record JoinFields(JoinTemplate template, Map<String, FieldPath> sources, FieldPath to)
      implements TextOp {
    public JoinFields {
      sources = Map.copyOf(sources);
    }

    @Override
    public void apply(JsonNode input, ObjectNode output) {
      boolean any = false;
      for (var path : sources.values()) {
        any |= Tree.get(input, path) != null;
      }
      if (!any) {
        return;
      }
      var sb = new StringBuilder();
      for (int i = 0; i < template.parts().size(); i++) {
        var part = template.parts().get(i);
        if (!template.placeholders().get(i)) {
          sb.append(part);
          continue;
        }
        var path = sources.get(part);
        var value = Tree.get(input, path);
        if (value == null) {
          throw new OpFailure("joinTemplate needs ." + part + " but " + path + " is absent", true);
        }
        sb.append(Coercion.text(value));
      }
      Tree.set(output, to, EngineJson.nodes().textNode(sb.toString()));
    }
  }

  /**
   * Writes the value at {@code from} as JSON text at {@code to}: keys sorted, numbers as they are
   * held, so one value always gives one text. A JSON null writes nothing.
   */
  record ToJsonText(FieldPath from, FieldPath to, CanonicalJson json) implements TextOp {
    @Override
    public void apply(JsonNode input, ObjectNode output) {
      var value = Tree.get(input, from);
      if (value != null && !value.isNull()) {
        Tree.set(output, to, EngineJson.nodes().textNode(json.write(value)));
      }
    }
  }

  /**
   * Reads the JSON text at {@code from} and writes the value it holds at {@code to}; text that is
   * not JSON, or JSON of another kind than {@code expected} ({@code UNKNOWN}: any), fails the
   * conversion. The text {@code null} writes nothing.
   */
  record FromJsonText(FieldPath from, FieldPath to, LeafKind expected, CanonicalJson json)
      implements TextOp {
    @Override
    public void apply(JsonNode input, ObjectNode output) {
      var value = Tree.get(input, from);
      if (value == null) {
        return;
      }
      if (!value.isTextual()) {
        throw new OpFailure("expected JSON text at " + from + ", found " + Coercion.kind(value));
      }
      var parsed = json.parseOrNull(value.asText());
      if (parsed == null) {
        throw new OpFailure(
            "the text at "
                + from
                + " ('"
                + CanonicalJson.abbreviate(value.asText())
                + "') is not valid JSON; write the value as JSON, e.g. {\"key\": \"value\"}");
      }
      if (parsed.isNull()) {
        return;
      }
      if (!holds(parsed)) {
        throw new OpFailure(
            "the JSON text at "
                + from
                + " holds "
                + Coercion.kind(parsed)
                + ", but "
                + to
                + " is "
                + expected.wireName());
      }
      Tree.set(output, to, parsed);
    }

    private boolean holds(JsonNode parsed) {
      return switch (expected) {
        case OBJECT -> parsed.isObject();
        case ARRAY -> parsed.isArray();
        case INTEGER -> parsed.isIntegralNumber();
        case NUMBER -> parsed.isNumber();
        case BOOLEAN -> parsed.isBoolean();
        case STRING -> parsed.isTextual();
        case UNKNOWN -> true;
      };
    }
  }
}
