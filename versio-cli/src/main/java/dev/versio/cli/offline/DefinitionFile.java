package dev.versio.cli.offline;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/** Exactly one of {@code --crd FILE} / {@code --xrd FILE}, for commands that need no config. */
public final class DefinitionFile {
  @Option(
      names = "--crd",
      paramLabel = "FILE",
      description = "The target CustomResourceDefinition.")
  Path crd;

  @Option(
      names = {"-x", "--xrd"},
      paramLabel = "FILE",
      description = "The target Crossplane CompositeResourceDefinition.")
  Path xrd;

  boolean given() {
    return crd != null || xrd != null;
  }

  boolean xrd() {
    return xrd != null;
  }

  Inputs.Target load() {
    if ((crd == null) == (xrd == null)) {
      throw new LoadError("pass exactly one of --crd FILE or --xrd FILE");
    }
    return Inputs.target(xrd() ? xrd : crd, xrd(), null, InputLimits.defaults());
  }
}
