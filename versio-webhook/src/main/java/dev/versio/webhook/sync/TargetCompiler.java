package dev.versio.webhook.sync;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.versio.api.config.ConversionConfigSpec;
import dev.versio.engine.compile.CompileResult;
import dev.versio.engine.compile.Compiler;
import dev.versio.engine.diagnostic.Diagnostic;
import dev.versio.engine.json.EngineJson;
import dev.versio.engine.route.Router;
import dev.versio.engine.rule.ConfigParser;
import dev.versio.engine.schema.ResourceSchemas;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Compiles one config against its target definition: the same engine calls the CLI and the operator
 * make, so every replica reaches the same verdict.
 */
public final class TargetCompiler {
  private final ObjectMapper json = EngineJson.newMapper();
  private final ConfigParser parser = new ConfigParser();
  private final Compiler compiler = new Compiler();

  /** The result of compiling one config. */
  public sealed interface Outcome {
    record Compiled(Router router) implements Outcome {}

    /**
     * {@code reason} is a stable metric label (InvalidRules, ValidationErrors, TargetNotFound,
     * ...).
     */
    record Failed(String reason, String message) implements Outcome {}
  }

  /**
   * @param spec the config's spec
   * @param definitionJson the target CRD or XRD as JSON text (as the API returns it)
   * @param xrd whether the target is a Crossplane XRD
   */
  public Outcome compile(ConversionConfigSpec spec, String definitionJson, boolean xrd) {
    JsonNode definition;
    JsonNode specTree;
    try {
      definition = json.readTree(definitionJson);
      specTree = json.readTree(json.writeValueAsString(spec));
    } catch (Exception e) {
      return new Outcome.Failed(
          "InvalidTarget", "cannot read the target definition: " + e.getMessage());
    }
    var source = xrd ? ResourceSchemas.xrd(definition) : ResourceSchemas.crd(definition);
    return switch (parser.parse(specTree)) {
      case ConfigParser.Result.Invalid invalid ->
          new Outcome.Failed("InvalidRules", summary(invalid.diagnostics()));
      case ConfigParser.Result.Parsed parsed ->
          switch (compiler.compile(parsed.config(), source)) {
            case CompileResult.Rejected rejected ->
                new Outcome.Failed("ValidationErrors", summary(rejected.diagnostics()));
            case CompileResult.Compiled compiled ->
                new Outcome.Compiled(
                    new Router(compiled.config(), ResourceSchemas.group(definition)));
          };
    };
  }

  private static String summary(List<Diagnostic> diagnostics) {
    var errors = diagnostics.stream().filter(Diagnostic::isError).toList();
    return errors.size()
        + " error(s): "
        + errors.stream().limit(3).map(Diagnostic::toString).collect(Collectors.joining("; "))
        + (errors.size() > 3 ? "; ..." : "");
  }
}
