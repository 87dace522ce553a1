package dev.versio.cli.offline;

import dev.versio.engine.suggest.ProposedRule;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes proposed rules whose fields sit inside lists ({@code spec.rules[].timeouts.request}) the
 * only way a config can hold them: inside one {@code ForEach} per list level, rules of the same
 * lists sharing one (two {@code ForEach} rules over one list would claim it twice).
 */
final class DraftNesting {
  private DraftNesting() {}

  /**
   * A list level both paths go through: its hub and spoke array paths, relative to the level above.
   */
  private record Level(String hub, String spoke) {}

  private static final class Node {
    final List<ProposedRule> rules = new ArrayList<>();
    final Map<Level, Node> children = new LinkedHashMap<>();
  }

  /** Writes {@code rules} as list items at {@code indent}, each after its review comment. */
  static void yaml(StringBuilder y, List<ProposedRule> rules, String indent) {
    var root = new Node();
    for (var rule : rules) {
      var hub = paths(rule)[0].split("\\[\\]\\.", -1);
      var spoke = paths(rule)[1].split("\\[\\]\\.", -1);
      var node = root;
      for (int i = 0; i < hub.length - 1; i++) {
        node = node.children.computeIfAbsent(new Level(hub[i], spoke[i]), l -> new Node());
      }
      node.rules.add(relative(rule, hub[hub.length - 1], spoke[spoke.length - 1]));
    }
    write(y, root, indent);
  }

  private static void write(StringBuilder y, Node node, String indent) {
    for (var r : node.rules) {
      y.append(indent)
          .append("# review: ")
          .append(DraftRules.headline(r))
          .append(": ")
          .append(r.reason())
          .append('\n');
      DraftRules.yaml(y, r, indent);
    }
    node.children.forEach(
        (level, child) -> {
          y.append(indent).append("- strategy: ForEach\n");
          y.append(indent).append("  forEach:\n");
          y.append(indent)
              .append("    hubItemsPath: ")
              .append(DraftRules.quote(level.hub()))
              .append('\n');
          y.append(indent)
              .append("    spokeItemsPath: ")
              .append(DraftRules.quote(level.spoke()))
              .append('\n');
          y.append(indent).append("    rules:\n");
          write(y, child, indent + "    ");
        });
  }

  /** The rule's hub and spoke paths. */
  static String[] paths(ProposedRule rule) {
    return switch (rule) {
      case ProposedRule.Rename r -> new String[] {r.hubPath(), r.spokePath()};
      case ProposedRule.Scale s -> new String[] {s.hubPath(), s.spokePath()};
      case ProposedRule.Coerce c -> new String[] {c.path(), c.path()};
      case ProposedRule.Duration d -> new String[] {d.hubPath(), d.spokePath()};
      case ProposedRule.Quantity q -> new String[] {q.hubPath(), q.spokePath()};
      case ProposedRule.Singleton s -> new String[] {s.hubPath(), s.spokePath()};
      case ProposedRule.EnumChange e -> new String[] {e.hubPath(), e.spokePath()};
    };
  }

  /** Whether the rule's fields sit inside a list. */
  static boolean insideLists(ProposedRule rule) {
    return paths(rule)[0].contains("[]");
  }

  private static ProposedRule relative(ProposedRule rule, String hub, String spoke) {
    return switch (rule) {
      case ProposedRule.Rename r -> new ProposedRule.Rename(hub, spoke, r.reason());
      case ProposedRule.Scale s -> new ProposedRule.Scale(hub, spoke, s.factor(), s.reason());
      case ProposedRule.Coerce c -> new ProposedRule.Coerce(hub, c.reason());
      case ProposedRule.Duration d -> new ProposedRule.Duration(hub, spoke, d.reason());
      case ProposedRule.Quantity q -> new ProposedRule.Quantity(hub, spoke, q.reason());
      case ProposedRule.Singleton s ->
          new ProposedRule.Singleton(hub, spoke, s.arrayOnHub(), s.nested(), s.reason());
      case ProposedRule.EnumChange e ->
          new ProposedRule.EnumChange(
              hub, spoke, e.mapping(), e.dropHub(), e.dropSpoke(), e.reason());
    };
  }
}
