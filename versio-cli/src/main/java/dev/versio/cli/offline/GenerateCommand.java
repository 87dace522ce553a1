package dev.versio.cli.offline;

import dev.versio.engine.suggest.Suggester;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code versio generate}: the skeleton config for a CRD or XRD. */
@Command(
    name = "generate",
    mixinStandardHelpOptions = true,
    description = {
      "Print the skeleton config for a CRD or XRD: its kind, target, hub (the storage version) and"
          + " one spoke per other served version with no rules yet. 'versio suggest' also proposes"
          + " rules."
    },
    footerHeading = "%nExample:%n",
    footer = {
      "  versio generate --crd crd.yaml > config.yaml",
      "",
      "Exit codes: 0 printed, 2 unreadable files or bad flags."
    })
public final class GenerateCommand implements Callable<Integer> {
  @Mixin DefinitionFile schema;

  @Option(
      names = "--hub",
      paramLabel = "VERSION",
      description = "The hub version (default: the storage version).")
  String hub;

  @Option(
      names = {"-o", "--output"},
      defaultValue = "yaml",
      description =
          "yaml (a commented config to edit) or json (the same findings as data) (default:"
              + " ${DEFAULT-VALUE}).")
  DraftFormat output;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    var target = schema.load();
    var xrd = schema.xrd();
    var suggestion = new Suggester().suggest(target.source(), hub);
    switch (output) {
      case YAML ->
          spec.commandLine().getOut().print(ConfigDraft.render(target, xrd, suggestion, false));
      case JSON ->
          Output.json(
              spec.commandLine().getOut(), ConfigDraft.json(target, xrd, suggestion, false));
    }
    spec.commandLine().getOut().flush();
    return 0;
  }
}
