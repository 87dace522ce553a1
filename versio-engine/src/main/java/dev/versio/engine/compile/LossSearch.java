package dev.versio.engine.compile;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.versio.engine.FieldPath;
import dev.versio.engine.json.EngineJson;
import dev.versio.engine.rule.Rule;
import dev.versio.engine.runtime.Op;
import dev.versio.engine.runtime.Tree;
import dev.versio.engine.schema.SchemaNode;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Random;

/**
 * Checks a rule's lossy verdicts by running the rule: for each direction its strategy calls lossy,
 * converts probe values of the fields the rule reads ({@link Probes}) there and back with the
 * rule's own ops, and keeps the smallest value that does not come back as it was — the
 * counterexample a user sees. When every field the rule reads has a finite domain (an {@code enum},
 * a boolean) and every combination comes back unchanged, the schema rules the loss out and the
 * direction is lossless: the check was exhaustive.
 */
final class LossSearch {
  private static final int EXHAUSTIVE_LIMIT = 4096;
  private static final int RANDOM_COMBINATIONS = 256;
  private static final SchemaNode TEXT =
      SchemaNode.parse(EngineJson.nodes().objectNode().put("type", "string"));

  private LossSearch() {}

  /**
   * What running a rule showed.
   *
   * @param verdict the rule's verdict, lossless where the check was exhaustive and found no loss
   * @param hubToSpoke a counterexample for a lossy hub→spoke direction
   * @param spokeToHub a counterexample for a lossy spoke→hub direction
   */
  record Outcome(
      Verdict verdict, Optional<Counterexample> hubToSpoke, Optional<Counterexample> spokeToHub) {

    /** This outcome and {@code other} together: lossless where both are, their witnesses. */
    Outcome with(Outcome other) {
      return new Outcome(
          verdict.and(other.verdict),
          hubToSpoke.or(other::hubToSpoke),
          spokeToHub.or(other::spokeToHub));
    }

    /** The witnesses found, hub->spoke first; empty (and nothing allocated) for most rules. */
    List<Counterexample> counterexamples() {
      if (hubToSpoke.isEmpty()) {
        return spokeToHub.map(List::of).orElse(List.of());
      }
      return spokeToHub.map(b -> List.of(hubToSpoke.get(), b)).orElse(List.of(hubToSpoke.get()));
    }
  }

  /** One field a rule reads or writes, with its name as the user sees it and its schema. */
  private record Field(FieldPath path, String name, SchemaNode node) {}

  static Outcome of(Scope s, Rule rule, Resolved resolved) {
    var verdict = resolved.verdict();
    if (verdict.lossless()) {
      // nothing to search (most rules): no fields or probes built, a large config compiles cheaply
      return new Outcome(verdict, Optional.empty(), Optional.empty());
    }
    // a CEL expression is the user's own code: it is always run, so that one that fails on every
    // value is an error wherever the config is compiled (admission too), not a surprise at runtime
    boolean script = rule instanceof Rule.CEL;
    boolean wanted =
        script || !rule.options().acknowledgeLossy() || s.tools().acknowledgedCounterexamples();
    var probes = new Probes(literals(rule), s.probes());
    var hubFields = fields(s, rule, true);
    var spokeFields = fields(s, rule, false);
    boolean hubToSpoke = verdict.hubToSpoke();
    boolean spokeToHub = verdict.spokeToHub();
    Optional<Counterexample> h = Optional.empty();
    Optional<Counterexample> b = Optional.empty();
    if (!hubToSpoke) {
      var found =
          search(
              "hub->spoke",
              hubFields,
              spokeFields,
              resolved.hubToSpoke(),
              resolved.spokeToHub(),
              probes,
              wanted,
              null);
      h = found.witness();
      hubToSpoke = found.provenLossless();
      if (script && found.refusesAll()) {
        failsOnEveryValue(s, rule, "hubToSpoke", found.refusal());
      }
    }
    if (!spokeToHub) {
      var found =
          search(
              "spoke->hub",
              spokeFields,
              hubFields,
              resolved.spokeToHub(),
              resolved.hubToSpoke(),
              probes,
              wanted,
              null);
      b = found.witness();
      spokeToHub = found.provenLossless();
      if (script && found.refusesAll()) {
        failsOnEveryValue(s, rule, "spokeToHub", found.refusal());
      }
    }
    return new Outcome(new Verdict(hubToSpoke, spokeToHub), h, b);
  }

