package dev.versio.cli.offline;

import dev.versio.engine.json.EngineJson;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code versio validate}: is a config well-formed, and (with a schema) does it compile? */
@Command(
    name = "validate",
    mixinStandardHelpOptions = true,
    description = {
      "Check a config's structure and, given the target schema, that it compiles: every field covered, every"
          + " lossy rule acknowledged, every served version handled."
    },
    footerHeading = "%nExamples:%n",
    footer = {
      "  versio validate -c config.yaml",
      "  versio validate -c config.yaml --crd crd.yaml -o json",
      "",
      "Without --crd/--xrd only the structure is checked and the verdict is STRUCTURE OK, never"
          + " VALID.",
      "",
      "Exit codes: 0 valid (or, without a schema, structure ok), 1 invalid, 2 unreadable files or"
          + " bad flags (in every output format)."
    })
public final class ValidateCommand implements Callable<Integer> {
  @Mixin TargetOptions options;

  @Option(
      paramLabel = "FORMAT",
      names = {"-o", "--output"},
      defaultValue = "table",
      description = "table, json or yaml (default: ${DEFAULT-VALUE}).")
  OutputFormat output;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    var config = options.loadConfig();
    var analysis = Analysis.of(config, options.loadTarget(config));
    var out = spec.commandLine().getOut();
    boolean schemaChecked = analysis.report() != null;
    var verdict = !analysis.valid() ? "INVALID" : schemaChecked ? "VALID" : "STRUCTURE OK";
    if (output != OutputFormat.TABLE) {
      var o = EngineJson.nodes().objectNode();
      o.put("config", config.name());
      o.put("structurallyValid", analysis.structurallyValid());
      o.put("schemaValidated", schemaChecked);
      // "valid" is earned only by the schema check; a structure-only check says so
      o.put("valid", schemaChecked && analysis.valid());
      o.put("result", verdict.toLowerCase(java.util.Locale.ROOT).replace(' ', '-'));
      o.set("diagnostics", Output.diagnostics(analysis.diagnostics()));
      LossyRules.json(o.putArray("lossyRules"), LossyRules.of(analysis.report()), true);
      Output.structured(out, o, output == OutputFormat.YAML);
    } else {
      out.println("config: " + config.name());
      out.println("structurally valid: " + (analysis.structurallyValid() ? "yes" : "no"));
      // the same facts as the JSON fields structurallyValid and schemaValidated
      out.println(
          "schema validated: "
              + (schemaChecked
                  ? "yes (against " + analysis.target().name() + ")"
                  : analysis.target() != null
                      ? "no (the config has structural errors; fix them first)"
                      : "no (no --crd/--xrd given)"));
      analysis.diagnostics().forEach(d -> Output.text(out, d));
      // acknowledged losses too: what the config accepts to lose, shown by example
      LossyRules.text(
          out,
          LossyRules.of(analysis.report()).stream().filter(e -> e.rule().acknowledged()).toList());
      if (!schemaChecked && analysis.valid()) {
        Output.wrap(
            out,
            "not checked against a schema: field paths, types, coverage of every field and"
                + " losslessness need the target definition (--crd FILE or --xrd FILE)",
            "  ");
      }
      out.println(verdict);
    }
    return analysis.valid() ? 0 : 1;
  }
}
