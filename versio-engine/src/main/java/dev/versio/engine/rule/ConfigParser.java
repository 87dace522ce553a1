package dev.versio.engine.rule;

import com.fasterxml.jackson.databind.JsonNode;
import dev.versio.engine.diagnostic.Diagnostic;
import dev.versio.engine.diagnostic.DiagnosticCode;
import dev.versio.engine.diagnostic.Diagnostics;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Reads the engine's part of a config's {@code spec} ({@code hubVersion}, {@code spokes}, {@code
 * unmappedFieldPolicy}, {@code unmappedFieldReason}) and runs every structural check that needs no
 * schema. Other spec fields (target, server reference, ...) belong to the API layer: a caller that
 * names them has every other spec key reported as unknown; one that does not has them ignored.
 * Unknown keys of a spoke, a rule, its {@code when} and its params block are always errors, with a
 * "did you mean" hint when a known key is close.
 */
public final class ConfigParser {
  /** The spec keys the engine reads. */
  public static final List<String> SPEC_KEYS =
      List.of("hubVersion", "spokes", "unmappedFieldPolicy", "unmappedFieldReason");

  /** The keys of one spoke. */
  public static final List<String> SPOKE_KEYS = List.of("version", "rules");

  private final RuleParser rules = new RuleParser();

  /** The parsed config, or the diagnostics that prevent it — never both. */
  public sealed interface Result {
    record Parsed(ConversionConfig config, List<Diagnostic> warnings) implements Result {}

    record Invalid(List<Diagnostic> diagnostics) implements Result {}
  }

  /** Parses {@code spec}, ignoring spec keys the engine does not read. */
  public Result parse(JsonNode spec) {
    return parse(spec, null);
  }

  /**
   * Parses {@code spec}, where {@code otherSpecKeys} are the spec keys of the API layer (target,
   * server reference, ...): any key that is neither the engine's nor one of these is an error. With
   * null, such keys are ignored.
   */
  public Result parse(JsonNode spec, Set<String> otherSpecKeys) {
    var config = Diagnostics.forSpoke(null);
    if (spec == null || !spec.isObject()) {
      config.error(DiagnosticCode.INVALID_CONFIG, null, "the config spec must be an object", null);
      return new Result.Invalid(config.all());
    }
    if (otherSpecKeys != null) {
      var known = new LinkedHashSet<>(SPEC_KEYS);
      known.addAll(new TreeSet<>(otherSpecKeys));
      unknownKeys(spec, known, "", "spec", config);
    }
    var hub = spec.path("hubVersion").asText("");
    if (hub.isBlank()) {
      config.error(
          DiagnosticCode.INVALID_CONFIG,
          "hubVersion",
          "spec.hubVersion is required",
          "set it to the storage version of the target");
    }
    var policy = UnmappedFieldPolicy.ERROR;
    var policyText = spec.path("unmappedFieldPolicy").asText("Error");
    switch (policyText) {
      case "Error" -> policy = UnmappedFieldPolicy.ERROR;
      case "Warn" -> policy = UnmappedFieldPolicy.WARN;
      default ->
          config.error(
              DiagnosticCode.INVALID_CONFIG,
              "unmappedFieldPolicy",
              "spec.unmappedFieldPolicy must be Error or Warn, found '" + policyText + "'",
              null);
    }
    var reason =
        spec.hasNonNull("unmappedFieldReason") ? spec.get("unmappedFieldReason").asText() : null;
    if (policy == UnmappedFieldPolicy.WARN && (reason == null || reason.isBlank())) {
      config.error(
          DiagnosticCode.UNMAPPED_REASON_REQUIRED,
          "unmappedFieldReason",
          "unmappedFieldPolicy Warn drops uncovered fields silently, so spec.unmappedFieldReason must say why that is acceptable",
          "add unmappedFieldReason, or cover the fields and use Error");
    }
    var spokesNode = spec.path("spokes");
    if (!spokesNode.isArray() || spokesNode.isEmpty()) {
      config.error(
          DiagnosticCode.NO_SPOKES,
          "spokes",
          "spec.spokes must list at least one spoke version",
          "add spokes: [{version: v1, rules: []}]");
    }
    var spokes = new ArrayList<SpokeRules>();
    var seen = new HashSet<String>();
    var all = new ArrayList<>(config.all());
    int count = spokesNode.isArray() ? spokesNode.size() : 0;
    for (int i = 0; i < count; i++) {
      var spokeNode = spokesNode.get(i);
      var version = spokeNode.path("version").asText("");
      var d = Diagnostics.forSpoke(version.isBlank() ? null : version);
      unknownKeys(
          spokeNode,
          SPOKE_KEYS,
          "spokes[" + i + "].",
          version.isBlank() ? "spokes[" + i + "]" : "spoke " + version,
          d);
      if (version.isBlank()) {
        d.error(DiagnosticCode.INVALID_CONFIG, "spokes", "every spoke needs a version", null);
      } else if (version.equals(hub)) {
        d.error(
            DiagnosticCode.SPOKE_IS_HUB,
            null,
            "spoke " + version + " is the hub version",
            "remove it from spokes: the hub needs no rules");
      } else if (!seen.add(version)) {
        d.error(
            DiagnosticCode.DUPLICATE_SPOKE,
            null,
            "spoke " + version + " is listed twice",
            "merge the two rule lists into one spoke entry");
      }
      var parsed = rules.parseRules(spokeNode.get("rules"), d, 0);
      all.addAll(d.all());
      if (!d.hasErrors()) {
        spokes.add(new SpokeRules(version, parsed));
      }
    }
    if (all.stream().anyMatch(Diagnostic::isError)) {
      return new Result.Invalid(List.copyOf(all));
    }
    return new Result.Parsed(new ConversionConfig(hub, spokes, policy, reason), List.copyOf(all));
  }

  /** Reports each key of {@code node} that is not {@code known}, at {@code pathPrefix + key}. */
  private static void unknownKeys(
      JsonNode node, Collection<String> known, String pathPrefix, String what, Diagnostics d) {
    if (!node.isObject()) {
      return;
    }
    for (var key : (Iterable<String>) node::fieldNames) {
      if (!known.contains(key)) {
        d.error(
            DiagnosticCode.UNKNOWN_KEY,
            pathPrefix + key,
            what + " has no key '" + key + "'",
            DidYouMean.hint(key, known, what + " holds "));
      }
    }
  }
}