  /** A CEL expression that failed on every value the schema admits that it was tried on. */
  private static void failsOnEveryValue(Scope s, Rule rule, String expression, Refusal refusal) {
    s.diagnostics()
        .error(
            dev.versio.engine.diagnostic.DiagnosticCode.RULE_ALWAYS_FAILS,
            refusal.input().getFirst().name(),
            Scope.label(rule)
                + ": cel."
                + expression
                + " fails on every value tried, so every object that holds its fields would be"
                + " refused; e.g. "
                + refusal.describe(),
            "fix the expression (read optional fields behind has(), convert types explicitly)");
  }

  /**
   * What a rule gated by {@code when} loses on objects where its condition is false: its ops do
   * nothing there, so every field it reads on the source side is dropped unless something else
   * writes it. Probes the rule's fields on objects whose condition field holds another value (or is
   * absent when its schema admits no other), through {@code forth} and {@code back}, the gated ops.
   * A direction that reads no field loses nothing.
   */
  static Outcome whenFalse(
      Scope s, Rule rule, dev.versio.engine.rule.RuleOptions.When when, Op forth, Op back) {
    var probes = new Probes(literals(rule), s.probes());
    var hubFields = fields(s, rule, true);
    var spokeFields = fields(s, rule, false);
    var onHub = otherThan(s.hub().lookup(when.path()).node(), when, s.hubName(when.path()), probes);
    var onSpoke =
        otherThan(
            s.spokeSchema().lookup(when.path()).node(), when, s.spokeName(when.path()), probes);
    var h = search("hub->spoke", hubFields, spokeFields, forth, back, probes, true, onHub);
    var b = search("spoke->hub", spokeFields, hubFields, back, forth, probes, true, onSpoke);
    return new Outcome(
        new Verdict(h.witness().isEmpty(), b.witness().isEmpty()), h.witness(), b.witness());
  }

  /** The condition's field holding a value other than the one the rule is gated on. */
  private static Counterexample.Field otherThan(
      SchemaNode node, dev.versio.engine.rule.RuleOptions.When when, String name, Probes probes) {
    JsonNode other = null;
    if (node != null) {
      for (var value : probes.values(node)) {
        if (!EngineJson.sameValue(value, when.equals())) {
          other = value;
          break;
        }
      }
    }
    return new Counterexample.Field(name, when.path(), other);
  }

  /**
   * What one direction's search saw.
   *
   * @param tried inputs that held at least one of the rule's fields
   * @param refusal the first such input the conversion refused, with why, or null
   * @param refused how many such inputs the conversion refused
   */
  private record Search(
      Optional<Counterexample> witness,
      boolean exhaustive,
      long tried,
      long refused,
      Refusal refusal) {
    static Search none() {
      return new Search(Optional.empty(), false, 0, 0, null);
    }

    boolean provenLossless() {
      return exhaustive && witness.isEmpty();
    }

    /** Whether the conversion refused every input that held one of the rule's fields. */
    boolean refusesAll() {
      return tried > 0 && refused == tried;
    }
  }

  /** An input a rule refused to convert, and the reason it gave. */
  record Refusal(List<Counterexample.Field> input, String reason) {
    String describe() {
      return input.stream()
              .map(Counterexample.Field::toString)
              .collect(java.util.stream.Collectors.joining(", "))
          + ": "
          + reason;
    }
  }

