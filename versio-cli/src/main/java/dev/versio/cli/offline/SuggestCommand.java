package dev.versio.cli.offline;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code versio suggest}: a starting config with candidate rules, from a CRD or XRD. */
@Command(
    name = "suggest",
    mixinStandardHelpOptions = true,
    description = {
      "Propose a starting config for a CRD or XRD: versions identical to the hub need nothing;"
          + " a field whose name and type show it was renamed or moved gets a FieldRename, a number"
          + " whose unit changed (timeoutMs, timeoutSec) a NumericScale with its factor, a scalar"
          + " whose type changed a TypeCoerce, Duration or Quantity rule. A rename the names only"
          + " partly support is printed commented out; names that share no word are never paired."
          + " Every other difference is a '# review:' comment that says what to decide."
          + " Prints YAML; nothing is guessed silently."
    },
    footerHeading = "%nExample:%n",
    footer = {
      "  versio suggest --crd crd.yaml > config.yaml && versio analyze -c config.yaml --crd crd.yaml",
      "",
      "Exit codes: 0 printed, 2 unreadable files or bad flags."
    })
public final class SuggestCommand implements Callable<Integer> {
  @Mixin DraftOptions draft;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    return draft.print(spec, true);
  }
}
