package dev.versio.engine.runtime;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A {@code joinTemplate}: literal text and {@code {{.name}}} placeholders, nothing else (no
 * pipelines, functions or conditionals — those cannot be inverted by a pattern, so they are
 * rejected when the config is compiled rather than surprising at run time).
 *
 * @param parts literal texts and placeholder names, in order
 * @param placeholders whether each part is a placeholder
 */
public record JoinTemplate(List<String> parts, List<Boolean> placeholders) {
  private static final Pattern PLACEHOLDER =
      Pattern.compile("\\{\\{-?\\s*\\.([A-Za-z_][A-Za-z0-9_]*)\\s*-?\\}\\}");

  public JoinTemplate {
    parts = List.copyOf(parts);
    placeholders = List.copyOf(placeholders);
  }

  /** Parses a template; throws {@link IllegalArgumentException} naming what is not allowed. */
  public static JoinTemplate parse(String template) {
    var parts = new ArrayList<String>();
    var kinds = new ArrayList<Boolean>();
    var m = PLACEHOLDER.matcher(template);
    int at = 0;
    while (m.find()) {
      addLiteral(template.substring(at, m.start()), parts, kinds);
      parts.add(m.group(1));
      kinds.add(true);
      at = m.end();
    }
    addLiteral(template.substring(at), parts, kinds);
    return new JoinTemplate(parts, kinds);
  }

  private static void addLiteral(String text, List<String> parts, List<Boolean> kinds) {
    if (text.contains("{{") || text.contains("}}")) {
      throw new IllegalArgumentException(
          "joinTemplate may hold only literal text and {{.name}} placeholders; found '"
              + text.substring(Math.max(0, text.indexOf("{{")))
              + "'");
    }
    if (!text.isEmpty()) {
      parts.add(text);
      kinds.add(false);
    }
  }

  /** The placeholder names, in first-use order. */
  public Set<String> names() {
    var names = new LinkedHashSet<String>();
    for (int i = 0; i < parts.size(); i++) {
      if (placeholders.get(i)) {
        names.add(parts.get(i));
      }
    }
    return names;
  }
}
