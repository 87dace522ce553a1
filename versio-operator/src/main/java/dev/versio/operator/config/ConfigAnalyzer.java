package dev.versio.operator.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.versio.api.config.ConversionConfigSpec;
import dev.versio.api.config.ConversionConfigStatus.SpokeStatus;
import dev.versio.engine.compile.AnalyzeReport;
import dev.versio.engine.compile.Compiler;
import dev.versio.engine.diagnostic.Diagnostic;
import dev.versio.engine.json.EngineJson;
import dev.versio.engine.rule.ConfigParser;
import dev.versio.engine.schema.ResourceSchemas;
import dev.versio.operator.status.Analysis;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Analyses a config against its target's live schema with the same engine calls the webhook server
 * and the CLI make, and turns the report into what the status shows. Pure (no client, no clock).
 */
public final class ConfigAnalyzer {
  private final ObjectMapper json =
      EngineJson.newMapper().configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true);
  private final ConfigParser parser = new ConfigParser();
  private final Compiler compiler = new Compiler();

  /** The outcome of analysing one config. */
  public sealed interface Result {
    /** The rules do not parse (structure, params, unknown strategy, ...). */
    record Unparseable(String message) implements Result {}

    /** The analysis ran; it may contain errors. */
    record Analyzed(Analysis analysis) implements Result {}

    /** The engine failed unexpectedly (a bug): reported, never applied. */
    record Crashed(String message) implements Result {}
  }

  public Result analyze(ConversionConfigSpec spec, TargetView target, boolean xrd) {
    try {
      JsonNode specTree = json.valueToTree(spec);
      var hash = schemaHash(specTree, target.json().path("spec").path("versions"));
      return switch (parser.parse(specTree)) {
        case ConfigParser.Result.Invalid invalid ->
            new Result.Unparseable("invalid rules: " + summary(invalid.diagnostics()));
        case ConfigParser.Result.Parsed parsed -> {
          var source =
              xrd ? ResourceSchemas.xrd(target.json()) : ResourceSchemas.crd(target.json());
          yield new Result.Analyzed(toAnalysis(compiler.analyze(parsed.config(), source), hash));
        }
      };
    } catch (RuntimeException e) {
      return new Result.Crashed(
          "analysis failed unexpectedly (" + e.getClass().getSimpleName() + "): " + e.getMessage());
    }
  }

  private static Analysis toAnalysis(AnalyzeReport report, String hash) {
    var spokes = new ArrayList<SpokeStatus>();
    for (var spoke : report.spokes()) {
      var status = new SpokeStatus();
      status.version = spoke.version();
      status.hubToSpokeLossless = spoke.lossless().hubToSpoke();
      status.spokeToHubLossless = spoke.lossless().spokeToHub();
      status.fieldsUncoveredHub = new ArrayList<>(spoke.uncoveredHub());
      status.fieldsUncoveredSpoke = new ArrayList<>(spoke.uncoveredSpoke());
      status.errors = lines(spoke.diagnostics(), true);
      status.warnings = lines(spoke.diagnostics(), false);
      spokes.add(status);
    }
    return new Analysis(
        spokes,
        report.overallLossless(),
        hash,
        lines(report.diagnostics(), true),
        lines(report.diagnostics(), false));
  }

  private static List<String> lines(List<Diagnostic> diagnostics, boolean errors) {
    return diagnostics.stream()
        .filter(d -> d.isError() == errors)
        .map(Diagnostic::toString)
        .collect(Collectors.toCollection(ArrayList::new));
  }

  /** Up to three errors on one line, then the count of the rest. */
  public static String summary(List<Diagnostic> diagnostics) {
    var errors = diagnostics.stream().filter(Diagnostic::isError).toList();
    return summaryOf(errors.stream().map(Diagnostic::toString).toList());
  }

  public static String summaryOf(List<String> errors) {
    return errors.size()
        + " error(s): "
        + errors.stream().limit(3).collect(Collectors.joining("; "))
        + (errors.size() > 3
            ? "; and " + (errors.size() - 3) + " more (see status.spokeStatuses)"
            : "");
  }

  /**
   * {@code sha256:<base64url>} over the canonical config spec and the target's versions: it changes
   * exactly when the inputs of the plan change.
   */
  private String schemaHash(JsonNode spec, JsonNode versions) {
    try {
      var digest = MessageDigest.getInstance("SHA-256");
      digest.update(canonical(spec).getBytes(StandardCharsets.UTF_8));
      digest.update((byte) '\n');
      digest.update(canonical(versions).getBytes(StandardCharsets.UTF_8));
      return "sha256:" + Base64.getUrlEncoder().withoutPadding().encodeToString(digest.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }

  private String canonical(JsonNode node) {
    try {
      return json.writeValueAsString(json.treeToValue(node, Object.class));
    } catch (Exception e) {
      throw new IllegalStateException("cannot serialise " + node, e);
    }
  }
}
