package dev.versio.cli.offline;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.versio.engine.diagnostic.Diagnostic;
import dev.versio.engine.json.EngineJson;
import java.io.PrintWriter;
import java.util.List;

/** Output helpers: stable JSON, and diagnostics as text that fits 100 columns. */
public final class Output {
  private Output() {}

  public static void json(PrintWriter out, JsonNode node) {
    try {
      out.println(
          EngineJson.newMapper()
              .enable(SerializationFeature.INDENT_OUTPUT)
              .writeValueAsString(node));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  /** A report as indented JSON, or as YAML (the same fields). */
  public static void structured(PrintWriter out, JsonNode node, boolean yaml) {
    if (!yaml) {
      json(out, node);
      return;
    }
    try {
      out.print(
          YAMLMapper.builder(
                  com.fasterxml.jackson.dataformat.yaml.YAMLFactory.builder()
                      .stringQuotingChecker(new YamlOneOneQuoting())
                      .build())
              .build()
              .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
              .enable(YAMLGenerator.Feature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS)
              .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
              .writeValueAsString(node));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  static JsonNode diagnostics(List<Diagnostic> diagnostics) {
    var array = EngineJson.nodes().arrayNode();
    for (var d : diagnostics) {
      var o = array.addObject();
      o.put("code", d.code().name());
      o.put("severity", d.severity().name());
      o.put("spoke", d.spoke());
      o.put("rule", d.ruleLocation().isEmpty() ? null : d.ruleLocation());
      o.put("path", d.path());
      o.put("message", d.message());
      o.put("hint", d.hint());
    }
    return array;
  }

  /**
   * One diagnostic as wrapped lines: {@code ERROR [v1] rules[2]: message} then an indented hint.
   */
  static void text(PrintWriter out, Diagnostic d) {
    var head =
        d.severity().name()
            + (d.spoke() == null ? "" : " [" + d.spoke() + "]")
            + (d.ruleLocation().isEmpty() ? "" : " " + d.ruleLocation())
            + (d.path() == null || d.path().isEmpty() ? "" : " " + d.path())
            + ": ";
    wrap(out, head + d.message(), "  ");
    if (d.hint() != null) {
      wrap(out, "  fix: " + d.hint(), "       ");
    }
  }

  public static void wrap(PrintWriter out, String text, String indent) {
    int width = 100;
    var lead = text.substring(0, text.length() - text.stripLeading().length());
    var line = new StringBuilder(lead);
    for (var word : text.stripLeading().split(" ")) {
      if (line.length() + word.length() + 1 > width
          && line.length() > indent.length()
          && !line.toString().isBlank()) {
        out.println(line);
        line = new StringBuilder(indent);
      }
      if (!line.toString().isBlank()) {
        line.append(' ');
      }
      line.append(word);
    }
    if (!line.toString().isBlank()) {
      out.println(line);
    }
  }
}
