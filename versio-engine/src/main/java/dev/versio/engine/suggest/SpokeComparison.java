package dev.versio.engine.suggest;

import dev.versio.engine.FieldPath;
import dev.versio.engine.schema.Leaf;
import dev.versio.engine.schema.LeafKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Compares one spoke with the hub, leaf by leaf, into a {@link SpokeSuggestion}. */
final class SpokeComparison {
  private SpokeComparison() {}

  static SpokeSuggestion compare(
      String hubVersion, String version, Map<FieldPath, Leaf> hub, Map<FieldPath, Leaf> spoke) {
    var rules = new ArrayList<ProposedRule>();
    var changed = new ArrayList<Leaf>();
    var hubOnly = new ArrayList<Leaf>();
    var spokeOnly = new ArrayList<Leaf>();
    hub.forEach(
        (path, leaf) -> {
          var other = spoke.get(path);
          if (other == null) {
            hubOnly.add(leaf);
          } else if (!other.shape().equals(leaf.shape())) {
            changed.add(leaf);
          }
        });
    var retyped = new ArrayList<SpokeSuggestion.Retyped>();
    for (var h : changed) {
      // a change inside an array's items also changes the array: report the array only
      if (changed.stream().anyMatch(o -> o != h && h.path().startsWith(o.path()))) {
        continue;
      }
      var s = spoke.get(h.path());
      EnumChanges.propose(hubVersion, version, h, s)
          .or(() -> coercion(hubVersion, version, h, s))
          .ifPresentOrElse(
              rules::add,
              () ->
                  retyped.add(
                      new SpokeSuggestion.Retyped(
                          h.path().toString(), h.describe(), s.describe())));
    }
    spoke.forEach(
        (path, leaf) -> {
          if (!hub.containsKey(path)) {
            spokeOnly.add(leaf);
          }
        });
    // objects held as lists of one: matched before renames, which would pair their leaves one by
    // one (or not at all)
    var wraps = SingletonWraps.find(hubVersion, version, hubOnly, spokeOnly, spoke, hub);
    rules.addAll(wraps.rules());
    hubOnly.removeAll(wraps.hubLeaves());
    spokeOnly.removeAll(wraps.spokeLeaves());
    var possible = new ArrayList<ProposedRule.Rename>();
    var pairedHub = new ArrayList<FieldPath>();
    var pairedSpoke = new ArrayList<FieldPath>();
    var judge = new LinkJudge(hubVersion, version, hub, spoke);
    for (var link : new Pairing(judge).pair(hubOnly, spokeOnly)) {
      if (link.confident()) {
        rules.add(link.rule());
        pairedHub.add(link.hub().path());
        pairedSpoke.add(link.spoke().path());
      } else {
        possible.add((ProposedRule.Rename) link.rule());
      }
    }
    // an array that moved takes its item fields with it
    hubOnly.removeIf(l -> pairedHub.stream().anyMatch(p -> l.path().startsWith(p)));
    spokeOnly.removeIf(l -> pairedSpoke.stream().anyMatch(p -> l.path().startsWith(p)));
    return new SpokeSuggestion(
        version, rules, possible, retyped, topMost(hubOnly), topMost(spokeOnly));
  }

  /**
   * A {@code TypeCoerce} for a scalar outside array items whose type changed between string,
   * integer, number and boolean (a number never becomes a boolean); enums are left to an {@code
   * enumRemap}.
   */
  private static Optional<ProposedRule> coercion(
      String hubVersion, String version, Leaf h, Leaf s) {
    if (h.path().throughItems() || !coercible(h) || !coercible(s)) {
      return Optional.empty();
    }
    var kinds = List.of(h.kind(), s.kind());
    if (kinds.contains(LeafKind.BOOLEAN) && !kinds.contains(LeafKind.STRING)) {
      return Optional.empty();
    }
    var reason =
        new StringBuilder()
            .append(h.kind().wireName())
            .append(" in ")
            .append(hubVersion)
            .append(", ")
            .append(s.kind().wireName())
            .append(" in ")
            .append(version);
    if (kinds.contains(LeafKind.STRING)) {
      reason.append(
          ": text read as a value loses its spelling (\"08\" comes back as \"8\"): acknowledge"
              + " that with a reason");
    } else if (kinds.contains(LeafKind.NUMBER) && kinds.contains(LeafKind.INTEGER)) {
      reason.append(": a fraction into the integer fails unless onFractionalInteger says how");
    }
    return Optional.of(new ProposedRule.Coerce(h.path().toString(), reason.toString()));
  }

  private static boolean coercible(Leaf leaf) {
    return leaf != null
        && leaf.kind().isScalar()
        && !leaf.opaque()
        && leaf.node().enumValues().isEmpty()
        && !leaf.node().intOrString();
  }

  private static List<String> topMost(List<Leaf> leaves) {
    var out = new ArrayList<String>();
    var kept = new ArrayList<FieldPath>();
    for (var leaf : leaves) {
      if (kept.stream().noneMatch(k -> leaf.path().startsWith(k) && !leaf.path().equals(k))) {
        kept.add(leaf.path());
        out.add(leaf.path().toString());
      }
    }
    return out;
  }
}
