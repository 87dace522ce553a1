package dev.versio.cli.offline;

import dev.versio.api.config.CRDConversionConfigSpec;
import dev.versio.api.config.ConversionConfigSpec;
import dev.versio.api.config.XRDConversionConfigSpec;
import dev.versio.engine.compile.AnalyzeReport;
import dev.versio.engine.compile.CompileResult;
import dev.versio.engine.compile.Compiler;
import dev.versio.engine.diagnostic.Diagnostic;
import dev.versio.engine.diagnostic.DiagnosticCode;
import dev.versio.engine.diagnostic.Severity;
import dev.versio.engine.route.Router;
import dev.versio.engine.rule.ConfigParser;
import dev.versio.engine.rule.ConversionConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A config parsed and, when a target is known, analysed: what every offline command starts from.
 */
record Analysis(
    Inputs.Config config,
    Inputs.Target target,
    ConversionConfig parsed,
    List<Diagnostic> parseDiagnostics,
    AnalyzeReport report) {

  static Analysis of(Inputs.Config config, Inputs.Target target) {
    var mismatch = targetMismatch(config, target);
    return switch (new ConfigParser().parse(config.spec(), apiKeys(config))) {
      case ConfigParser.Result.Invalid invalid ->
          new Analysis(config, target, null, concat(mismatch, invalid.diagnostics()), null);
      case ConfigParser.Result.Parsed ok ->
          new Analysis(
              config,
              target,
              ok.config(),
              concat(mismatch, ok.warnings()),
              target == null ? null : new Compiler().analyze(ok.config(), target.source()));
    };
  }

  /** The spec keys of the config's kind that the API layer reads (the engine reads the others). */
  private static Set<String> apiKeys(Inputs.Config config) {
    return ConversionConfigSpec.keysOf(
        config.xrd() ? XRDConversionConfigSpec.class : CRDConversionConfigSpec.class);
  }

  /** An error when the config names another definition than the one given to check it against. */
  private static List<Diagnostic> targetMismatch(Inputs.Config config, Inputs.Target target) {
    if (target == null) {
      return List.of();
    }
    var field = config.xrd() ? "targetXRD" : "targetCRD";
    var named = config.spec().path(field).path("name").asText("");
    if (named.isEmpty() || named.equals(target.name())) {
      return List.of();
    }
    return List.of(
        new Diagnostic(
            DiagnosticCode.INVALID_CONFIG,
            Severity.ERROR,
            null,
            List.of(),
            "spec." + field + ".name",
            "the config converts '"
                + named
                + "' (spec."
                + field
                + ".name), but "
                + target.file()
                + " defines '"
                + target.name()
                + "'",
            "check the config against the definition it names, or fix spec." + field + ".name"));
  }

  private static List<Diagnostic> concat(List<Diagnostic> first, List<Diagnostic> then) {
    var all = new ArrayList<>(first);
    all.addAll(then);
    return List.copyOf(all);
  }

  boolean structurallyValid() {
    return parsed != null;
  }

  /** Every diagnostic, structural first. */
  List<Diagnostic> diagnostics() {
    var all = new ArrayList<>(parseDiagnostics);
    if (report != null) {
      all.addAll(report.diagnostics());
    }
    return all;
  }

  boolean valid() {
    return diagnostics().stream().noneMatch(Diagnostic::isError);
  }

  /** A router over every spoke; only for a valid analysis. */
  Router router() {
    var result = new Compiler().compile(parsed, target.source());
    return switch (result) {
      case CompileResult.Compiled c -> new Router(c.config(), target.group());
      case CompileResult.Rejected r ->
          throw new IllegalStateException("the config does not compile");
    };
  }
}