  private static Search search(
      String direction,
      List<Field> sources,
      List<Field> destinations,
      Op forth,
      Op back,
      Probes probes,
      boolean wanted,
      Counterexample.Field context) {
    boolean finite = sources.stream().allMatch(f -> Probes.finite(f.node()));
    if (sources.isEmpty() || !(wanted || finite)) {
      return Search.none();
    }
    var values = sources.stream().map(f -> probes.values(f.node())).toList();
    long combinations = 1;
    for (int i = 0; i < sources.size(); i++) {
      combinations *= values.get(i).size() + 1L; // + absent
    }
    var best = new Best(direction, sources, destinations, context);
    if (finite && combinations <= EXHAUSTIVE_LIMIT) {
      var choice = new int[sources.size()];
      for (long n = 0; n < combinations; n++) {
        long rest = n;
        for (int i = 0; i < choice.length; i++) {
          int options = values.get(i).size() + 1;
          choice[i] = (int) (rest % options) - 1; // -1 = absent
          rest /= options;
        }
        best.consider(input(sources, values, choice, context), forth, back);
      }
      return best.search(true);
    }
    if (!wanted) {
      return Search.none();
    }
    // one field at a time, then all together, then random mixes
    var choice = new int[sources.size()];
    for (int i = 0; i < sources.size(); i++) {
      java.util.Arrays.fill(choice, -1);
      for (int v = 0; v < values.get(i).size(); v++) {
        choice[i] = v;
        best.consider(input(sources, values, choice, context), forth, back);
      }
    }
    if (sources.size() > 1) {
      int longest = values.stream().mapToInt(List::size).max().orElse(0);
      for (int v = 0; v < longest; v++) {
        for (int i = 0; i < choice.length; i++) {
          choice[i] = values.get(i).isEmpty() ? -1 : v % values.get(i).size();
        }
        best.consider(input(sources, values, choice, context), forth, back);
      }
      var random = new Random(sources.size());
      for (int n = 0; n < RANDOM_COMBINATIONS; n++) {
        for (int i = 0; i < choice.length; i++) {
          int options = values.get(i).size() + 1;
          choice[i] = random.nextInt(options) - 1;
        }
        best.consider(input(sources, values, choice, context), forth, back);
      }
    }
    return best.search(false);
  }

  private static ObjectNode input(
      List<Field> sources,
      List<List<JsonNode>> values,
      int[] choice,
      Counterexample.Field context) {
    var input = EngineJson.nodes().objectNode();
    if (context != null && context.value() != null) {
      Tree.set(input, context.path(), context.value().deepCopy());
    }
    for (int i = 0; i < choice.length; i++) {
      if (choice[i] >= 0) {
        try {
          Tree.set(input, sources.get(i).path(), values.get(i).get(choice[i]).deepCopy());
        } catch (RuntimeException e) {
          return null; // one field nests inside another that is not an object here
        }
      }
    }
    return input;
  }

  /** The best counterexample seen so far: fewest fields, then the first found. */
  private static final class Best {
    private final String direction;
    private final List<Field> sources;
    private final List<Field> destinations;
    private final Counterexample.Field context;
    private Counterexample witness;
    private long size = Long.MAX_VALUE;
    private long seen;
    private long tried;
    private long refused;
    private Refusal refusal;

    /**
     * @param context a field every input holds that is not the rule's own (the condition of a
     *     {@code when}), shown first in a counterexample; or null
     */
    Best(
        String direction,
        List<Field> sources,
        List<Field> destinations,
        Counterexample.Field context) {
      this.direction = direction;
      this.sources = sources;
      this.destinations = destinations;
      this.context = context;
    }

    void consider(ObjectNode input, Op forth, Op back) {
      if (input == null) {
        return;
      }
      seen++;
      var held = present(sources, input);
      if (!held.isEmpty()) {
        tried++;
      }
      var there = EngineJson.nodes().objectNode();
      var returned = EngineJson.nodes().objectNode();
      try {
        if (forth != null) {
          forth.apply(input, there);
        }
      } catch (RuntimeException e) {
        // refused loudly: an error the user sees, not a silent loss
        if (!held.isEmpty()) {
          refused++;
          if (refusal == null) {
            refusal = new Refusal(held, String.valueOf(e.getMessage()));
          }
        }
        return;
      }
      String failure = null;
      try {
        if (back != null) {
          back.apply(there, returned);
        }
      } catch (RuntimeException e) {
        // converted one way, refused the other: what was read there cannot be written back
        failure = String.valueOf(e.getMessage());
      }
      boolean changed = failure != null;
      for (var f : sources) {
        var was = Tree.get(input, f.path());
        var now = Tree.get(returned, f.path());
        changed |= was == null ? now != null : now == null || !EngineJson.sameValue(was, now);
      }
      if (!changed) {
        return;
      }
      var before = present(sources, input);
      // an object without the fields that comes back with them (a default filled in) is a loss
      // too, but a value that is lost tells more: it is shown only when nothing else is found
      // fewest fields first, then the first found: probes come in order of how telling they are
      long candidate =
          before.isEmpty() ? Long.MAX_VALUE - 1 : before.size() * 1_000_000_000L + seen;
      if (before.isEmpty()) {
        before =
            sources.stream().map(f -> new Counterexample.Field(f.name(), f.path(), null)).toList();
      }
      if (candidate < size) {
        size = candidate;
        var shown = before;
        if (context != null) {
          shown = new ArrayList<Counterexample.Field>();
          shown.add(context);
          shown.addAll(before);
        }
        witness =
            new Counterexample(
                direction,
                shown,
                present(destinations, there),
                failure != null ? List.of() : named(sources, before, returned),
                failure);
      }
    }

