package dev.versio.cli.offline;

import dev.versio.engine.suggest.Suggester;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/** What {@code versio suggest} and {@code versio generate} share: the target, hub and format. */
public final class DraftOptions {
  @Mixin DefinitionFile schema;

  @Option(
      names = "--hub",
      paramLabel = "VERSION",
      description = "The hub version (default: the storage version).")
  String hub;

  @Option(
      paramLabel = "FORMAT",
      names = {"-o", "--output"},
      defaultValue = "yaml",
      description =
          "yaml (a commented config to edit) or json (the same findings as data) (default:"
              + " ${DEFAULT-VALUE}).")
  DraftFormat output;

  /** Prints the draft; with {@code rules}, candidate rules and review comments too. */
  int print(CommandSpec spec, boolean rules) {
    var target = schema.load();
    var xrd = schema.xrd();
    var suggestion = new Suggester().suggest(target.source(), hub);
    var out = spec.commandLine().getOut();
    switch (output) {
      case YAML -> out.print(ConfigDraft.render(target, xrd, suggestion, rules));
      case JSON -> Output.json(out, ConfigDraft.json(target, xrd, suggestion, rules));
    }
    out.flush();
    return 0;
  }
}
