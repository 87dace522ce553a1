package dev.versio.cli.offline;

import java.io.StringReader;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.events.AliasEvent;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

/**
 * YAML anchors and aliases ({@code &base} ... {@code *base}) and merge keys ({@code <<: *base}),
 * resolved the way kubectl reads them: every alias becomes a copy of what it names. The YAML reader
 * behind the other inputs does not resolve them (an alias would read as its name), so text that
 * uses them is expanded into plain YAML first. An expansion is capped, since a few aliases of
 * aliases can name an exponential amount of data.
 */
final class YamlAliases {
  /** The most nodes an expansion may produce. */
  static final int MAX_NODES = 1_000_000;

  private final LoaderOptions options;
  private int nodes;

  YamlAliases(LoaderOptions options) {
    this.options = options;
  }

  /** Whether {@code text} uses an alias (a cheap scan of its events). */
  static boolean used(String text, LoaderOptions options) {
    if (text.indexOf('*') < 0) {
      return false;
    }
    for (var event : new Yaml(options).parse(new StringReader(text))) {
      if (event instanceof AliasEvent) {
        return true;
      }
    }
    return false;
  }

  /** {@code text} with every alias replaced by a copy of its anchor's node, and merges applied. */
  String expand(String text) {
    var yaml = new Yaml(options);
    var dump = new DumperOptions();
    dump.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
    dump.setWidth(Integer.MAX_VALUE);
    dump.setSplitLines(false);
    dump.setExplicitStart(true);
    var writer = new Yaml(dump);
    var out = new StringWriter();
    for (var document : yaml.composeAll(new StringReader(text))) {
      writer.serialize(copy(document), out);
    }
    return out.toString();
  }

  private Node copy(Node node) {
    if (++nodes > MAX_NODES) {
      throw new LoadError(
          "its YAML aliases expand to more than "
              + MAX_NODES
              + " nodes; write the data out instead of repeating anchors");
    }
    return switch (node) {
      case ScalarNode s -> new ScalarNode(s.getTag(), s.getValue(), null, null, s.getScalarStyle());
      case SequenceNode s -> {
        var items = new ArrayList<Node>();
        s.getValue().forEach(n -> items.add(copy(n)));
        yield new SequenceNode(s.getTag(), items, s.getFlowStyle());
      }
      case MappingNode m -> new MappingNode(m.getTag(), tuples(m), m.getFlowStyle());
      default -> node;
    };
  }

  /** The mapping's own entries, then what {@code <<} merges in that it does not set itself. */
  private List<NodeTuple> tuples(MappingNode mapping) {
    var own = new ArrayList<NodeTuple>();
    var merged = new ArrayList<MappingNode>();
    for (var tuple : mapping.getValue()) {
      if (Tag.MERGE.equals(tuple.getKeyNode().getTag())) {
        switch (tuple.getValueNode()) {
          case MappingNode m -> merged.add(m);
          case SequenceNode s ->
              s.getValue().stream()
                  .filter(MappingNode.class::isInstance)
                  .map(MappingNode.class::cast)
                  .forEach(merged::add);
          default -> {}
        }
      } else {
        own.add(new NodeTuple(copy(tuple.getKeyNode()), copy(tuple.getValueNode())));
      }
    }
    Set<String> keys = new LinkedHashSet<>();
    own.forEach(t -> keys.add(key(t)));
    for (var source : merged) {
      for (var tuple : tuples(source)) {
        if (keys.add(key(tuple))) {
          own.add(tuple);
        }
      }
    }
    return own;
  }

  private static String key(NodeTuple tuple) {
    return tuple.getKeyNode() instanceof ScalarNode s
        ? s.getValue()
        : tuple.getKeyNode().toString();
  }
}
