package dev.versio.engine.rule;

import com.fasterxml.jackson.databind.JsonNode;
import dev.versio.engine.diagnostic.Diagnostic;
import dev.versio.engine.diagnostic.DiagnosticCode;
import dev.versio.engine.diagnostic.Diagnostics;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;

/**
 * Reads the engine's part of a config's {@code spec} ({@code hubVersion}, {@code spokes}, {@code
 * unmappedFieldPolicy}, {@code unmappedFieldReason}) and runs every structural check that needs no
 * schema. Other spec fields (target, server reference, ...) belong to the API layer and are
 * ignored.
 */
public final class ConfigParser {
  private final RuleParser rules = new RuleParser();

  /** The parsed config, or the diagnostics that prevent it — never both. */
  public sealed interface Result {
    record Parsed(ConversionConfig config, List<Diagnostic> warnings) implements Result {}

    record Invalid(List<Diagnostic> diagnostics) implements Result {}
  }

  public Result parse(JsonNode spec) {
    var config = Diagnostics.forSpoke(null);
    if (spec == null || !spec.isObject()) {
      config.error(DiagnosticCode.INVALID_CONFIG, null, "the config spec must be an object", null);
      return new Result.Invalid(config.all());
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
    for (var spokeNode : spokesNode) {
      var version = spokeNode.path("version").asText("");
      var d = Diagnostics.forSpoke(version.isBlank() ? null : version);
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
}
