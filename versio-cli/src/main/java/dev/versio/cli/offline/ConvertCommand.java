package dev.versio.cli.offline;

import dev.versio.engine.runtime.ConversionException;
import dev.versio.engine.schema.SchemaConformance;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code versio convert}: one object to another version, exactly as the webhook would. */
@Command(
    name = "convert",
    mixinStandardHelpOptions = true,
    description = {
      "Convert one object (YAML or JSON) to another version with the config, as the webhook server would."
    },
    footerHeading = "%nExample:%n",
    footer = {
      "  versio convert -c config.yaml --crd crd.yaml -f cache-v1.yaml --to v2",
      "",
      "Exit codes: 0 converted, 1 invalid config or failed conversion, 2 unreadable files or bad flags."
    })
public final class ConvertCommand implements Callable<Integer> {
  @Mixin TargetOptions options;

  @Option(
      names = {"-f", "--file"},
      required = true,
      paramLabel = "FILE",
      description = "The object to convert, or - for standard input.")
  Path file;

  @Option(
      names = "--to",
      required = true,
      paramLabel = "VERSION",
      description = "The version to convert to, e.g. v2.")
  String to;

  @Option(
      paramLabel = "FORMAT",
      names = {"-o", "--output"},
      defaultValue = "yaml",
      description = "yaml or json (default: ${DEFAULT-VALUE}).")
  DraftFormat output;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    options.requireOneStdin(file);
    var config = options.loadConfig();
    var analysis = Analysis.of(config, options.requireTarget(config));
    var err = spec.commandLine().getErr();
    if (!analysis.valid()) {
      err.println("the config does not compile against " + analysis.target().name() + ":");
      analysis.diagnostics().stream().filter(d -> d.isError()).forEach(d -> Output.text(err, d));
      return 1;
    }
    var versions =
        analysis.target().source().versions().stream().map(v -> v.name()).sorted().toList();
    if (!versions.contains(to)) {
      throw new picocli.CommandLine.ParameterException(
          spec.commandLine(),
          "--to "
              + to
              + " is not a version of "
              + analysis.target().name()
              + " (its versions: "
              + String.join(", ", versions)
              + ")");
    }
    var object = Inputs.single(file, options.limits);
    var from = new Inputs.Sample(file, object).version();
    try {
      var converted = analysis.router().convert(object, from, to);
      Output.structured(spec.commandLine().getOut(), converted, output == DraftFormat.YAML);
      // what the apiserver would do with this response, said before anyone relies on it
      analysis.target().source().versions().stream()
          .filter(v -> v.name().equals(to))
          .flatMap(v -> SchemaConformance.check(converted, v.schema()).stream())
          .filter(f -> !(config.xrd() && CrossplaneFields.owned(f.path())))
          .forEach(f -> Output.wrap(err, "warning: " + to + " schema: " + f.message(), "  "));
      return 0;
    } catch (ConversionException e) {
      err.println(
          "conversion of "
              + new InputFile(file).label()
              + " from "
              + from
              + " to "
              + to
              + " failed: "
              + e.getMessage());
      return 1;
    }
  }
}
