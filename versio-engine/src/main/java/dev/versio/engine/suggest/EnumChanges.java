package dev.versio.engine.suggest;

import com.fasterxml.jackson.databind.JsonNode;
import dev.versio.engine.rule.Rule;
import dev.versio.engine.schema.Leaf;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * An {@code EnumRemap} for an enum field whose values changed between the versions: each hub value
 * paired with the spoke value equal to it, else with the one spelled alike ({@code Fast} and {@code
 * fast}, {@code OnFailure} and {@code on-failure}). Values only one side has are dropped by the
 * rule, which the reason says to acknowledge; when both sides have values left over, which goes
 * with which is the author's call, and nothing is proposed.
 */
final class EnumChanges {
  private EnumChanges() {}

  static Optional<ProposedRule> propose(String hubVersion, String version, Leaf h, Leaf s) {
    var hubValues = h.node().enumValues();
    var spokeValues = s.node().enumValues();
    if (hubValues.isEmpty()
        || spokeValues.isEmpty()
        || h.kind() != s.kind()
        || !h.kind().isScalar()
        || h.opaque()
        || s.opaque()) {
      return Optional.empty();
    }
    var mapping = new ArrayList<Rule.EnumMapping>();
    var spokeLeft = new ArrayList<>(spokeValues);
    var hubLeft = new ArrayList<JsonNode>();
    for (var value : hubValues) {
      if (spokeLeft.remove(value)) {
        mapping.add(new Rule.EnumMapping(value, value, false));
      } else {
        hubLeft.add(value);
      }
    }
    var respelled = new ArrayList<String>();
    pairAlike(hubLeft, spokeLeft, mapping, respelled, EnumChanges::sameSpelling);
    pairAlike(hubLeft, spokeLeft, mapping, respelled, EnumChanges::abbreviates);
    if (mapping.isEmpty() || (!hubLeft.isEmpty() && !spokeLeft.isEmpty())) {
      return Optional.empty();
    }
    var reason = new StringBuilder();
    if (!respelled.isEmpty()) {
      reason.append("values changed in ").append(version).append(": ");
      reason.append(String.join(", ", respelled));
    }
    left(reason, hubVersion, version, hubLeft);
    left(reason, version, hubVersion, spokeLeft);
    return Optional.of(
        new ProposedRule.EnumChange(
            h.path().toString(),
            s.path().toString(),
            mapping,
            !hubLeft.isEmpty(),
            !spokeLeft.isEmpty(),
            reason.toString()));
  }

  private static void left(StringBuilder reason, String has, String lacks, List<JsonNode> values) {
    if (values.isEmpty()) {
      return;
    }
    if (!reason.isEmpty()) {
      reason.append("; ");
    }
    reason
        .append(has)
        .append(" has values ")
        .append(lacks)
        .append(" lacks (")
        .append(values.stream().map(JsonNode::asText).collect(Collectors.joining(", ")))
        .append("): the rule drops them converting to ")
        .append(lacks)
        .append(", so acknowledge that with a reason, or map each to a value ")
        .append(lacks)
        .append(" has");
  }

  /**
   * Pairs each hub value left with the one spoke value left that {@code alike} accepts, when that
   * spoke value accepts no other hub value left either (a guess that could go two ways is not
   * made).
   */
  private static void pairAlike(
      List<JsonNode> hubLeft,
      List<JsonNode> spokeLeft,
      List<Rule.EnumMapping> mapping,
      List<String> respelled,
      java.util.function.BiPredicate<JsonNode, JsonNode> alike) {
    var pairs = new ArrayList<JsonNode[]>();
    for (var value : hubLeft) {
      var matches = spokeLeft.stream().filter(o -> alike.test(value, o)).toList();
      if (matches.size() == 1
          && hubLeft.stream().filter(h -> alike.test(h, matches.getFirst())).count() == 1) {
        pairs.add(new JsonNode[] {value, matches.getFirst()});
      }
    }
    for (var pair : pairs) {
      mapping.add(new Rule.EnumMapping(pair[0], pair[1], false));
      respelled.add(pair[0].asText() + " -> " + pair[1].asText());
      hubLeft.remove(pair[0]);
      spokeLeft.remove(pair[1]);
    }
  }

  private static boolean sameSpelling(JsonNode a, JsonNode b) {
    return a.isTextual() && b.isTextual() && spelling(a).equals(spelling(b));
  }

  /** One value the other's start ({@code P} and {@code Premium}), told apart by spelling. */
  private static boolean abbreviates(JsonNode a, JsonNode b) {
    if (!a.isTextual() || !b.isTextual()) {
      return false;
    }
    var x = spelling(a);
    var y = spelling(b);
    return !x.isEmpty() && !y.isEmpty() && (x.startsWith(y) || y.startsWith(x));
  }

  /** A value's spelling without case or separators: {@code On-Failure} is {@code onfailure}. */
  private static String spelling(JsonNode value) {
    return value.asText().toLowerCase(Locale.ROOT).replaceAll("[-_ .]", "");
  }
}
