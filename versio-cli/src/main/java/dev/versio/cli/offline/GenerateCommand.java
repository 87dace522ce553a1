package dev.versio.cli.offline;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
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
  @Mixin DraftOptions draft;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    return draft.print(spec, false);
  }
}
