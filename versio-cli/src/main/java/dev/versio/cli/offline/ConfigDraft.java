package dev.versio.cli.offline;

import com.fasterxml.jackson.databind.JsonNode;
import dev.versio.engine.json.EngineJson;
import dev.versio.engine.suggest.ProposedRule;
import dev.versio.engine.suggest.Suggestion;

/**
 * Renders a starting config as commented YAML: {@code versio generate} writes the skeleton, {@code
 * versio suggest} adds candidate rules and a {@code # review:} comment for every difference.
 */
final class ConfigDraft {
  private ConfigDraft() {}

  /** The fields both versions leave opaque (preserve-unknown-fields), in hub order. */
  private static java.util.List<String> opaque(Inputs.Target target, String hub, String spoke) {
    java.util.Map<String, dev.versio.engine.schema.SchemaNode> schemas = new java.util.HashMap<>();
    target.source().versions().forEach(v -> schemas.put(v.name(), v.schema()));
    if (!schemas.containsKey(hub) || !schemas.containsKey(spoke)) {
      return java.util.List.of();
    }
    var spokeFlat = dev.versio.engine.schema.FlatSchema.of(schemas.get(spoke));
    return dev.versio.engine.schema.FlatSchema.of(schemas.get(hub)).leaves().values().stream()
        .filter(l -> l.node().preserveUnknownFields())
        .filter(
            l -> spokeFlat.leaf(l.path()).map(t -> t.node().preserveUnknownFields()).orElse(false))
        .map(l -> l.path().toString())
        .toList();
  }

  static String render(Inputs.Target target, boolean xrd, Suggestion suggestion, boolean rules) {
    var file = target.file() == null ? "the target" : target.file().getFileName().toString();
    var flag = xrd ? "--xrd " : "--crd ";
    var y = new StringBuilder();
    y.append("# Drafted by `versio ")
        .append(rules ? "suggest" : "generate")
        .append("` from ")
        .append(file)
        .append(rules ? ": review every rule and comment marked review, then run" : "; then run")
        .append("\n#   versio analyze -c config.yaml ")
        .append(flag)
        .append(file)
        .append('\n');
    y.append("apiVersion: versio.dev/v1alpha1\n");
    y.append("kind: ").append(xrd ? "XRDConversionConfig" : "CRDConversionConfig").append('\n');
    y.append("metadata:\n  name: ").append(quote(target.name())).append('\n');
    y.append("spec:\n");
    y.append("  ")
        .append(xrd ? "targetXRD" : "targetCRD")
        .append(": {name: ")
        .append(quote(target.name()))
        .append("}\n");
    y.append("  # the hub is the storage version: every other version converts through it\n");
    y.append("  hubVersion: ").append(quote(suggestion.hubVersion())).append('\n');
    if (suggestion.spokes().isEmpty()) {
      y.append("  spokes: []\n");
      return y.toString();
    }
    y.append("  spokes:\n");
    for (var spoke : suggestion.spokes()) {
      y.append("  - version: ").append(quote(spoke.version())).append('\n');
      if (!rules) {
        y.append("    # add the rules that turn the hub into ")
            .append(spoke.version())
            .append(" (versio suggest proposes some)\n");
        y.append("    rules: []\n");
        continue;
      }
      var opaque = opaque(target, suggestion.hubVersion(), spoke.version());
      for (var path : opaque) {
        y.append("    # review: ")
            .append(path)
            .append(" keeps unknown fields (x-kubernetes-preserve-unknown-fields) in both")
            .append(" versions, so the schemas cannot show what changed inside it: add the rules")
            .append(" the project's release notes call for, and samples that exercise them\n");
      }
      if (spoke.identical() && opaque.isEmpty()) {
        y.append("    # identical to the hub: nothing to convert but the apiVersion\n");
      } else if (spoke.identical()) {
        y.append("    # the declared fields are identical to the hub's\n");
      }
      boolean none = spoke.rules().isEmpty() && spoke.possibleRenames().isEmpty();
      y.append(none ? "    rules: []\n" : "    rules:\n");
      DraftNesting.yaml(y, spoke.rules(), "    ");
      for (var r : spoke.possibleRenames()) {
        if (DraftNesting.insideLists(r)) {
          // a commented-out ForEach nest would be hard to read: name the fields instead
          y.append("    # review: maybe renamed: ")
              .append(r.hubPath())
              .append(" <- ")
              .append(r.spokePath())
              .append(": ")
              .append(r.reason())
              .append(". To rename, add a FieldRename inside a ForEach per list level\n");
          continue;
        }
        y.append("    # review: maybe renamed: ")
            .append(r.reason())
            .append(". To rename, uncomment:\n");
        DraftRules.yaml(y, r, "    # ");
      }
      for (var t : spoke.retyped()) {
        y.append("    # review: ")
            .append(t.path())
            .append(" is ")
            .append(t.hubShape())
            .append(" in ")
            .append(suggestion.hubVersion())
            .append(" but ")
            .append(t.spokeShape())
            .append(" in ")
            .append(spoke.version())
            .append(": add an EnumRemap, a ForEach for array items, or a similar rule\n");
      }
      for (var p : spoke.hubOnly()) {
        y.append("    # review: ")
            .append(p)
            .append(" has no counterpart in ")
            .append(spoke.version())
            .append(": rename it, keep it (ToAnnotation), or delete it with acknowledgeLossy\n");
      }
      for (var p : spoke.spokeOnly()) {
        y.append("    # review: ")
            .append(p)
            .append(" exists only in ")
            .append(spoke.version())
            .append(
                ": map it to a hub field, give it a default, or delete it with acknowledgeLossy\n");
      }
    }
    return wrapComments(y.toString());
  }

