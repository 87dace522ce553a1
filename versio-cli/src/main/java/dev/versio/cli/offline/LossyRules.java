package dev.versio.cli.offline;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.versio.engine.compile.AnalyzeReport;
import dev.versio.engine.compile.Counterexample;
import dev.versio.engine.compile.RuleResult;
import dev.versio.engine.compile.SpokeReport;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * The rules of an analysis that lose data, each with the counterexample the engine found for every
 * lossy direction: the same facts for {@code analyze} and {@code validate}, as text and as JSON.
 */
final class LossyRules {
  private LossyRules() {}

  /** One lossy rule of one spoke. */
  record Entry(String spoke, RuleResult rule) {}

  static List<Entry> of(AnalyzeReport report) {
    var out = new ArrayList<Entry>();
    if (report != null) {
      for (SpokeReport s : report.spokes()) {
        for (var r : s.ruleResults()) {
          if (!r.lossless().lossless()) {
            out.add(new Entry(s.version(), r));
          }
        }
      }
    }
    return out;
  }

  /** {@code hub->spoke} and/or {@code spoke->hub}: the directions the rule loses data in. */
  static List<String> directions(RuleResult r) {
    var out = new ArrayList<String>();
    if (!r.lossless().hubToSpoke()) {
      out.add("hub->spoke");
    }
    if (!r.lossless().spokeToHub()) {
      out.add("spoke->hub");
    }
    return out;
  }

  /** Prints one line per lossy rule and one per counterexample under it. */
  static void text(PrintWriter out, List<Entry> entries) {
    for (var e : entries) {
      var r = e.rule();
      var paths = new LinkedHashSet<String>(r.hubPaths());
      paths.addAll(r.spokePaths());
      Output.wrap(
          out,
          "LOSSY ["
              + e.spoke()
              + "] rules["
              + r.index()
              + "] "
              + r.strategy().wireName()
              + " "
              + String.join(", ", paths)
              + ": loses data "
              + String.join(" and ", directions(r))
              + (r.acknowledged() ? " (acknowledged)" : " (NOT acknowledged)"),
          "  ");
      for (var direction : directions(r)) {
        var example =
            r.counterexamples().stream().filter(c -> c.direction().equals(direction)).findFirst();
        Output.wrap(
            out,
            "  "
                + direction
                + ": "
                + example
                    .map(Counterexample::describe)
                    .orElse("no counterexample found among the values tried (not proven lossless)"),
            "      ");
      }
    }
  }

  /**
   * The entries as JSON: rule, strategy, paths, lossy directions, acknowledgement, counterexamples.
   */
  static void json(ArrayNode into, List<Entry> entries, boolean withSpoke) {
    for (var e : entries) {
      var r = e.rule();
      var l = into.addObject();
      if (withSpoke) {
        l.put("spoke", e.spoke());
      }
      l.put("rule", "rules[" + r.index() + "]");
      l.put("strategy", r.strategy().wireName());
      r.hubPaths().forEach(l.withArray("hubPaths")::add);
      r.spokePaths().forEach(l.withArray("spokePaths")::add);
      directions(r).forEach(l.withArray("lossyDirections")::add);
      l.put("acknowledged", r.acknowledged());
      var examples = l.putArray("counterexamples");
      for (var c : r.counterexamples()) {
        var j = examples.addObject();
        j.put("direction", c.direction());
        j.set("before", fields(c.before()));
        j.set("converted", fields(c.there()));
        j.set("after", fields(c.after()));
        j.put("text", c.describe());
      }
    }
  }

  /** {@code {name: value}}; an absent field is null. */
  private static ObjectNode fields(List<Counterexample.Field> fields) {
    var o = dev.versio.engine.json.EngineJson.nodes().objectNode();
    fields.forEach(f -> o.set(f.name(), f.value() == null ? o.nullNode() : f.value()));
    return o;
  }
}