    Optional<Counterexample> witness() {
      return Optional.ofNullable(witness);
    }

    Search search(boolean exhaustive) {
      return new Search(witness(), exhaustive, tried, refused, refusal);
    }

    private static List<Counterexample.Field> present(List<Field> fields, JsonNode object) {
      var out = new ArrayList<Counterexample.Field>();
      for (var f : fields) {
        var value = Tree.get(object, f.path());
        if (value != null) {
          out.add(new Counterexample.Field(f.name(), f.path(), value.deepCopy()));
        }
      }
      return out;
    }

    /** The fields of {@code before}, as they came back. */
    private static List<Counterexample.Field> named(
        List<Field> fields, List<Counterexample.Field> before, JsonNode object) {
      var out = new ArrayList<Counterexample.Field>();
      for (var f : fields) {
        if (before.stream().anyMatch(b -> b.name().equals(f.name()))) {
          var value = Tree.get(object, f.path());
          out.add(
              new Counterexample.Field(
                  f.name(), f.path(), value == null ? null : value.deepCopy()));
        }
      }
      return out;
    }
  }

  /** The fields {@code rule} reads on one side: its paths, and the metadata keys it keeps there. */
  private static List<Field> fields(Scope s, Rule rule, boolean hub) {
    var out = new ArrayList<Field>();
    var schema = hub ? s.hub() : s.spokeSchema();
    for (var path : hub ? RulePaths.hub(rule) : RulePaths.spoke(rule)) {
      var lookup = schema.lookup(path);
      if (lookup.ok()) {
        out.add(new Field(path, hub ? s.hubName(path) : s.spokeName(path), lookup.node()));
      }
    }
    switch (rule) {
      case Rule.ToAnnotation r when !hub -> out.add(metadata("annotations", r.key()));
      case Rule.ToLabel r when !hub -> out.add(metadata("labels", r.key()));
      case Rule.FromAnnotation r when hub -> out.add(metadata("annotations", r.key()));
      case Rule.FromLabel r when hub -> out.add(metadata("labels", r.key()));
      default -> {}
    }
    return out;
  }

  private static Field metadata(String bucket, String key) {
    return new Field(
        new FieldPath(List.of("metadata", bucket, key)),
        "metadata." + bucket + "['" + key + "']",
        TEXT);
  }

  /** Text the rule names: values holding it are likely to expose its loss. */
  private static List<String> literals(Rule rule) {
    return switch (rule) {
      // valid JSON not written the way the rule writes it: comes back reformatted
      case Rule.JSONString r -> List.of("{ }", "[ ]", " 1", " true");
      case Rule.ListJoin r -> List.of(r.separator());
      case Rule.ListSplit r -> List.of(r.separator());
      case Rule.ObjectToScalar r -> List.of(r.key());
      case Rule.ScalarToObject r -> List.of(r.key());
      case Rule.ArrayToMapByKey r -> List.of(r.keyField());
      case Rule.MapToArrayByKey r -> List.of(r.keyField());
      case Rule.MapKeyRename r -> concat(r.renames().keySet(), r.renames().values());
      case Rule.FieldsToMap r -> List.copyOf(r.keyNames().values());
      case Rule.MapToFields r -> List.copyOf(r.keyNames().values());
      case Rule.EnumRemap r ->
          r.mapping().stream()
              .flatMap(m -> java.util.stream.Stream.of(m.hub(), m.spoke()))
              .filter(JsonNode::isTextual)
              .map(JsonNode::asText)
              .toList();
      case Rule.ScalarToFields r -> templateText(r.joinTemplate());
      case Rule.FieldsToScalar r -> templateText(r.joinTemplate());
      default -> List.of();
    };
  }

  private static List<String> concat(Collection<String> a, Collection<String> b) {
    var out = new ArrayList<>(a);
    out.addAll(b);
    return out;
  }

  /** The literal text between a join template's {@code {{.name}}} placeholders. */
  private static List<String> templateText(String template) {
    if (template == null) {
      return List.of();
    }
    return java.util.Arrays.stream(template.split("\\{\\{[^}]*\\}\\}"))
        .filter(t -> !t.isEmpty())
        .toList();
  }
}