  /** Comment lines wrapped at 100 columns, continued as {@code # ...}; YAML lines as they are. */
  static String wrapComments(String yaml) {
    var out = new StringBuilder();
    for (var line : yaml.split("\n", -1)) {
      var trimmed = line.stripLeading();
      if (line.length() <= 100 || !trimmed.startsWith("# ")) {
        out.append(line).append('\n');
        continue;
      }
      var indent = line.substring(0, line.length() - trimmed.length());
      var current = new StringBuilder(indent).append('#');
      for (var word : trimmed.substring(2).split(" ")) {
        if (current.length() + 1 + word.length() > 100 && current.length() > indent.length() + 4) {
          out.append(current).append('\n');
          current = new StringBuilder(indent).append("#  ");
        }
        current.append(' ').append(word);
      }
      out.append(current).append('\n');
    }
    out.setLength(out.length() - 1); // the split kept the text's own last line end
    return out.toString();
  }

  /**
   * The draft as data: {@code {resource, resourceKind, hubVersion, spokes[{version, identical,
   * renames[{strategy, hubPath, spokePath, reason}], conversions[{strategy, hubPath, spokePath |
   * path, factor?, reason}], possibleRenames[{strategy, hubPath, spokePath, reason}],
   * retyped[{path, hubShape, spokeShape}], hubOnly[], spokeOnly[]}]}}; {@code generate} lists the
   * spokes only.
   */
  static JsonNode json(Inputs.Target target, boolean xrd, Suggestion suggestion, boolean rules) {
    var o = EngineJson.nodes().objectNode();
    o.put("resource", target.name());
    o.put("resourceKind", xrd ? "XRD" : "CRD");
    o.put("hubVersion", suggestion.hubVersion());
    var spokes = o.putArray("spokes");
    for (var spoke : suggestion.spokes()) {
      var j = spokes.addObject().put("version", spoke.version());
      if (!rules) {
        continue;
      }
      j.put("identical", spoke.identical());
      var renames = j.putArray("renames");
      var conversions = j.putArray("conversions");
      for (var r : spoke.rules()) {
        DraftRules.json(
            r instanceof ProposedRule.Rename ? renames.addObject() : conversions.addObject(), r);
      }
      var possible = j.putArray("possibleRenames");
      spoke.possibleRenames().forEach(r -> DraftRules.json(possible.addObject(), r));
      var retyped = j.putArray("retyped");
      spoke
          .retyped()
          .forEach(
              t ->
                  retyped
                      .addObject()
                      .put("path", t.path())
                      .put("hubShape", t.hubShape())
                      .put("spokeShape", t.spokeShape()));
      spoke.hubOnly().forEach(j.putArray("hubOnly")::add);
      spoke.spokeOnly().forEach(j.putArray("spokeOnly")::add);
    }
    return o;
  }

  private static String quote(String s) {
    return DraftRules.quote(s);
  }
}
