package dev.versio.cli.offline;

import dev.versio.engine.compile.AnalyzeReport;
import dev.versio.engine.compile.CompileResult;
import dev.versio.engine.compile.Compiler;
import dev.versio.engine.diagnostic.Diagnostic;
import dev.versio.engine.route.Router;
import dev.versio.engine.rule.ConfigParser;
import dev.versio.engine.rule.ConversionConfig;
import java.util.ArrayList;
import java.util.List;

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
    return switch (new ConfigParser().parse(config.spec())) {
      case ConfigParser.Result.Invalid invalid ->
          new Analysis(config, target, null, invalid.diagnostics(), null);
      case ConfigParser.Result.Parsed ok ->
          new Analysis(
              config,
              target,
              ok.config(),
              ok.warnings(),
              target == null ? null : new Compiler().analyze(ok.config(), target.source()));
    };
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
